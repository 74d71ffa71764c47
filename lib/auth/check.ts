/**
 * Who may talk to the workbench, as a pure function of the request: the proxy calls
 * `checkRequest` on every request and only wires the answer to a response.
 *
 * In order:
 * 1. Host: only loopback names on the listening port, plus RELAY_REVIEW_ALLOWED_HOSTS. A foreign
 *    Host means DNS rebinding (a page on evil.example resolving to 127.0.0.1) → 421.
 * 2. Cross-site writes: a state-changing method with a foreign Origin, or a Sec-Fetch-Site of
 *    cross-site/same-site, → 403, on every path (login CSRF included).
 * 3. Exempt paths pass (sign-in, static assets, share links which carry their own token).
 * 4. Credentials: `Authorization: Bearer <owner token>`, or the signed session cookie together with
 *    its origin proof header (lib/auth/session.ts: the cookie reaches every port of the host, the
 *    proof only the workbench's origin; a cookie without it counts as none); none → 401
 *    JSON for /api/* and non-GET requests, a redirect to /sign-in for pages. A wrong bearer is a
 *    401 even if a cookie is also present.
 * 5. A cookie-authenticated write with neither Origin nor Sec-Fetch-Site: same-origin → 403
 *    (a browser always sends one of them; their absence with a cookie is not our page).
 */
import {
  constantTimeEqual,
  INITIAL_SESSION_EPOCH,
  isSessionProof,
  readSessionCookie,
  SESSION_PROOF_HEADER,
  verifySessionValue,
} from "@/lib/auth/session";

export interface AuthConfig {
  ownerToken: string;
  /** Lower-case `host` (any port) or `host:port` entries; see `allowedHostsFor`. */
  allowedHosts: readonly string[];
}

export interface HeaderReader {
  get(name: string): string | null;
}

export interface RequestFacts {
  method: string;
  url: string;
  headers: HeaderReader;
}

export type Via = "exempt" | "bearer" | "session";
export type CheckResult =
  | { allow: true; via: Via }
  | { allow: false; status: 400 | 401 | 403 | 421; reason: string; redirectTo?: string };

export const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);
export const LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"] as const;

/**
 * Paths that answer without the owner's credentials. Anything else needs them.
 * `/share/*` and `/api/share/*` authenticate by their own link token (a later issue); they must
 * answer an unknown token exactly like a revoked or expired one, so a link cannot be probed.
 */
const EXEMPT_EXACT: ReadonlySet<string> = new Set([
  "/sign-in",
  // The service worker that attaches the session's origin proof; it holds no secret itself.
  "/session-worker.js",
  // The OAuth redirect_uri (the Strict session cookie is not sent on the authorization server's
  // redirect; it only hands over to the authenticated /oauth/finish) and the public Client ID
  // Metadata Document an authorization server fetches.
  "/oauth/callback",
  "/oauth/client-metadata.json",
  "/api/auth/sign-in",
  // OpenID Connect sign-in (lib/auth/oidc.ts): how a person's credentials are obtained.
  "/api/auth/oidc/start",
  "/api/auth/oidc/callback",
  "/favicon.ico",
  "/_next/image",
]);
const EXEMPT_PREFIXES = [
  "/sign-in/",
  "/_next/static/",
  "/monaco/",
  "/schemas/",
  "/icon.",
  "/share/",
  "/api/share/",
  // The gate's reports (issue 31): authenticated by a reporting token that this route alone accepts.
  "/api/report/",
] as const;

export function isExemptPath(pathname: string): boolean {
  return EXEMPT_EXACT.has(pathname) || EXEMPT_PREFIXES.some((p) => pathname.startsWith(p));
}

export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/** The allow-list for a listening port (null: port unknown, any port) and RELAY_REVIEW_ALLOWED_HOSTS. */
export function allowedHostsFor(port: string | null, extra: string | undefined): string[] {
  const loopback = LOOPBACK_HOSTS.map((h) => (port ? `${h}:${port}` : h));
  const configured = (extra ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h.length > 0);
  return [...loopback, ...configured];
}

