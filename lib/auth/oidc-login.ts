import "server-only";
/**
 * The half-finished sign-ins: what the callback must check (PKCE verifier, state, nonce) and where
 * to go after, kept in the settings table under the hash of a random value that only this browser
 * holds in a short-lived cookie. SameSite=Lax: the provider's redirect back is a cross-site
 * navigation, on which a Strict cookie is not sent. Each is used once.
 */
import { createHash, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/lib/store/db";
import { getSetting, setSetting } from "@/lib/store/settings";
import { settings } from "@/lib/store/tables";

export const LOGIN_COOKIE = "relay_review_oidc_login";
const LOGIN_TTL_SECONDS = 600;

export interface PendingLogin {
  codeVerifier: string;
  state: string;
  nonce: string;
  next: string;
  expiresAt: string;
}

const keyOf = (handle: string) =>
  `oidc-login:${createHash("sha256").update(handle).digest("base64url")}`;

export async function savePendingLogin(
  db: Db,
  login: Omit<PendingLogin, "expiresAt">,
  secure: boolean,
  nowMs = Date.now(),
): Promise<string> {
  const handle = randomBytes(24).toString("base64url");
  await setSetting(db, keyOf(handle), {
    ...login,
    expiresAt: new Date(nowMs + LOGIN_TTL_SECONDS * 1000).toISOString(),
  });
  return [
    `${LOGIN_COOKIE}=${handle}`,
    "Path=/api/auth/oidc",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${LOGIN_TTL_SECONDS}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The pending login this browser started, removed as it is read; null when none or expired. */
export async function takePendingLogin(
  db: Db,
  handle: string,
  nowMs = Date.now(),
): Promise<PendingLogin | null> {
  const key = keyOf(handle);
  const value = (await getSetting(db, key)) as PendingLogin | null;
  await db.delete(settings).where(eq(settings.key, key));
  if (
    !value ||
    typeof value.codeVerifier !== "string" ||
    typeof value.state !== "string" ||
    typeof value.nonce !== "string" ||
    typeof value.next !== "string" ||
    !(Date.parse(value.expiresAt) > nowMs)
  )
    return null;
  return value;
}

export function clearLoginCookie(): string {
  return `${LOGIN_COOKIE}=; Path=/api/auth/oidc; HttpOnly; SameSite=Lax; Max-Age=0`;
}
