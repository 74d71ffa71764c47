import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { analyzeStoredReview } from "@/lib/workbench/analysis";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The source-to-sink analysis of the review's current revision, with `{ reviewId, revision }`. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const analysis = await analyzeStoredReview(await getDb(), id);
  if (!analysis) throw reviewNotFound(id);
  return jsonResponse(analysis);
});
