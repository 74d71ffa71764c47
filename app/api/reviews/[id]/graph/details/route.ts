import { z } from "zod";
import { reviewNotFound } from "@/lib/errors";
import { pathDetail, toolDetail } from "@/lib/graph/view";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { ReviewIdSchema } from "@/lib/ids";
import { getDb } from "@/lib/store/db";
import { analyzeStoredReview } from "@/lib/workbench/analysis";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Exactly one of `tool` (a tool key) or `path` (a listed path's id). */
const QuerySchema = z.union([
  z.object({ tool: z.string().min(1).max(4200) }).strict(),
  z.object({ path: z.string().min(1).max(10_000) }).strict(),
]);

/**
 * What the Graph section fetches when a reviewer opens something: `?tool=<key>` a tool's roles
 * with every reason, `?path=<id>` a listed path's findings and controls; of the current revision,
 * with `{ reviewId, revision }`. A tool or path the revision does not have (the page may still
 * show an older one while a save lands) is `null`, an expected answer rather than an error.
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const query = parseParam(
    QuerySchema,
    Object.fromEntries(new URL(request.url).searchParams),
    "query",
  );
  const analysis = await analyzeStoredReview(await getDb(), id);
  if (!analysis) throw reviewNotFound(id);
  const envelope = { reviewId: analysis.reviewId, revision: analysis.revision };
  if ("tool" in query) return jsonResponse({ ...envelope, tool: toolDetail(analysis, query.tool) });
  return jsonResponse({ ...envelope, path: pathDetail(analysis, query.path) });
});
