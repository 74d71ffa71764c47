/**
 * Signing e2e tests in. The owner token is the one playwright.config.ts hands the server
 * (RELAY_REVIEW_TOKEN); keep the two defaults in step.
 *
 * - `signIn(context)` POSTs the token to /api/auth/sign-in through the context's own request
 *   client, so the session cookie lands in the context's cookie jar and every page opened from
 *   it is signed in. No UI involved.
 * - For API calls from a test, prefer `bearer` headers: a cookie-authenticated *write* made
 *   with `context.request` carries no Origin or Sec-Fetch-Site, which the proxy refuses (403)
 *   as it would a cross-site form post. Writes made by the app's own pages are fine.
 */
import { expect, type BrowserContext } from "@playwright/test";

export const OWNER_TOKEN = process.env.E2E_TOKEN ?? "e2e-owner-token-0123456789abcdef0123456789";
export const SESSION_COOKIE = "relay_review_session";
export const bearer: Readonly<Record<string, string>> = { Authorization: `Bearer ${OWNER_TOKEN}` };

export async function signIn(context: BrowserContext, token: string = OWNER_TOKEN): Promise<void> {
  const res = await context.request.post("/api/auth/sign-in", { data: { token } });
  expect(res.status(), `sign-in answered ${res.status()}: ${await res.text()}`).toBe(204);
  const cookies = await context.cookies();
  expect(cookies.some((c) => c.name === SESSION_COOKIE)).toBe(true);
}
