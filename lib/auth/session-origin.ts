/**
 * The browser's half of the session's origin binding (lib/auth/session.ts, docs/security.md).
 * The session cookie reaches every port of the workbench's host; its origin proof must reach
 * only the workbench's own origin. So the proof lives in Cache Storage, which is scoped to the
 * origin (scheme, host and port) and readable by no page of another port, and two things attach
 * it as a header: the service worker public/session-worker.js, registered for the whole origin,
 * on every request the workbench's pages make and every GET navigation into the workbench; and
 * `sessionProofHeaders` for a fetch made before that worker controls the page. The worker never
 * adds it to a request for another origin, nor to a navigation that is not a GET (a form any
 * site can post at us). Browser-only functions (they touch `caches` and `navigator` when
 * called); public/session-worker.js repeats the three names below, and a unit test keeps them
 * in step.
 */

export const SESSION_PROOF_HEADER_NAME = "x-relay-session-proof";
export const SESSION_PROOF_CACHE = "relay-review-session";
/** The Cache Storage key the proof is kept under; never requested from the network. */
export const SESSION_PROOF_KEY = "/__relay-review/session-proof";
export const SESSION_WORKER_PATH = "/session-worker.js";

/** Why this browser cannot hold a session here, or null when it can. */
export function sessionOriginUnsupported(): string | null {
  if (typeof window === "undefined") return "not in a browser";
  if (!window.isSecureContext || !("serviceWorker" in navigator) || !("caches" in window))
    return (
      "This page cannot keep the session bound to the workbench's address: the browser offers " +
      "service workers only on https, http://127.0.0.1 and http://localhost. Open the workbench " +
      "at one of those."
    );
  return null;
}

async function proofCache(): Promise<Cache> {
  return caches.open(SESSION_PROOF_CACHE);
}

/** Keeps a new session's proof (from the sign-in response) and starts the worker that sends it. */
export async function storeSessionProof(proof: string): Promise<void> {
  const cache = await proofCache();
  await cache.put(
    SESSION_PROOF_KEY,
    new Response(proof, { headers: { "Content-Type": "text/plain" } }),
  );
  await navigator.serviceWorker.register(SESSION_WORKER_PATH, { scope: "/" });
  // Resolves once a worker is active: every navigation from now on goes through it.
  await navigator.serviceWorker.ready;
}

export async function readSessionProof(): Promise<string | null> {
  if (typeof caches === "undefined") return null;
  const hit = await (await proofCache()).match(SESSION_PROOF_KEY);
  return hit ? hit.text() : null;
}

export async function clearSessionProof(): Promise<void> {
  if (typeof caches === "undefined") return;
  await caches.delete(SESSION_PROOF_CACHE);
}

/**
 * The proof header for a fetch to the workbench, when no worker controls this page (the worker
 * adds it itself otherwise, so a preloaded response still matches the page's own fetch).
 */
export async function sessionProofHeaders(): Promise<Record<string, string>> {
  if (typeof navigator === "undefined" || navigator.serviceWorker?.controller) return {};
  const proof = await readSessionProof().catch(() => null);
  return proof ? { [SESSION_PROOF_HEADER_NAME]: proof } : {};
}
