/**
 * Named egress for a sandboxed stdio server, as data: the grants a launcher writes
 * (`"sandbox": {"egress": ["host:port", "CIDR:port"]}`), the decision for one request the server
 * makes through the workbench's proxy, the parser of the proxy request's head, and the record of
 * every attempt that goes into the sandbox report. Pure: node/egress-proxy.ts listens, resolves
 * and connects.
 *
 * The rule, in full (docs/sandbox.md says the same):
 *   - A request names a host and a port (HTTP CONNECT, or an absolute `http://` URI).
 *   - A `host:port` grant admits exactly that name (case-insensitive, no wildcard) on that port.
 *     The proxy resolves the name itself; every address it gets must be public, or named by an
 *     address/CIDR grant on the same port (see below), else the request is refused. No other name
 *     is ever looked up, so a server cannot use the workbench's resolver as a channel out.
 *   - An `address:port` or `CIDR:port` grant admits a request for an address in the range, and the
 *     addresses a granted name resolves to. An address outside public unicast space
 *     (loopback, private, link-local, CGNAT, unique-local, …) is admitted only by a grant whose own
 *     network address is in that same class: `10.0.0.0/8:5432` names private space, `0.0.0.0/0:443`
 *     names no class, so it never admits 127.0.0.1 or 169.254.169.254.
 *   - The unspecified address (0.0.0.0/8, ::), broadcast, multicast and IPv4-compatible IPv6
 *     (::a.b.c.d) are never a destination, whatever a grant says: Linux routes a connect to
 *     0.0.0.0 or :: to the host itself, so `0.0.0.0/0:5432` would otherwise reach a database
 *     listening only on the workbench's loopback. A grant whose network address is one of them
 *     (`0.0.0.0/0`, `[::/0]`, `0.0.0.0/1`) names no non-public class.
 *   - The connection goes to the address that was checked; the name is not resolved again, and
 *     the proxy checks that address again by the same rule just before and after it connects.
 */
import ipaddr from "ipaddr.js";
import { z } from "zod";

/** Named bounds on everything a server drives through the proxy, per run. */
export const EGRESS_LIMIT_DEFAULTS = {
  /** Connections through the proxy open at once; one more is refused (503). */
  connections: 8,
  /** Requests per run, allowed or refused; beyond it every request is refused (429). */
  requests: 256,
  /** MiB through the proxy per run, both directions together; the connection that crosses it is closed. */
  totalMiB: 64,
  /** Seconds a connection may carry no byte either way before it is closed. */
  idleSeconds: 30,
  /** Seconds to read the request's head, resolve the name and connect upstream. */
  connectSeconds: 10,
} as const;
export type EgressLimits = { -readonly [K in keyof typeof EGRESS_LIMIT_DEFAULTS]: number };

export const EgressLimitsSchema = z
  .object({
    connections: z.number().int().min(1).max(256),
    requests: z.number().int().min(1).max(100_000),
    totalMiB: z.number().int().min(1).max(4_096),
    idleSeconds: z.number().int().min(1).max(3_600),
    connectSeconds: z.number().int().min(1).max(120),
  })
  .strict();

export function egressLimits(overrides: Partial<EgressLimits> = {}): EgressLimits {
  return { ...EGRESS_LIMIT_DEFAULTS, ...overrides };
}

/** The request head the proxy reads before it decides: a request line and headers, no more. */
export const MAX_PROXY_HEAD_BYTES = 16_384;
/** Distinct attempts kept in the report (each with a count); more are counted as dropped. */
export const MAX_EGRESS_ATTEMPTS = 200;
/** Longest host text kept from a request (a DNS name is at most 253). */
const MAX_HOST_TEXT = 300;
/** Addresses a name may resolve to that are checked; more are refused as a flood. */
const MAX_RESOLVED = 32;

/** Inside the sandbox: where the server finds the proxy (socat bridges it to the workbench's socket). */
export const SANDBOX_PROXY_PORT = 3128;
export const SANDBOX_PROXY_URL = `http://127.0.0.1:${SANDBOX_PROXY_PORT}`;
/** Inside the sandbox: the workbench's proxy socket, bound read-only. */
export const SANDBOX_EGRESS_SOCKET = "/run/relay-review/egress.sock";

type Address = ipaddr.IPv4 | ipaddr.IPv6;

