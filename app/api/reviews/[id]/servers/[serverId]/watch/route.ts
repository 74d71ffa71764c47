import { AppError } from "@/lib/errors";
import { ReviewIdSchema, ServerIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { setWatch } from "@/lib/store/watches";
import { WatchRequestSchema } from "@/lib/watch/schedule";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; serverId: string }> };

/** Set a pinned server's re-inspection interval (seconds) and pause or resume it. */
export const PUT = withRoute(async (request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const serverId = parseParam(ServerIdSchema, p.serverId, "serverId");
  const body = await readJson(request, WatchRequestSchema);
  const watch = await setWatch(await getDb(), id, serverId, body);
  if (!watch)
    throw new AppError(
      "NOT_FOUND",
      `server ${JSON.stringify(serverId)} of review ${JSON.stringify(id)} is not watched: only a pinned server is re-inspected on a schedule (a newly pinned one appears within a few seconds)`,
    );
  return jsonResponse(watch);
});
