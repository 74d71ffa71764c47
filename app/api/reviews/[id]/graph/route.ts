import { z } from "zod";
import { reviewNotFound } from "@/lib/errors";
import { encodeGraphSection } from "@/lib/graph/section";
import { graphSectionData } from "@/lib/graph/view";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { ReviewIdSchema } from "@/lib/ids";
import { getDb } from "@/lib/store/db";
import { analyzeStoredReview } from "@/lib/workbench/analysis";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/**
 * What the Graph section draws of the current revision's analysis (`lib/graph/view.ts`):
 * `?scope=focus` (the default) the nodes on paths to sensitive sinks, `?scope=whole` every node;
 * with `{ reviewId, revision }`. The whole analysis stays at `/analysis` for export and API users.
 */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const scope = parseParam(
    z.enum(["focus", "whole"]).default("focus"),
    new URL(request.url).searchParams.get("scope") ?? undefined,
    "scope",
  );
  const analysis = await analyzeStoredReview(await getDb(), id);
  if (!analysis) throw reviewNotFound(id);
  return jsonResponse({
    reviewId: analysis.reviewId,
    revision: analysis.revision,
    ...encodeGraphSection(graphSectionData(analysis, scope)),
  });
});
