/**
 * The workbench's own egress allowlist for HTTP targets and webhooks (SSRF guard).
 * `RELAY_REVIEW_EGRESS_ALLOW` is a comma list of CIDRs, addresses and hostnames, each optionally
 * with one port (`*.corp.example` matches subdomains); the default is empty: nothing is admitted.
 * A URL passes when its hostname is listed, or when *every* address it resolves to lies in a
 * listed range. A loopback or unspecified address (the host's own services: the workbench, its
 * database, any local admin UI) is admitted only by an entry that names its port, never by a
 * range or a bare name; and the workbench's own port (`PORT`) and the database's (`DATABASE_URL`)
 * on loopback are refused even when named. IPv4-mapped IPv6 (`::ffff:a9fe:a9fe`) is checked as
 * the IPv4 address it carries. Refusals are values naming the address, its class and the entry
 * to add. DNS is injected, so this file stays pure.
 */
import ipaddr from "ipaddr.js";

/** `port`: the one port the entry admits (`host:port`, `[v6]:port`, `cidr:port`), or null for any. */
export type EgressRule =
  | { kind: "cidr"; text: string; range: [ipaddr.IPv4 | ipaddr.IPv6, number]; port: number | null }
  | { kind: "host"; text: string; host: string; port: number | null };
/** `reserved`: loopback ports never admitted, with the reason (the workbench's own, the database's). */
export type EgressPolicy = {
  rules: EgressRule[];
  source: "default" | "env";
  reserved?: ReadonlyMap<number, string>;
};

/** Nothing: an operator names every destination, and a loopback one with its port. */
export const DEFAULT_EGRESS_ALLOW = "";

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

/**
 * The policy from `RELAY_REVIEW_EGRESS_ALLOW`, or the empty default. An entry that names the
 * workbench's own port (`PORT`, when set) or the database's (`DATABASE_URL` on loopback) on a
 * loopback address is refused here, so the mistake shows when the setting is read.
 */
export function egressPolicyFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): ParsePolicyResult {
  const text = env.RELAY_REVIEW_EGRESS_ALLOW;
  const parsed =
    text === undefined || text.trim() === ""
      ? parseEgressAllow(DEFAULT_EGRESS_ALLOW, "default")
      : parseEgressAllow(text, "env");
  if (!parsed.ok) return parsed;
  const reserved = reservedPorts(env);
  for (const rule of parsed.policy.rules) {
    const why = rule.port === null ? undefined : reserved.get(rule.port);
    if (why && ruleReachesLoopback(rule))
      return {
        ok: false,
        message: `RELAY_REVIEW_EGRESS_ALLOW: ${JSON.stringify(rule.text)} names ${why} on loopback; the workbench never sends requests there, remove the entry`,
      };
  }
  return { ok: true, policy: { ...parsed.policy, reserved } };
}

function reservedPorts(env: Readonly<Record<string, string | undefined>>): Map<number, string> {
  const reserved = new Map<number, string>();
  // Only when set: the CLI has no port of its own, and 3000 is a common MCP server's port too.
  const own = env.PORT?.trim() ? parsePort(env.PORT.trim()) : null;
  if (own !== null) reserved.set(own, `the workbench's own port (${own})`);
  try {
    const db = env.DATABASE_URL ? new URL(env.DATABASE_URL) : null;
    const host = db?.hostname.replace(/^\[|\]$/g, "").toLowerCase() ?? "";
    if (db && (host === "localhost" || host === "" || isLoopbackLike(host))) {
      const port = db.port ? Number(db.port) : 5432;
      reserved.set(port, `the database's port (${port})`);
    }
  } catch {
    // Not a URL: the database layer reports it; nothing to reserve.
  }
  return reserved;
}

function ruleReachesLoopback(rule: EgressRule): boolean {
  if (rule.kind === "host") return rule.host === "localhost" || rule.host.endsWith(".localhost");
  const [net, bits] = rule.range;
  const probe = net.kind() === "ipv4" ? ipaddr.parse("127.0.0.1") : ipaddr.parse("::1");
  return probe.match([net, bits]) || isLoopbackLike(net.toString());
}

