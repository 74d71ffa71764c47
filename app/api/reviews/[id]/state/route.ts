import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import type { ReviewStateResponse } from "@/lib/decisions/review-state";
import { getDb } from "@/lib/store/db";
import { openReview } from "@/lib/workbench/review-context";
import { stateIn } from "@/lib/workbench/review-state";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * The review's state for pipelines (lib/decisions/review-state.ts): `current`, `stale`, `blocked` or
 * `failing`, with every reason naming its server or decision, each server's pin, current surface
 * and latest inspection, and each decision's status. 404: unknown review.
 */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const body: ReviewStateResponse = await stateIn(await openReview(await getDb(), id));
  return jsonResponse(body);
});
