import { readSessionCookie } from "@/lib/auth/session";
import { htmlPageResponse } from "@/lib/http/html-page";
import { getDb } from "@/lib/store/db";
import { finishConnect, publicOrigin } from "@/lib/workbench/oauth-flow";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The second half of the OAuth callback, same-origin, so the owner's session cookie is here (the
 * owner check in proxy.ts has passed). The state must belong to a Connect started by this very
 * session, within 10 minutes, and is accepted once; anything else is a page saying why.
 */
export async function GET(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const db = await getDb();
  const outcome = await finishConnect(db, {
    params: url.searchParams,
    sessionCookieValue: readSessionCookie(request.headers.get("cookie")),
    origin: publicOrigin(request),
  });
  if (outcome.ok) {
    const to = `/reviews/${encodeURIComponent(outcome.reviewId)}#server-${encodeURIComponent(outcome.serverId)}`;
    return new Response(null, {
      status: 303,
      headers: { Location: to, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" },
    });
  }
  return htmlPageResponse({
    status: outcome.status,
    title: outcome.title,
    paragraphs: [outcome.message],
    link: outcome.reviewId
      ? { href: `/reviews/${encodeURIComponent(outcome.reviewId)}`, label: "Back to the review" }
      : { href: "/", label: "Back to the workbench" },
  });
}
