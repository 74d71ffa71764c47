import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import type { ReviewSummaryView } from "@/lib/reviews/summary";
import { getDb } from "@/lib/store/db";
import { openReview } from "@/lib/workbench/review-context";
import { summaryIn } from "@/lib/workbench/summary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The review at a glance (lib/reviews/summary.ts), for its Summary tab. 404: unknown review. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const body: ReviewSummaryView = await summaryIn(
    await openReview(await getDb(), id, { readOnly: true }),
  );
  return jsonResponse(body);
});
