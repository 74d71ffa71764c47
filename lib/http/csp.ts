/**
 * The Content-Security-Policy of every response (set by proxy.ts with a fresh nonce per request).
 * Scripts run only with this request's nonce; `'strict-dynamic'` lets those scripts load the
 * chunks and Monaco's AMD modules they insert, and nothing a page's HTML merely contains. Pure.
 *
 * - No `'unsafe-eval'`: neither Next's production runtime nor Monaco's AMD build from /monaco
 *   needs it (zod's probe for it is switched off in app/providers.tsx); `next dev` does (React's
 *   dev tooling), so it is added there only.
 * - `style-src 'unsafe-inline'`: React writes `style="…"` attributes into the server-rendered HTML
 *   and Monaco injects its own <style> elements; a nonce cannot cover attributes. Styles cannot
 *   run script, and `default-src`/`img-src`/`font-src` keep them from fetching elsewhere.
 * - `worker-src 'self' blob:`: Monaco starts its workers from our origin (a blob: URL when it
 *   cannot tell the script is same-origin); its files get MONACO_ASSET_POLICY below.
 */
export function contentSecurityPolicy(nonce: string, options: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * The policy of Monaco's own files (/monaco/…). A worker started from one of them runs under that
 * response's policy, and loads its modules with importScripts, which no nonce can cover: our own
 * origin's scripts, and nothing else.
 */
export const MONACO_ASSET_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The policy for a response to `pathname`. */
export function policyFor(
  pathname: string,
  nonce: string,
  options: { dev?: boolean } = {},
): string {
  return pathname.startsWith("/monaco/")
    ? MONACO_ASSET_POLICY
    : contentSecurityPolicy(nonce, options);
}

/** 16 random bytes, base64: a fresh nonce for one response. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
