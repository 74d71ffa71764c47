import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, noContent, parseParam, readJson, withRoute } from "@/lib/http/route";
import { UpdateReviewRequestSchema } from "@/lib/reviews/record";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { getDb } from "@/lib/store/db";
import { deleteReview, getReview } from "@/lib/store/reviews";
import { saveOwnerEdit } from "@/lib/workbench/stale-events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const record = await getReview(await getDb(), id);
  if (!record) throw reviewNotFound(id);
  return jsonResponse(record);
});

/** Save an edit; a decision it makes stale is logged (lib/workbench/stale-events.ts `saveOwnerEdit`). */
export const PUT = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  // The body's review is parsed here, once: the store writes that parse as is.
  const { baseRevision, review } = await readJson(request, UpdateReviewRequestSchema);
  return jsonResponse(
    await saveOwnerEdit(await getDb(), id, baseRevision, review, OWNER_AUTHOR, { parsed: true }),
  );
});

export const DELETE = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  if (!(await deleteReview(await getDb(), id))) throw reviewNotFound(id);
  return noContent();
});