export type EgressGrant =
  | { kind: "host"; text: string; host: string; port: number }
  | {
      kind: "cidr";
      text: string;
      range: [Address, number];
      port: number;
      /**
       * The class of the range's own network address: the one non-public class it may name; null
       * when that address is itself never a destination (`0.0.0.0/0` names no class).
       */
      names: string | null;
    };

const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

function normalise(addr: Address): Address {
  return addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
    ? (addr as ipaddr.IPv6).toIPv4Address()
    : addr;
}

/** A DNS name as a grant or a request may give it: lower-cased, no trailing dot; null if it is not one. */
export function normaliseHostName(text: string): string | null {
  const h = text.toLowerCase().replace(/\.$/, "");
  if (h.length === 0 || h.length > 253) return null;
  const labels = h.split(".");
  if (!labels.every((l) => DNS_LABEL.test(l))) return null;
  // All-numeric last label: an IPv4 spelling (`10.1`, `0x7f.1`), never a name.
  if (/^(?:0x[0-9a-f]*|\d+)$/.test(labels[labels.length - 1]!)) return null;
  return h;
}

function parseIp(text: string): Address | null {
  // ipaddr.isValidFourPartDecimal: only dotted quads, not `2130706433` or `0x7f.1`.
  // A zone id (`fe80::1%eth0`) names an interface of the workbench's, never a destination.
  if (text.includes("%")) return null;
  if (text.includes(":")) return ipaddr.IPv6.isValid(text) ? normalise(ipaddr.parse(text)) : null;
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.parse(text) : null;
}

/** `host:port`, `[v6]:port`: the host text and the port, or null. */
function splitAuthority(text: string): { host: string; port: string } | null {
  const m = /^\[([^\]]*)\]:(\d{1,5})$/.exec(text) ?? /^([^:[\]]*):(\d{1,5})$/.exec(text);
  return m ? { host: m[1]!, port: m[2]! } : null;
}

function parsePort(text: string): number | null {
  const n = Number(text);
  return /^\d{1,5}$/.test(text) && n >= 1 && n <= 65_535 ? n : null;
}

export type ParseGrantResult = { ok: true; grant: EgressGrant } | { ok: false; message: string };

/** One grant from launchers.json, or why it is not one. */
export function parseEgressGrant(text: string): ParseGrantResult {
  const bad = (why: string): ParseGrantResult => ({
    ok: false,
    message: `${JSON.stringify(text)} ${why}`,
  });
  const cidr = /^(?:\[([^\]/]*)\]|([^:[\]/]*))(?:\/(\d{1,3}))?:(\d{1,5})$/.exec(text);
  const v6 = /^\[([^\]/]*)\/(\d{1,3})\]:(\d{1,5})$/.exec(text);
  const parts = v6
    ? { host: v6[1]!, bits: v6[2], port: v6[3]! }
    : cidr
      ? { host: cidr[1] ?? cidr[2]!, bits: cidr[3], port: cidr[4]! }
      : null;
  if (!parts)
    return bad("is not host:port or CIDR:port (IPv6 in brackets: [2001:db8::/32]:443, [::1]:8080)");
  const port = parsePort(parts.port);
  if (port === null) return bad("has no port between 1 and 65535");
  if (parts.host.includes("*"))
    return bad("has a wildcard; name each host (exact names only) or grant an address range");
  const addr = parseIp(parts.host);
  if (addr) {
    const max = addr.kind() === "ipv4" ? 32 : 128;
    const bits = parts.bits === undefined ? max : Number(parts.bits);
    if (bits > max) return bad(`has a prefix longer than /${max}`);
    const network = normaliseNetwork(addr, bits);
    if (network.toString() !== addr.toString())
      return bad(
        `has bits set past its /${bits} prefix; the range is ${network.toString()}/${bits}`,
      );
    return {
      ok: true,
      grant: {
        kind: "cidr",
        text,
        range: [addr, bits],
        port,
        names: NEVER_ADMITTED[classOf(addr)] ? null : classOf(addr),
      },
    };
  }
  if (parts.bits !== undefined) return bad("has a prefix length but no IP address before it");
  if (/^[\d.]+$/.test(parts.host) || /^0x/i.test(parts.host))
    return bad("looks like an IPv4 address but is not a dotted quad");
  const host = normaliseHostName(parts.host);
  if (!host) return bad("does not name a host (letters, digits, hyphens and dots)");
  return { ok: true, grant: { kind: "host", text, host, port } };
}

