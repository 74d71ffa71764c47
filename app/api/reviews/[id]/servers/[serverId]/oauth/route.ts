import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, noContent, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { deleteOAuthState } from "@/lib/store/oauth";
import { oauthConnectionState } from "@/lib/workbench/oauth";
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

/** Disconnect: the server's OAuth state (tokens and registration) is deleted. */
export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const { db, id, server } = await target(params);
  await deleteOAuthState(db, { reviewId: id, serverId: server.id });
  return noContent();
});
