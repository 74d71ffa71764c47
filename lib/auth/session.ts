/**
 * The owner's browser session: a cookie `v2.<epoch>.<expiry>.<nonce>.<mac>` where mac is
 * HMAC-SHA256 under a key derived from the owner token. The signature needs no server-side list,
 * so every app instance that shares the token accepts it; the epoch is the revocation: it must
 * equal the session epoch in the settings table (lib/auth/session-epoch.ts), which "sign out
 * everywhere" replaces, ending every session at once. Changing the owner token ends them too.
 * "Sign out" ends one session on the server: its nonce (the session's id) is recorded as signed
 * out until the cookie would have expired, so a copy of the cookie stops working with it.
 * Over https the cookie is `__Host-` prefixed (Secure, Path=/, no Domain), so no other host or
 * path can set or shadow it.
 *
 * The cookie alone is not a credential. Browsers send it to every port of its host (RFC 6265
 * §8.5), so a server on another port there can collect it. Each session therefore also has an
 * origin proof (`sessionProofOf`), handed to the sign-in page once and kept in storage only the
 * workbench's own origin (scheme, host and port) can read; the browser attaches it as the
 * `x-relay-session-proof` header (lib/auth/session-origin.ts, public/session-worker.js), and
 * the proxy admits a cookie only together with its proof. See docs/security.md.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "relay_review_session";
/** The cookie's name over https: the browser then insists on Secure, Path=/ and no Domain. */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
/**
 * 12 hours: one working day. A stolen cookie is worth at most that long, and the owner signs in
 * again each day with the token; a week (the earlier lifetime) outlived any day's work.
 */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;
/** The epoch before anyone signed out everywhere. */
export const INITIAL_SESSION_EPOCH = "0";
export const SESSION_EPOCH_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const VERSION = "v2";
const KEY_CONTEXT = "relay-review/session-cookie/v1";

function sessionKey(ownerToken: string): Buffer {
  return createHmac("sha256", ownerToken).update(KEY_CONTEXT).digest();
}

function mac(ownerToken: string, payload: string): string {
  return createHmac("sha256", sessionKey(ownerToken)).update(payload).digest("base64url");
}

/** Equal-time comparison of two strings of any length (both are hashed first). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

export function createSessionValue(
  ownerToken: string,
  nowMs: number = Date.now(),
  ttlSeconds = SESSION_TTL_SECONDS,
  epoch: string = INITIAL_SESSION_EPOCH,
  /** The session's id; a person's session passes one of `newPersonSessionId` (lib/auth/people.ts). */
  nonce: string = randomBytes(12).toString("base64url"),
): string {
  if (!SESSION_EPOCH_PATTERN.test(epoch)) throw new TypeError("invalid session epoch");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(nonce)) throw new TypeError("invalid session id");
  const expiry = Math.floor(nowMs / 1000) + ttlSeconds;
  const payload = `${VERSION}.${epoch}.${expiry}.${nonce}`;
  return `${payload}.${mac(ownerToken, payload)}`;
}

export type SessionCheck =
  | { ok: true; expiresAt: number }
  | { ok: false; reason: "malformed" | "bad_signature" | "expired" | "revoked" };

/** `epoch`: the session epoch now; a cookie from an earlier one was signed out everywhere. */
export function verifySessionValue(
  value: string,
  ownerToken: string,
  nowMs: number = Date.now(),
  epoch: string = INITIAL_SESSION_EPOCH,
): SessionCheck {
  const parts = value.split(".");
  if (
    parts.length !== 5 ||
    parts[0] !== VERSION ||
    !SESSION_EPOCH_PATTERN.test(parts[1] ?? "") ||
    !/^\d{1,12}$/.test(parts[2] ?? "")
  ) {
    return { ok: false, reason: "malformed" };
  }
  const [version, cookieEpoch, expiry, nonce, signature] = parts as [
    string,
    string,
    string,
    string,
    string,
  ];
  if (
    !constantTimeEqual(signature, mac(ownerToken, `${version}.${cookieEpoch}.${expiry}.${nonce}`))
  )
    return { ok: false, reason: "bad_signature" };
  if (!constantTimeEqual(cookieEpoch, epoch)) return { ok: false, reason: "revoked" };
  const expiresAt = Number(expiry) * 1000;
  if (expiresAt <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, expiresAt };
}

/** The request header that carries a session's origin proof. */
export const SESSION_PROOF_HEADER = "x-relay-session-proof";
const PROOF_CONTEXT = "relay-review/session-origin-proof/v1";

/**
 * The origin proof of session cookie `value`: a MAC of the cookie's signed payload under the
 * session key, so it needs no server-side state and changes with every session. Only meaningful
 * for a cookie that verifies; never set as a cookie (it would travel to every port like one).
 */
export function sessionProofOf(value: string, ownerToken: string): string {
  const payload = value.split(".").slice(0, 4).join(".");
  return createHmac("sha256", sessionKey(ownerToken))
    .update(`${PROOF_CONTEXT}\n${payload}`)
    .digest("base64url");
}

/** Whether `proof` is the origin proof of session cookie `value`. */
export function isSessionProof(value: string, proof: string | null, ownerToken: string): boolean {
  return proof !== null && constantTimeEqual(proof, sessionProofOf(value, ownerToken));
}

/** The session's id (its random nonce) of a well-formed cookie value, or null. Not a credential: the mac is. */
export function sessionIdOf(value: string): string | null {
  const parts = value.split(".");
  return parts.length === 5 && parts[0] === VERSION && /^[A-Za-z0-9_-]{1,64}$/.test(parts[3] ?? "")
    ? parts[3]!
    : null;
}

export function sessionCookieHeader(
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number },
): string {
  const parts = [
    `${options.secure ? HOST_SESSION_COOKIE : SESSION_COOKIE}=${value}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${options.maxAgeSeconds ?? SESSION_TTL_SECONDS}`,
  ];
  if (options.secure) parts.push("Secure");
  return parts.join("; ");
}

export function clearSessionCookieHeader(options: { secure: boolean }): string {
  return sessionCookieHeader("", { ...options, maxAgeSeconds: 0 });
}

/** The session cookie of a Cookie header: the `__Host-` one when present, else the plain one. */
export function readSessionCookie(cookieHeader: string | null): string | null {
  return readCookie(cookieHeader, HOST_SESSION_COOKIE) ?? readCookie(cookieHeader, SESSION_COOKIE);
}

/** Whether the request reached us over https (directly or through a proxy that says so). */
export function isSecureRequest(request: Request): boolean {
  return (
    new URL(request.url).protocol === "https:" ||
    request.headers.get("x-forwarded-proto") === "https"
  );
}

/** The value of one cookie from a Cookie header, or null. */
export function readCookie(cookieHeader: string | null, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