function splitHost(host: string): { name: string; port: string | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!m?.[1]) return null;
  return { name: m[1], port: m[2] ?? null };
}

export function isAllowedHost(host: string | null, allowedHosts: readonly string[]): boolean {
  if (!host) return false;
  const parsed = splitHost(host);
  if (!parsed) return false;
  const full = parsed.port ? `${parsed.name}:${parsed.port}` : parsed.name;
  return allowedHosts.some((entry) => entry === full || entry === parsed.name);
}

type OriginVerdict = "same" | "foreign" | "absent";

function originVerdict(headers: HeaderReader, allowedHosts: readonly string[]): OriginVerdict {
  const site = headers.get("sec-fetch-site")?.toLowerCase();
  if (site === "cross-site" || site === "same-site") return "foreign";
  const origin = headers.get("origin");
  if (origin === null) return "absent";
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return "foreign"; // includes the opaque "null" origin
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "foreign";
  return isAllowedHost(url.host, allowedHosts) ? "same" : "foreign";
}

type Credential = "bearer" | "session" | "bad_bearer" | "none";

function credential(
  headers: HeaderReader,
  ownerToken: string,
  nowMs: number,
  sessionEpoch: string,
  signedOut: boolean,
): Credential {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    return m?.[1] && constantTimeEqual(m[1], ownerToken) ? "bearer" : "bad_bearer";
  }
  const cookie = readSessionCookie(headers.get("cookie"));
  if (
    cookie &&
    !signedOut &&
    verifySessionValue(cookie, ownerToken, nowMs, sessionEpoch).ok &&
    isSessionProof(cookie, headers.get(SESSION_PROOF_HEADER), ownerToken)
  )
    return "session";
  return "none";
}

/**
 * `sessionEpoch`: the settings table's session epoch now; a cookie of another epoch is signed out.
 * `sessionSignedOut`: the cookie's own session was signed out (a copy of it is refused too).
 */
export function checkRequest(
  request: RequestFacts,
  config: AuthConfig,
  nowMs: number = Date.now(),
  sessionEpoch: string = INITIAL_SESSION_EPOCH,
  sessionSignedOut = false,
): CheckResult {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { allow: false, status: 400, reason: "unparseable request URL" };
  }
  if (!isAllowedHost(request.headers.get("host"), config.allowedHosts)) {
    return { allow: false, status: 421, reason: "this workbench does not answer for that Host" };
  }
  const method = request.method.toUpperCase();
  const isWrite = !SAFE_METHODS.has(method);
  const origin = isWrite ? originVerdict(request.headers, config.allowedHosts) : "absent";
  if (isWrite && origin === "foreign") {
    return { allow: false, status: 403, reason: "cross-origin state-changing request refused" };
  }
  if (isExemptPath(url.pathname)) return { allow: true, via: "exempt" };

  const cred = credential(
    request.headers,
    config.ownerToken,
    nowMs,
    sessionEpoch,
    sessionSignedOut,
  );
  if (cred === "bad_bearer" || cred === "none") {
    const reason =
      cred === "bad_bearer" ? "the bearer token is not the owner token" : "sign in first";
    if (isApiPath(url.pathname) || (method !== "GET" && method !== "HEAD"))
      return { allow: false, status: 401, reason };
    const next = url.pathname + url.search;
    return {
      allow: false,
      status: 401,
      reason,
      redirectTo: `/sign-in?next=${encodeURIComponent(next)}`,
    };
  }
  if (
    isWrite &&
    cred === "session" &&
    origin === "absent" &&
    request.headers.get("sec-fetch-site")?.toLowerCase() !== "same-origin"
  ) {
    return {
      allow: false,
      status: 403,
      reason: "a cookie-authenticated write must come from this workbench's own pages",
    };
  }
  return { allow: true, via: cred };
}
