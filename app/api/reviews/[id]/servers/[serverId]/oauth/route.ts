import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { oauthConnectionState } from "@/lib/workbench/oauth";
import { disconnectServer, publicOrigin } from "@/lib/workbench/oauth-flow";
import { loadReviewServer } from "@/lib/workbench/surface";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

async function target(params: Ctx["params"]) {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const db = await getDb();
  const { server } = await loadReviewServer(db, id, serverId);
  return { db, id, server };
}

/** Who is connected to this server, with which granted scopes, until when; never a token. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const { db, id, server } = await target(params);
  return jsonResponse(await oauthConnectionState(db, id, server));
});

/**
 * Disconnect: the stored tokens are revoked at the authorization server when it can be told
 * (RFC 7009), then the server's OAuth state (tokens and registration) is deleted in any case; the
 * answer says what the authorization server was told.
 */
export const DELETE = withRoute(async (request: Request, { params }: Ctx) => {
  const { db, id, server } = await target(params);
  return jsonResponse(
    await disconnectServer(db, {
      reviewId: id,
      serverId: server.id,
      origin: publicOrigin(request),
    }),
  );
});