function normaliseNetwork(addr: Address, bits: number): Address {
  return addr.kind() === "ipv4"
    ? ipaddr.IPv4.networkAddressFromCIDR(`${addr.toString()}/${bits}`)
    : ipaddr.IPv6.networkAddressFromCIDR(`${addr.toString()}/${bits}`);
}

/** The grants of a launcher, parsed; the schema has already refused any that do not parse. */
export function parseEgressGrants(texts: readonly string[]): EgressGrant[] {
  return texts.flatMap((t) => {
    const r = parseEgressGrant(t);
    return r.ok ? [r.grant] : [];
  });
}

/** The schema of one grant in launchers.json: refused with the reason when it does not parse. */
export const EgressGrantSchema = z
  .string()
  .max(300)
  .superRefine((text, ctx) => {
    const r = parseEgressGrant(text);
    if (!r.ok) ctx.addIssue({ code: "custom", message: r.message });
  });

/**
 * Classes that are never a destination, with the reason a refusal gives. The keys are
 * ipaddr.js's class names, plus `ipv4Compatible` (classOf).
 */
const NEVER_ADMITTED: Record<string, string | undefined> = {
  unspecified: "the unspecified address, which Linux routes to the host itself",
  broadcast: "broadcast",
  multicast: "multicast",
  ipv4Compatible: "an IPv4-compatible IPv6 address, which a host may tunnel to IPv4",
};

/** ipaddr.js's class, except that ::a.b.c.d (RFC 4291's deprecated IPv4-compatible form) is its own. */
function classOf(addr: Address): string {
  const cls = addr.range();
  if (cls !== "unicast" || addr.kind() !== "ipv6") return cls;
  const parts = (addr as ipaddr.IPv6).parts;
  return parts.slice(0, 6).every((p) => p === 0) ? "ipv4Compatible" : cls;
}

/** Why an address is never connected to, whatever the grants; null when the grants decide. */
function neverAdmitted(addr: Address): string | null {
  const why = NEVER_ADMITTED[classOf(addr)];
  return why ? `${addr.toString()} is ${why}; no grant admits it` : null;
}

/** Whether a CIDR grant on this port admits the address (the class rule for non-public ones). */
function cidrAdmits(grant: EgressGrant, addr: Address, port: number): boolean {
  if (grant.kind !== "cidr" || grant.port !== port) return false;
  if (neverAdmitted(addr)) return false;
  if (grant.range[0].kind() !== addr.kind() || !addr.match(grant.range)) return false;
  const cls = classOf(addr);
  return cls === "unicast" || grant.names === cls;
}

/**
 * The same rule again for the address the proxy is about to connect to (or has connected to):
 * a request for a literal needs a grant admitting it; a granted name's address must be public or
 * admitted by an address grant on the port. Null when it may be connected to, else the reason.
 */
export function recheckConnectAddress(
  request: { host: string; port: number },
  address: string,
  grants: readonly EgressGrant[],
): string | null {
  const addr = parseIp(address);
  if (!addr) return `${JSON.stringify(address)} is not an IP address`;
  const never = neverAdmitted(addr);
  if (never) return never;
  if (grants.some((g) => cidrAdmits(g, addr, request.port))) return null;
  const byName =
    !parseIp(request.host) &&
    grants.some(
      (g) =>
        g.kind === "host" && g.host === normaliseHostName(request.host) && g.port === request.port,
    );
  return byName && classOf(addr) === "unicast"
    ? null
    : `no grant admits ${hostPort(addr.toString(), request.port)}`;
}

export type EgressDecision =
  | { ok: true; address: string; grant: string }
  | { ok: false; reason: string; status: 400 | 403 | 502 };

export type LookupAll = (host: string) => Promise<string[]>;

/**
 * Decide one request against the launcher's grants, resolving a name with `lookup` (bounded by
 * the caller). The address returned is the one to connect to; it is the one that was checked.
 */
