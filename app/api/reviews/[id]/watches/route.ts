import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { listWatches } from "@/lib/store/watches";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The review's watched (pinned) servers: interval, paused or not, next scheduled inspection. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  return jsonResponse({ watches: await listWatches(await getDb(), id) });
});
