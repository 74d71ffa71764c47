import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { serverVariables } from "@/lib/workbench/secrets";
import { loadReviewServer } from "@/lib/workbench/surface";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** The variable names this server needs and whether each would resolve now (states, never values). */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const db = await getDb();
  const { server } = await loadReviewServer(db, id, serverId);
  return jsonResponse(await serverVariables(db, server));
});