export async function decideEgress(
  request: { host: string; port: number },
  grants: readonly EgressGrant[],
  lookup: LookupAll,
): Promise<EgressDecision> {
  const { port } = request;
  const refuse = (reason: string): EgressDecision => ({ ok: false, reason, status: 403 });
  const literal = parseIp(request.host);
  if (literal) {
    const never = neverAdmitted(literal);
    if (never) return refuse(never);
    const grant = grants.find((g) => cidrAdmits(g, literal, port));
    if (grant) return { ok: true, address: literal.toString(), grant: grant.text };
    const cls = classOf(literal);
    return refuse(
      `no grant names ${hostPort(literal.toString(), port)}${cls === "unicast" ? "" : ` (${cls})`}`,
    );
  }
  const host = normaliseHostName(request.host);
  if (!host) return { ok: false, reason: "the request names no valid host", status: 400 };
  const byName = grants.find((g) => g.kind === "host" && g.host === host && g.port === port);
  if (!byName) {
    // Only a granted name is ever looked up: resolving whatever name the server sends would give
    // it a channel out through the workbench's resolver (secret.attacker.example).
    const ports = grants.filter((g) => g.kind === "host" && g.host === host).map((g) => g.port);
    const hasRange = grants.some((g) => g.kind === "cidr" && g.port === port);
    return refuse(
      `no grant names ${host}:${port}${ports.length ? ` (granted on port ${ports.join(", ")} only)` : ""}${hasRange ? "; address grants admit addresses, not names" : ""}`,
    );
  }
  let resolved: string[];
  try {
    resolved = await lookup(host);
  } catch (error) {
    return {
      ok: false,
      reason: `could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`,
      status: 502,
    };
  }
  if (resolved.length === 0)
    return { ok: false, reason: `${host} resolved to no address`, status: 502 };
  if (resolved.length > MAX_RESOLVED) resolved = resolved.slice(0, MAX_RESOLVED);
  const refused: string[] = [];
  let first: { address: string; grant: string } | null = null;
  for (const text of resolved) {
    const addr = parseIp(text);
    if (!addr) {
      refused.push(`${text} (invalid)`);
      continue;
    }
    const cls = classOf(addr);
    const range = cls === "unicast" ? null : grants.find((g) => cidrAdmits(g, addr, port));
    if (cls === "unicast" || range)
      first ??= {
        address: addr.toString(),
        grant: range ? `${byName.text} and ${range.text}` : byName.text,
      };
    else refused.push(`${addr.toString()} (${NEVER_ADMITTED[cls] ?? cls})`);
  }
  if (refused.length || !first) {
    return refuse(
      `${host} resolves to ${refused.join(", ")}, which no grant names; a non-public address needs its own grant (${hostPort(refused[0]!.split(" ")[0]!, port)} or its range)`,
    );
  }
  return { ok: true, ...first };
}

const hostPort = (host: string, port: number) =>
  host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;

// ---------------------------------------------------------------------------------------------
// The request head

export type ProxyRequest =
  | { kind: "connect"; host: string; port: number; target: string }
  | {
      kind: "http";
      method: string;
      host: string;
      port: number;
      target: string;
      /** The head to send upstream: origin-form request line, hop-by-hop headers removed, `Connection: close`. */
      upstreamHead: string;
    };

export type ParsedHead =
  { ok: true; request: ProxyRequest } | { ok: false; reason: string; target: string };

/** Attacker text kept for the record: printable, bounded. */
export function safeTargetText(text: string): string {
  const cut = text.length > MAX_HOST_TEXT ? `${text.slice(0, MAX_HOST_TEXT)}…` : text;
  return /^[\x21-\x7e]*$/.test(cut) ? cut : JSON.stringify(cut);
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "upgrade",
  "host",
]);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The head of one proxy request (everything before the blank line), as Latin-1 text. CONNECT
 * takes `host:port`; any other method takes an absolute `http://` URI (https goes through CONNECT).
 */
