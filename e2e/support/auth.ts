/**
 * Signing e2e tests in. The owner token is the one playwright.config.ts hands the server
 * (RELAY_REVIEW_TOKEN); keep the two defaults in step.
 *
 * - `signIn(context)` signs in the way the owner does: a page of the context opens the sign-in
 *   link (`/sign-in#token=…`), so the session cookie lands in the context's cookie jar and the
 *   session's origin proof in the origin's storage, where the session worker attaches it to every
 *   request of every page opened from the context (docs/security.md). It returns the proof.
 * - A cookie alone opens nothing: a test's own API call with the context's cookie
 *   (`context.request`) must carry the proof too, `headers: await sessionHeaders(context)`.
 * - For API calls from a test, prefer `bearer` headers: a cookie-authenticated *write* made
 *   with `context.request` carries no Origin or Sec-Fetch-Site, which the proxy refuses (403)
 *   as it would a cross-site form post. Writes made by the app's own pages are fine.
 */
import { expect, type APIResponse, type BrowserContext } from "@playwright/test";

export const OWNER_TOKEN = process.env.E2E_TOKEN ?? "e2e-owner-token-0123456789abcdef0123456789";
export const SESSION_COOKIE = "relay_review_session";
export const SESSION_PROOF_HEADER = "x-relay-session-proof";
export const bearer: Readonly<Record<string, string>> = { Authorization: `Bearer ${OWNER_TOKEN}` };

const proofs = new WeakMap<BrowserContext, string>();

export async function signIn(
  context: BrowserContext,
  token: string = OWNER_TOKEN,
): Promise<string> {
  const page = await context.newPage();
  try {
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/auth/sign-in" && r.request().method() === "POST",
    );
    await page.goto(`/sign-in?next=%2F#token=${encodeURIComponent(token)}`);
    const res = await answered;
    expect(res.status(), `sign-in answered ${res.status()}`).toBe(204);
    const proof = res.headers()[SESSION_PROOF_HEADER];
    expect(proof, "the sign-in response's session proof").toBeTruthy();
    // Past the sign-in page: the proof is stored and the session worker is active.
    await page.waitForURL((u) => u.pathname === "/");
    proofs.set(context, proof!);
    const cookies = await context.cookies();
    expect(cookies.some((c) => c.name === SESSION_COOKIE)).toBe(true);
    return proof!;
  } finally {
    await page.close();
  }
}

/** The proof header of the session `signIn` opened in `context`, for the test's own API calls. */
export function sessionHeaders(context: BrowserContext): Record<string, string> {
  const proof = proofs.get(context);
  if (!proof) throw new Error("sessionHeaders: signIn(context) first");
  return { [SESSION_PROOF_HEADER]: proof };
}

/** The proof header a sign-in response through an API request context carries. */
export function proofHeadersOf(signInResponse: APIResponse): Record<string, string> {
  const proof = signInResponse.headers()[SESSION_PROOF_HEADER];
  if (!proof) throw new Error("the sign-in response carries no session proof");
  return { [SESSION_PROOF_HEADER]: proof };
}
