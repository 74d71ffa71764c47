import { ReviewIdSchema } from "@/lib/ids";
import { reviewNotFound } from "@/lib/errors";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { reviewSchedule } from "@/lib/store/watches";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The review's watched (pinned) servers: interval, paused or not, next scheduled inspection. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const db = await getDb();
  const record = await getReview(db, id);
  if (!record) throw reviewNotFound(id);
  const schedule = await reviewSchedule(db, record);
  return jsonResponse({ watches: schedule.flatMap((s) => (s.watch ? [s.watch] : [])) });
});
