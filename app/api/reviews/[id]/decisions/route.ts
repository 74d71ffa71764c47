import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import {
  DecideQuerySchema,
  DecideRequestSchema,
  type DecideResponse,
  type ListDecisionsResponse,
} from "@/lib/decisions/api";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import {
  candidateConditions,
  decide,
  decisionChecks,
  decisionView,
} from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

/** Every decision of the review with its status now; `?serverId=&agentId=` adds the condition candidates for that pair. */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const url = new URL(request.url);
  const query = parseParam(
    DecideQuerySchema,
    {
      serverId: url.searchParams.get("serverId") ?? undefined,
      agentId: url.searchParams.get("agentId") ?? undefined,
    },
    "query",
  );
  const ctx = await openReview(await getDb(), id);
  const checks = await decisionChecks(ctx);
  const { record } = ctx;
  const body: ListDecisionsResponse = {
    revision: record.revision,
    decisions: record.review.decisions.map((d) =>
      decisionView(d, record.review, ctx.surfaces, checks),
    ),
    surfaces: [...ctx.surfaces].map(([serverId, surfaceSha256]) => ({ serverId, surfaceSha256 })),
    ...(query.serverId && query.agentId
      ? {
          candidates: candidateConditions(
            record.review,
            query.serverId,
            query.agentId,
            checks.findings.analysis,
          ),
          findings: checks.findings.of(query.serverId, query.agentId),
        }
      : {}),
  };
  return jsonResponse(body);
});

/**
 * Decide (lib/workbench/decisions.ts `decide`): 201 with the decision bound to what is true now;
 * 409 when someone saved in between, or `surface_blocked` when approving a server whose pin is blocked.
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const input = await readJson(request, DecideRequestSchema);
  const db = await getDb();
  const body: DecideResponse = await decide(db, id, input);
  const d = body.decision.decision;
  await auditOwnerAction(db, {
    kind: "decision.made",
    reviewId: id,
    serverId: d.serverId,
    summary: `${d.reviewer} decided ${d.verdict.replace(/_/g, " ")}: ${d.serverId} into ${d.agentId}`,
    detail: {
      decisionId: d.id,
      verdict: d.verdict,
      agentId: d.agentId,
      reviewer: d.reviewer,
      surfaceSha256: d.bound.surfaceSha256,
      revision: body.revision,
    },
  });
  return jsonResponse(body, 201);
});
