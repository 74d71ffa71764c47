export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * 204 when the request's credentials are good: the proxy has already checked them (a session
 * cookie with its origin proof, or the bearer token), so reaching here is the answer. The sign-in
 * page asks it before sending a browser that still holds a live session back where it was.
 */
export function GET(): Response {
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}
