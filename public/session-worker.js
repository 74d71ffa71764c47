/*
 * Relay Review's session worker (docs/security.md, "The session is bound to the workbench's
 * origin"). The session cookie reaches every port of the workbench's host; the session's origin
 * proof, kept in this origin's Cache Storage by the sign-in page, must reach this origin only.
 * This worker adds it as a header to:
 *   - every request the workbench's own pages make to the workbench (fetches, scripts, RSC);
 *   - every GET navigation into the workbench (a link, the address bar, a reload).
 * Never to a request for another origin, and never to a navigation that is not a GET: any site
 * can post a form at the workbench, and that request must not leave here looking like our own.
 * The three names below are lib/auth/session-origin.ts's (a unit test keeps them in step).
 */
const SESSION_PROOF_HEADER_NAME = "x-relay-session-proof";
const SESSION_PROOF_CACHE = "relay-review-session";
const SESSION_PROOF_KEY = "/__relay-review/session-proof";

self.addEventListener("install", () => {
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

async function readProof() {
  const cache = await caches.open(SESSION_PROOF_CACHE);
  const hit = await cache.match(SESSION_PROOF_KEY);
  return hit ? hit.text() : null;
}

async function withProof(request) {
  const proof = await readProof();
  if (proof === null) return fetch(request);
  const headers = new Headers(request.headers);
  headers.set(SESSION_PROOF_HEADER_NAME, proof);
  if (request.mode === "navigate") {
    // A navigation's request cannot be copied as such: fetch it anew, and hand any redirect back
    // to the browser to follow (so a redirect elsewhere is a navigation this worker never sees).
    return fetch(request.url, {
      method: "GET",
      headers,
      credentials: "same-origin",
      redirect: "manual",
      referrer: request.referrer,
      referrerPolicy: request.referrerPolicy,
    });
  }
  // A no-cors request (an <img>, a plain <script>) would drop the header; same-origin keeps it.
  return fetch(
    new Request(request, {
      headers,
      mode: request.mode === "no-cors" ? "same-origin" : request.mode,
    }),
  );
}

/** Public files the proxy serves to anyone (lib/auth/check.ts): left to the browser, untouched. */
const PUBLIC_PREFIXES = ["/_next/static/", "/monaco/", "/schemas/", "/icon.", "/favicon.ico"];

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && request.method !== "GET") return;
  if (url.pathname === SESSION_PROOF_KEY) return;
  if (PUBLIC_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(withProof(request));
});
