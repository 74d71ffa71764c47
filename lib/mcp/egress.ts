/**
 * The workbench's own egress allowlist for HTTP targets (SSRF guard). Default: loopback only
 * (127.0.0.0/8, ::1, the name `localhost`); `RELAY_REVIEW_EGRESS_ALLOW` replaces it with a
 * comma list of CIDRs and hostnames (`*.corp.example` matches subdomains). A URL passes when
 * its hostname is listed, or when *every* address it resolves to lies in a listed range;
 * IPv4-mapped IPv6 (`::ffff:a9fe:a9fe`) is checked as the IPv4 address it carries. Refusals are
 * values naming the address and its class. DNS is injected, so this file stays pure.
 */
import ipaddr from "ipaddr.js";

export type EgressRule =
  | { kind: "cidr"; text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number] }
  | { kind: "host"; text: string };
export type EgressPolicy = { rules: EgressRule[]; source: "default" | "env" };

export const DEFAULT_EGRESS_ALLOW = "127.0.0.0/8,::1/128,localhost";

export type ParsePolicyResult = { ok: true; policy: EgressPolicy } | { ok: false; message: string };

export function parseEgressAllow(
  text: string,
  source: EgressPolicy["source"] = "env",
): ParsePolicyResult {
  const rules: EgressRule[] = [];
  for (const raw of text.split(",")) {
    const item = raw.trim();
    if (!item) continue;
    if (item.includes("/")) {
      try {
        const [addr, bits] = ipaddr.parseCIDR(item);
        rules.push({
          kind: "cidr",
          text: item,
          range: [
            normalise(addr),
            addr.kind() === "ipv6" && normalise(addr).kind() === "ipv4" ? bits - 96 : bits,
          ],
        });
      } catch {
        return {
          ok: false,
          message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(item)} is not a CIDR range`,
        };
      }
    } else if (ipaddr.isValid(item)) {
      const addr = normalise(ipaddr.parse(item));
      rules.push({ kind: "cidr", text: item, range: [addr, addr.kind() === "ipv4" ? 32 : 128] });
    } else if (
      /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(item)
    ) {
      rules.push({ kind: "host", text: item.toLowerCase() });
    } else {
      return {
        ok: false,
        message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(item)} is neither a CIDR range nor a hostname`,
      };
    }
  }
  return { ok: true, policy: { rules, source } };
}

/** The policy from `RELAY_REVIEW_EGRESS_ALLOW`, or the loopback-only default. */
export function egressPolicyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): ParsePolicyResult {
  const text = env.RELAY_REVIEW_EGRESS_ALLOW;
  return text === undefined || text.trim() === ""
    ? parseEgressAllow(DEFAULT_EGRESS_ALLOW, "default")
    : parseEgressAllow(text, "env");
}

function normalise(addr: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/** ipaddr.js's name for an address's special range, e.g. `loopback`, `private`, `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `unicast`. */
export function addressClass(address: string): string {
  try {
    return normalise(ipaddr.parse(address)).range();
  } catch {
    return "invalid";
  }
}

export function isAddressAllowed(address: string, policy: EgressPolicy): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalise(ipaddr.parse(address));
  } catch {
    return false;
  }
  return policy.rules.some(
    (r) => r.kind === "cidr" && r.range[0].kind() === addr.kind() && addr.match(r.range),
  );
}

export function isHostAllowed(hostname: string, policy: EgressPolicy): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return policy.rules.some(
    (r) =>
      r.kind === "host" &&
      (r.text === h || (r.text.startsWith("*.") && h.endsWith(r.text.slice(1)))),
  );
}

export type LookupAll = (hostname: string) => Promise<string[]>;

export type EgressCheck =
  | { ok: true; addresses: string[]; byName: boolean }
  | { ok: false; message: string; addresses: string[] };

/** Check a URL against the policy, resolving its hostname with `lookup` (every address must pass). */
export async function checkEgress(
  url: string | URL,
  policy: EgressPolicy,
  lookup: LookupAll,
): Promise<EgressCheck> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, message: `${JSON.stringify(String(url))} is not a URL`, addresses: [] };
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    return {
      ok: false,
      message: `only http(s) URLs can be inspected, not ${u.protocol}`,
      addresses: [],
    };
  }
  const host = u.hostname.replace(/^\[|\]$/g, "");
  if (isHostAllowed(host, policy)) return { ok: true, addresses: [], byName: true };
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      return {
        ok: false,
        message: `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`,
        addresses: [],
      };
    }
  }
  if (addresses.length === 0)
    return { ok: false, message: `${host} resolved to no address`, addresses };
  const refused = addresses.filter((a) => !isAddressAllowed(a, policy));
  if (refused.length) {
    const what = refused.map((a) => `${a} (${addressClass(a)})`).join(", ");
    return {
      ok: false,
      addresses,
      message: `egress refused: ${host} resolves to ${what}, outside the workbench's egress allowlist (${policy.rules.map((r) => r.text).join(", ") || "empty"}); set RELAY_REVIEW_EGRESS_ALLOW to permit it`,
    };
  }
  return { ok: true, addresses, byName: false };
}
