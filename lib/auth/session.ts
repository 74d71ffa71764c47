/**
 * The owner's browser session: a stateless cookie `v1.<expiry>.<nonce>.<mac>` where mac is
 * HMAC-SHA256 under a key derived from the owner token. Stateless, so every app instance that
 * shares the token accepts it; changing the token signs every browser out. Sign-out clears the
 * cookie in that browser only (there is no server-side list to revoke from).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SESSION_COOKIE = "relay_review_session";
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;
const VERSION = "v1";
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

export function createSessionValue(ownerToken: string, nowMs: number = Date.now(), ttlSeconds = SESSION_TTL_SECONDS): string {
  const expiry = Math.floor(nowMs / 1000) + ttlSeconds;
  const payload = `${VERSION}.${expiry}.${randomBytes(12).toString("base64url")}`;
  return `${payload}.${mac(ownerToken, payload)}`;
}

export type SessionCheck = { ok: true; expiresAt: number } | { ok: false; reason: "malformed" | "bad_signature" | "expired" };

export function verifySessionValue(value: string, ownerToken: string, nowMs: number = Date.now()): SessionCheck {
  const parts = value.split(".");
  if (parts.length !== 4 || parts[0] !== VERSION || !/^\d{1,12}$/.test(parts[1] ?? "")) return { ok: false, reason: "malformed" };
  const [version, expiry, nonce, signature] = parts as [string, string, string, string];
  if (!constantTimeEqual(signature, mac(ownerToken, `${version}.${expiry}.${nonce}`))) return { ok: false, reason: "bad_signature" };
  const expiresAt = Number(expiry) * 1000;
  if (expiresAt <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, expiresAt };
}

export function sessionCookieHeader(value: string, options: { secure: boolean; maxAgeSeconds?: number }): string {
  const parts = [
    `${SESSION_COOKIE}=${value}`,
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
