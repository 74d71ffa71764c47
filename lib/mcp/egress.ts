/**
 * The workbench's own egress allowlist for HTTP targets (SSRF guard). Default: loopback only
 * (127.0.0.0/8, ::1, the name `localhost`); `RELAY_REVIEW_EGRESS_ALLOW` replaces it with a
 * comma list of CIDRs and hostnames (`*.corp.example` matches subdomains). A URL passes when
 * its hostname is listed, or when *every* address it resolves to lies in a listed range;
 * IPv4-mapped IPv6 (`::ffff:a9fe:a9fe`) is checked as the IPv4 address it carries. Refusals are
 * values naming the address and its class. DNS is injected, so this file stays pure.
 */
import ipaddr from "ipaddr.js";

/** `port`: the one port the entry admits (`host:port`, `[v6]:port`, `cidr:port`), or null for any. */
export type EgressRule =
  | { kind: "cidr"; text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | null }
  | { kind: "host"; text: string; host: string; port: number | null };
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
    const split = splitPort(item);
    if (typeof split === "string")
      return { ok: false, message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(item)} ${split}` };
    const { address, port } = split;
    if (address.includes("/")) {
      try {
        const [addr, bits] = ipaddr.parseCIDR(address);
        rules.push({
          kind: "cidr",
          text: item,
          range: [
            normalise(addr),
            addr.kind() === "ipv6" && normalise(addr).kind() === "ipv4" ? bits - 96 : bits,
          ],
          port,
        });
      } catch {
        return {
          ok: false,
          message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(item)} is not a CIDR range`,
        };
      }
    } else if (ipaddr.isValid(address)) {
      const addr = normalise(ipaddr.parse(address));
      rules.push({
        kind: "cidr",
        text: item,
        range: [addr, addr.kind() === "ipv4" ? 32 : 128],
        port,
      });
    } else if (
      /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(address)
    ) {
      rules.push({ kind: "host", text: item.toLowerCase(), host: address.toLowerCase(), port });
    } else {
      return {
        ok: false,
        message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(item)} is neither a CIDR range nor a hostname`,
      };
    }
  }
  return { ok: true, policy: { rules, source } };
}

/**
 * An entry's address and port: `[v6]:port` and `[v6/len]:port` (an IPv6 address needs brackets
 * to carry a port), `v4:port`, `cidr:port`, `host:port`; a bare IPv6 (`::1`, `fd00::/8`) has none.
 * A string when the port is not a number from 1 to 65535.
 */
function splitPort(item: string): { address: string; port: number | null } | string {
  const BAD_PORT = "has a port that is not a number from 1 to 65535";
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(item);
  if (bracketed) {
    if (bracketed[2] === undefined) return { address: bracketed[1]!, port: null };
    const port = parsePort(bracketed[2]);
    return port === null ? BAD_PORT : { address: bracketed[1]!, port };
  }
  const colon = item.lastIndexOf(":");
  // No colon, or more than one without brackets (a bare IPv6 address or range): no port.
  if (colon < 0 || item.indexOf(":") !== colon) return { address: item, port: null };
  const port = parsePort(item.slice(colon + 1));
  return port === null ? BAD_PORT : { address: item.slice(0, colon), port };
}

function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= 65535 ? n : null;
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

const portMatches = (rule: EgressRule, port: number) => rule.port === null || rule.port === port;

/** Whether `address` on `port` lies in a listed range (an entry with a port admits that port only). */
export function isAddressAllowed(address: string, policy: EgressPolicy, port: number): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalise(ipaddr.parse(address));
  } catch {
    return false;
  }
  return policy.rules.some(
    (r) =>
      r.kind === "cidr" &&
      portMatches(r, port) &&
      r.range[0].kind() === addr.kind() &&
      addr.match(r.range),
  );
}

export function isHostAllowed(hostname: string, policy: EgressPolicy, port: number): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return policy.rules.some(
    (r) =>
      r.kind === "host" &&
      portMatches(r, port) &&
      (r.host === h || (r.host.startsWith("*.") && h.endsWith(r.host.slice(1)))),
  );
}

/** The port a URL connects to: its own, or its scheme's default. */
export function urlPort(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === "https:" ? 443 : 80;
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
  const port = urlPort(u);
  if (isHostAllowed(host, policy, port)) return { ok: true, addresses: [], byName: true };
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
  const refused = addresses.filter((a) => !isAddressAllowed(a, policy, port));
  if (refused.length) {
    const what = refused.map((a) => `${a} (${addressClass(a)}) port ${port}`).join(", ");
    return {
      ok: false,
      addresses,
      message: `egress refused: ${host} resolves to ${what}, outside the workbench's egress allowlist (${policy.rules.map((r) => r.text).join(", ") || "empty"}); set RELAY_REVIEW_EGRESS_ALLOW to permit it`,
    };
  }
  return { ok: true, addresses, byName: false };
}
