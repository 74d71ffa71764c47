import { AppError, reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, noContent, parseParam, readJson, withRoute } from "@/lib/http/route";
import { UpdateReviewRequestSchema } from "@/lib/reviews/record";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { getDb } from "@/lib/store/db";
import { deleteReview, getReview, saveReview } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const record = await getReview(await getDb(), id);
  if (!record) throw reviewNotFound(id);
  return jsonResponse(record);
});

export const PUT = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const { baseRevision, review } = await readJson(request, UpdateReviewRequestSchema);
  const result = await saveReview(await getDb(), id, baseRevision, review, OWNER_AUTHOR);
  if (!result) throw reviewNotFound(id);
  if (!result.ok) {
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${result.conflict.revision} since revision ${baseRevision}; reload it and apply your change again`,
      { details: { current: result.conflict } },
    );
  }
  return jsonResponse(result.record);
});

export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  if (!(await deleteReview(await getDb(), id))) throw reviewNotFound(id);
  return noContent();
});
