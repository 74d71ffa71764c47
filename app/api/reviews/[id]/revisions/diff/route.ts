import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, parseRequest, withRoute } from "@/lib/http/route";
import { diffReviews, summarizeChanges } from "@/lib/reviews/revision-diff";
import {
  RevisionDiffQuerySchema,
  type RevisionDiffResponse,
  type RevisionItemResponse,
} from "@/lib/reviews/api";
import { getDb } from "@/lib/store/db";
import { readRevision, reviewExists } from "@/lib/store/reviews";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * What changed between two revisions, item by item (`?from=1&to=2`), without either document: the
 * History section lists it. With `&item=<key>`, that one item's two sides, for its text diff.
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const query = parseRequest(
    RevisionDiffQuerySchema,
    Object.fromEntries(new URL(request.url).searchParams),
    "query",
  );
  const db = await getDb();
  const [before, after] = await Promise.all([
    readRevision(db, id, query.from),
    readRevision(db, id, query.to),
  ]);
  if (!before || !after) {
    const missing = !before ? query.from : query.to;
    throw new AppError(
      "NOT_FOUND",
      (await reviewExists(db, id))
        ? `review ${JSON.stringify(id)} has no revision ${missing}`
        : `no review with id ${JSON.stringify(id)}`,
    );
  }
  const changes = diffReviews(before.review, after.review);
  if (query.item !== undefined) {
    const item = changes.find((c) => c.key === query.item);
    if (!item)
      throw new AppError(
        "NOT_FOUND",
        `no change to ${JSON.stringify(query.item)} between revisions ${query.from} and ${query.to}`,
      );
    return jsonResponse({ from: query.from, to: query.to, item } satisfies RevisionItemResponse);
  }
  return jsonResponse({
    from: query.from,
    to: query.to,
    summary: summarizeChanges(changes),
    changes: changes.map(({ before: _b, after: _a, ...rest }) => rest),
  } satisfies RevisionDiffResponse);
});
