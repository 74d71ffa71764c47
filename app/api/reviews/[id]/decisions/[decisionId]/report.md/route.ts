import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { parseParam, withRoute } from "@/lib/http/route";
import { renderDecisionMarkdown } from "@/lib/decisions/report";
import { getDb } from "@/lib/store/db";
import { checkConditions, decisionStatus } from "@/lib/decisions/staleness";
import { analyzeReviewDocument } from "@/lib/workbench/analysis";
import { egressDefaultDeny, loadStoredDecision, reportAnalysisSummary } from "@/lib/workbench/decisions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string }> };

/** The decision as a Markdown report for a ticket; a stale decision's report says so and what changed. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const db = await getDb();
  const { record, decision, currentSurfaceSha256 } = await loadStoredDecision(db, id, decisionId);
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
