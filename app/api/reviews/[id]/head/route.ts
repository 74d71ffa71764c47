import { reviewNotFound } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { reviewHead } from "@/lib/reviews/api";
import { getDb } from "@/lib/store/db";
import { readReview } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** The current revision's head (`ReviewHead`: revision, title, summary, server and agent names), without the document. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const record = await readReview(await getDb(), id);
  if (!record) throw reviewNotFound(id);
  return jsonResponse(reviewHead(record));
});
