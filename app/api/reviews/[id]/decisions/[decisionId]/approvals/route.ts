import { DecisionIdSchema, ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { approveDecision } from "@/lib/workbench/decisions";
import { isPending } from "@/lib/decisions/four-eyes";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string; decisionId: string }> };

/** Approve a pending proposal as the signed-in approver (four eyes; lib/workbench/decisions.ts `approveDecision`). */
export const POST = withRoute(async (_request: Request, { params }: Ctx) => {
  const p = await params;
  const id = parseParam(ReviewIdSchema, p.id, "id");
  const decisionId = parseParam(DecisionIdSchema, p.decisionId, "decisionId");
  const db = await getDb();
  const body = await approveDecision(db, id, decisionId);
  const d = body.decision.decision;
  const approver = d.approvals?.at(-1);
  await auditOwnerAction(db, {
    kind: "decision.approved",
    reviewId: id,
    serverId: d.serverId,
    summary: `${approver?.name ?? "?"} approved ${d.author?.name ?? d.reviewer}'s proposal: ${d.serverId} into ${d.agentId}${isPending(d) ? " (more approvals needed)" : " (now in force)"}`,
    detail: {
      decisionId: d.id,
      approvals: d.approvals?.length ?? 0,
      requiredApprovals: d.requiredApprovals ?? 0,
      revision: body.revision,
    },
  });
  return jsonResponse(body, 201);
});
