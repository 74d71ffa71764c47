/**
 * The refusals the OAuth flow makes on what servers send, as pure functions returning a reason or
 * null: every URL is attacker-controlled (the MCP server names its resource metadata, which names
 * the authorization server, whose metadata names every endpoint), so each is checked before it is
 * fetched or handed to a browser. Also scope and expiry arithmetic, and redaction of secrets from
 * messages that quote a server's words.
 */
import ipaddr from "ipaddr.js";

/** Whether a URL's host is loopback (`localhost`, 127.0.0.0/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (!ipaddr.isValid(host)) return false;
  const addr = ipaddr.parse(host);
  const v4 =
    addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()
      ? (addr as ipaddr.IPv6).toIPv4Address()
      : addr;
  return v4.range() === "loopback";
}

/**
 * `what` at `url` may be used: https, or http on a loopback host (the spec requires TLS for every
 * authorization endpoint except a local one). Returns the refusal, or null.
 */
export function endpointRefusal(what: string, url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${what} ${JSON.stringify(url.slice(0, 200))} is not a URL`;
  }
  if (u.username || u.password) return `${what} ${safeUrl(u)} carries credentials in its URL`;
  if (u.protocol === "https:") return null;
  if (u.protocol === "http:") {
    return isLoopbackHost(u.hostname)
      ? null
      : `${what} ${safeUrl(u)} is plain http off loopback; only https is accepted there`;
  }
  return `${what} ${safeUrl(u)} is not an http(s) URL`;
}

/** A URL for a message: no credentials, query or fragment (they may carry a code or a state). */
export function safeUrl(url: URL | string): string {
  try {
    const u = new URL(String(url));
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return JSON.stringify(String(url).slice(0, 200));
  }
}

/**
 * RFC 8414 §3.3: the metadata's `issuer` must be the authorization server URL the metadata was
 * fetched for (a trailing slash aside). Returns the refusal, or null.
 */
export function issuerRefusal(authorizationServerUrl: string, issuer: unknown): string | null {
  if (typeof issuer !== "string" || issuer === "")
    return `the authorization server metadata for ${safeUrl(authorizationServerUrl)} names no issuer`;
  return sameIssuer(authorizationServerUrl, issuer)
    ? null
    : `the authorization server metadata fetched for ${safeUrl(authorizationServerUrl)} names issuer ${safeUrl(issuer)}; they must be the same (RFC 8414 §3.3), or a server could pass off another's endpoints`;
}

/** Two issuer identifiers are the same, compared as parsed URLs, a single trailing `/` aside. */
export function sameIssuer(a: string, b: string): boolean {
  let [x, y] = [a, b];
  try {
    [x, y] = [new URL(a).href, new URL(b).href];
  } catch {
    // not URLs: compared as written
  }
  const strip = (s: string) => (s.endsWith("/") ? s.slice(0, -1) : s);
  return strip(x) === strip(y);
}

/** The RFC 8707 resource identifier of an MCP endpoint: its URL without the fragment. */
export function resourceOf(serverUrl: string | URL): URL {
  const u = new URL(String(serverUrl));
  u.hash = "";
  return u;
}

/**
 * RFC 9728 §3.3: the resource metadata's `resource` must identify this server: the same origin,
 * and a path that is the server's path or a parent of it (a server at /mcp may be protected as /).
 * Returns the refusal, or null.
 */
export function resourceRefusal(serverUrl: string | URL, resource: unknown): string | null {
  const server = resourceOf(serverUrl);
  if (typeof resource !== "string") return `the protected resource metadata names no resource`;
  let r: URL;
  try {
    r = new URL(resource);
  } catch {
    return `the protected resource metadata's resource ${JSON.stringify(resource.slice(0, 200))} is not a URL`;
  }
  const slash = (p: string) => (p.endsWith("/") ? p : `${p}/`);
  if (r.origin === server.origin && slash(server.pathname).startsWith(slash(r.pathname)))
    return null;
  return `the protected resource metadata names resource ${safeUrl(r)}, which is not this server (${safeUrl(server)}) or a parent path on its origin; a token for it could be replayed elsewhere (RFC 8707), so it is not requested`;
}

/** Space-separated scope to a sorted, de-duplicated list. */
export function scopeSet(scope: string | null | undefined): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(/\s+/).filter(Boolean))].sort();
}

/**
 * The scope to request (MCP 2025-11-25 "Scope Selection Strategy"): the challenge's `scope`, else
 * every scope in the resource metadata's `scopes_supported`, else the configured fallback, else
 * none (the parameter is omitted).
 */
export function selectScope(
  challengeScope: string | null | undefined,
  scopesSupported: readonly string[] | undefined,
  fallback: string | undefined,
): string | undefined {
  if (challengeScope && challengeScope.trim()) return challengeScope.trim();
  if (scopesSupported && scopesSupported.length) return scopesSupported.join(" ");
  return fallback?.trim() || undefined;
}

/** When a token obtained at `obtainedAtSec` with `expiresIn` seconds expires (ms), or null. */
export function expiresAtMs(obtainedAtSec: number, expiresIn: number | undefined): number | null {
  if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn <= 0) return null;
  return (obtainedAtSec + expiresIn) * 1000;
}

/**
 * Replace every occurrence of a known secret in `text` by `[redacted]`, and bound it. Messages
 * quote what authorization servers answer, and a hostile one can echo a posted secret back.
 */
export function redact(text: string, secrets: Iterable<string>, max = 400): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join("[redacted]");
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/**
 * The `sub` (or `email`) of an ID token, unverified and for display only ("who connected"); never
 * used for a decision. Null when there is none or it is not readable.
 */
export function idTokenSubject(idToken: string | undefined): string | null {
  if (!idToken) return null;
  const part = idToken.split(".")[1];
  if (!part || part.length > 16_384) return null;
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) =>
      c.charCodeAt(0),
    );
    const json = JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    if (!json || typeof json !== "object") return null;
    const o = json as Record<string, unknown>;
    const who = typeof o.email === "string" ? o.email : typeof o.sub === "string" ? o.sub : null;
    return who ? who.slice(0, 200) : null;
  } catch {
    return null;
  }
}
