import { getAuthConfig } from "@/lib/auth/owner-token";
import { readSessionCookie } from "@/lib/auth/session";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import type { OAuthConnectResponse } from "@/lib/workbench/oauth-api";
import { beginConnect, publicOrigin } from "@/lib/workbench/oauth-flow";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/**
 * Connect: start an authorization for this server, its state bound to the caller's session
 * cookie, and answer with the authorization server's URL for the browser to go to. The request
 * names nothing but the server: where to go comes from the server's own challenge and metadata,
 * never a host of the workbench itself (the browser would carry the session cookie there).
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const reviewId = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const db = await getDb();
  const body: OAuthConnectResponse = await beginConnect(db, {
    reviewId,
    serverId,
    origin: publicOrigin(request),
    sessionCookieValue: readSessionCookie(request.headers.get("cookie")),
    allowedHosts: getAuthConfig().allowedHosts,
  });
  return jsonResponse(body);
});