/** Loopback or unspecified (0.0.0.0 and :: reach the host itself on Linux). */
export function isLoopbackLike(address: string): boolean {
  const cls = addressClass(address);
  return cls === "loopback" || cls === "unspecified";
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

/**
 * Whether `address` on `port` lies in a listed range (an entry with a port admits that port only).
 * A loopback or unspecified address needs an entry naming its port, and never a reserved port.
 */
export function isAddressAllowed(address: string, policy: EgressPolicy, port: number): boolean {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = normalise(ipaddr.parse(address));
  } catch {
    return false;
  }
  const local = isLoopbackLike(addr.toString());
  if (local && policy.reserved?.has(port)) return false;
  return policy.rules.some(
    (r) =>
      r.kind === "cidr" &&
      portMatches(r, port) &&
      (!local || r.port !== null) &&
      r.range[0].kind() === addr.kind() &&
      addr.match(r.range),
  );
}

/** Whether the name is listed for `port` (its addresses are still checked by `isResolvedAllowed`). */
export function isHostAllowed(hostname: string, policy: EgressPolicy, port: number): boolean {
  return hostRules(hostname, policy, port).length > 0;
}

function hostRules(hostname: string, policy: EgressPolicy, port: number): EgressRule[] {
  const h = hostname.toLowerCase().replace(/\.$/, "");
  return policy.rules.filter(
    (r) =>
      r.kind === "host" &&
      portMatches(r, port) &&
      (r.host === h || (r.host.startsWith("*.") && h.endsWith(r.host.slice(1)))),
  );
}

/**
 * Whether a connection to `hostname`, resolved to `address`, on `port` is admitted: by a listed
 * name (a loopback or unspecified answer only when that entry names the port), or by the address.
 */
export function isResolvedAllowed(
  hostname: string,
  address: string,
  policy: EgressPolicy,
  port: number,
): boolean {
  if (isAddressAllowed(address, policy, port)) return true;
  const byName = hostRules(hostname, policy, port);
  if (byName.length === 0) return false;
  if (!isLoopbackLike(address)) return true;
  if (policy.reserved?.has(port)) return false;
  return byName.some((r) => r.port !== null);
}

/** The entry an operator would add to admit `address` on `port`. */
export function entryToAdd(address: string, port: number): string {
  return ipaddr.isValid(address) && normalise(ipaddr.parse(address)).kind() === "ipv6"
    ? `[${address}]:${port}`
    : `${address}:${port}`;
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
  const named = isHostAllowed(host, policy, port);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = await lookup(host);
    } catch (error) {
      // A listed name need not resolve here (the connection's own lookup is checked again).
      if (named) return { ok: true, addresses: [], byName: true };
      return {
        ok: false,
        message: `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`,
        addresses: [],
      };
    }
  }
  if (addresses.length === 0)
    return { ok: false, message: `${host} resolved to no address`, addresses };
  const refused = addresses.filter((a) => !isResolvedAllowed(host, a, policy, port));
  if (refused.length) {
    const what = refused.map((a) => `${a} (${addressClass(a)}) port ${port}`).join(", ");
    const local = refused.filter(isLoopbackLike);
    const reserved = local.length > 0 ? policy.reserved?.get(port) : undefined;
    const hint = reserved
      ? `that is ${reserved}, which the workbench never sends requests to`
      : local.length > 0
        ? `a loopback address is admitted only by an entry naming its port: add ${local.map((a) => entryToAdd(a, port)).join(",")} to RELAY_REVIEW_EGRESS_ALLOW (RELAY_REVIEW_EGRESS_ALLOW=${local.map((a) => entryToAdd(a, port)).join(",")})`
        : `set RELAY_REVIEW_EGRESS_ALLOW to permit it`;
    return {
      ok: false,
      addresses,
      message: `egress refused: ${host} resolves to ${what}, outside the workbench's egress allowlist (${policy.rules.map((r) => r.text).join(", ") || "empty"}); ${hint}`,
    };
  }
  return { ok: true, addresses, byName: named };
}
