import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { reportIn } from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string }> };

/** The decision as a Markdown report for a ticket; a stale decision's report says so and what changed. */
export const GET = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const markdown = await reportIn(await openReview(await getDb(), id), decisionId);
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
