import { AppError } from "@/lib/errors";
import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { parseParam, withRoute } from "@/lib/http/route";
import { renderDecisionMarkdown } from "@/lib/decisions/report";
import { getDb } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { checkConditions, decisionStatus } from "@/lib/decisions/staleness";
import { analyzeReviewDocument } from "@/lib/workbench/analysis";
import { currentSurfaces, egressDefaultDeny, reportAnalysisSummary } from "@/lib/workbench/decisions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string }> };

/** The decision as a Markdown report for a ticket; a stale decision's report says so and what changed. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const db = await getDb();
  const record = await getReview(db, id);
  if (!record) throw new AppError("NOT_FOUND", `no review with id ${JSON.stringify(id)}`);
  const decision = record.review.decisions.find((d) => d.id === decisionId);
  if (!decision) throw new AppError("NOT_FOUND", `no decision with id ${JSON.stringify(decisionId)} in this review`);
  const surfaces = await currentSurfaces(db, id, record.review);
  const currentSurfaceSha256 = surfaces.get(decision.serverId) ?? null;
  const analysis = await analyzeReviewDocument(db, id, record.review);
  const markdown = renderDecisionMarkdown({
    review: record.review,
    decision,
    status: decisionStatus(decision, { review: record.review, currentSurfaceSha256 }),
    conditionChecks: checkConditions(decision, record.review, { evaluateEgressDefaultDeny: egressDefaultDeny }),
    analysisSummary: reportAnalysisSummary(analysis, record.review, decision),
  });
  return new Response(markdown, {
    status: 200,
    headers: {
      "Content-Type": "text/markdown; charset=utf-8",
      "Content-Disposition": `attachment; filename="decision-${decisionId}.md"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
});
