import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { loadReviewServer, surfaceView } from "@/lib/workbench/surface";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** The latest inspection, its snapshot, suspicious flags, the pin check, the diff and the registration record. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const db = await getDb();
  const { record, server } = await loadReviewServer(db, id, serverId);
  return jsonResponse(await surfaceView(db, record, server));
});