export function parseProxyHead(head: string): ParsedHead {
  const lines = head.split("\r\n");
  const m = /^([A-Z]{1,20}) (\S{1,8000}) HTTP\/1\.[01]$/.exec(lines[0] ?? "");
  if (!m)
    return {
      ok: false,
      reason: "not an HTTP proxy request",
      target: safeTargetText((lines[0] ?? "").slice(0, 80)),
    };
  const method = m[1]!;
  const uri = m[2]!;
  const headers: Array<[string, string]> = [];
  for (const line of lines.slice(1)) {
    const at = line.indexOf(":");
    const name = line.slice(0, at);
    if (at <= 0 || !TOKEN.test(name))
      return { ok: false, reason: "a malformed header line", target: safeTargetText(uri) };
    headers.push([name, line.slice(at + 1).trim()]);
  }
  if (method === "CONNECT") {
    const a = splitAuthority(uri);
    const port = a ? parsePort(a.port) : null;
    if (!a || port === null)
      return {
        ok: false,
        reason: "CONNECT needs host:port with a port between 1 and 65535",
        target: safeTargetText(uri),
      };
    const host = a.host.toLowerCase().replace(/\.$/, "");
    return {
      ok: true,
      request: { kind: "connect", host, port, target: safeTargetText(hostPort(host, port)) },
    };
  }
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return {
      ok: false,
      reason: "a proxy request needs an absolute http:// URI (or CONNECT host:port)",
      target: safeTargetText(uri),
    };
  }
  if (url.protocol !== "http:")
    return {
      ok: false,
      reason: `only http:// is forwarded as a plain request; ${url.protocol}// goes through CONNECT`,
      target: safeTargetText(`${url.protocol}//${url.host}`),
    };
  if (url.username || url.password)
    return {
      ok: false,
      reason: "the URL carries credentials",
      target: safeTargetText(url.host || uri),
    };
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const port = url.port ? Number(url.port) : 80;
  const kept = headers.filter(([n]) => !HOP_BY_HOP.has(n.toLowerCase()));
  // A proxy uses the absolute URI's authority as Host (RFC 9112 §3.2.2), not the client's header.
  const upstreamHead =
    `${method} ${url.pathname}${url.search} HTTP/1.1\r\n` +
    `Host: ${url.host}\r\n` +
    kept.map(([n, v]) => `${n}: ${v}\r\n`).join("") +
    "Connection: close\r\n\r\n";
  return {
    ok: true,
    request: {
      kind: "http",
      method,
      host,
      port,
      target: safeTargetText(hostPort(host, port)),
      upstreamHead,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The record

export type EgressAttempt = {
  /** `CONNECT`, an HTTP method (an absolute-URI request), or `?` for what was not a proxy request. */
  via: string;
  /** `host:port` as the server asked (attacker-controlled text, printable and bounded). */
  target: string;
  decision: "allowed" | "refused";
  /** The grant that admitted it, or why it was refused. */
  reason: string;
  /** The address connected to (allowed only). */
  address?: string;
  /** How an allowed connection ended: `closed`, an errno (`ECONNREFUSED`), or the limit that closed it. */
  outcome?: string;
  bytesSent: number;
  bytesReceived: number;
  count: number;
};

export type EgressReport = {
  /** The grants the launcher made, as written. */
  grants: string[];
  /** Where the server found the proxy inside the sandbox. */
  proxy: string;
  limits: EgressLimits;
  attempts: EgressAttempt[];
  droppedAttempts: number;
};

/** The attempts seen so far, deduplicated with counts and byte sums, bounded by MAX_EGRESS_ATTEMPTS. */
export type EgressLog = { attempts: Map<string, EgressAttempt>; dropped: number };

export function newEgressLog(): EgressLog {
  return { attempts: new Map(), dropped: 0 };
}

export function logEgressAttempt(log: EgressLog, a: Omit<EgressAttempt, "count">): void {
  const key = JSON.stringify([a.via, a.target, a.decision, a.reason, a.address, a.outcome]);
  const had = log.attempts.get(key);
  if (had) {
    had.count++;
    had.bytesSent += a.bytesSent;
    had.bytesReceived += a.bytesReceived;
  } else if (log.attempts.size >= MAX_EGRESS_ATTEMPTS) log.dropped++;
  else log.attempts.set(key, { ...a, count: 1 });
}

export function egressReport(
  log: EgressLog,
  grants: readonly string[],
  limits: EgressLimits,
): EgressReport {
  const attempts = [...log.attempts.values()].sort(
    (a, b) => Number(a.decision === "allowed") - Number(b.decision === "allowed"),
  );
  return {
    grants: [...grants],
    proxy: SANDBOX_PROXY_URL,
    limits,
    attempts,
    droppedAttempts: log.dropped,
  };
}
