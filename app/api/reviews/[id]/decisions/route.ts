import { AppError } from "@/lib/errors";
import { ReviewIdSchema } from "@/lib/ids";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { buildDecision } from "@/lib/decisions/binding";
import { DecideQuerySchema, DecideRequestSchema, type DecideResponse, type ListDecisionsResponse } from "@/lib/decisions/api";
import { getDb } from "@/lib/store/db";
import { getReview, saveReview } from "@/lib/store/reviews";
import { analyzeReviewDocument } from "@/lib/workbench/analysis";
import { candidateConditions, currentSurfaces, decisionView } from "@/lib/workbench/decisions";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ id: string }> };

const notFound = (id: string) => new AppError("NOT_FOUND", `no review with id ${JSON.stringify(id)}`);

/** Every decision of the review with its status now; `?serverId=&agentId=` adds the condition candidates for that pair. */
export const GET = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const url = new URL(request.url);
  const query = parseParam(
    DecideQuerySchema,
    { serverId: url.searchParams.get("serverId") ?? undefined, agentId: url.searchParams.get("agentId") ?? undefined },
    "query",
  );
  const db = await getDb();
  const record = await getReview(db, id);
  if (!record) throw notFound(id);
  const surfaces = await currentSurfaces(db, id, record.review);
  const body: ListDecisionsResponse = {
    revision: record.revision,
    decisions: record.review.decisions.map((d) => decisionView(d, record.review, surfaces)),
    surfaces: [...surfaces].map(([serverId, surfaceSha256]) => ({ serverId, surfaceSha256 })),
    ...(query.serverId && query.agentId
      ? { candidates: candidateConditions(record.review, query.serverId, query.agentId, await analyzeReviewDocument(db, id, record.review)) }
      : {}),
  };
  return jsonResponse(body);
});

/**
 * Decide: the decision is built from the review at `baseRevision`, bound to what is true now, and
 * saved as a new revision on top of it (409 with the current record when someone saved in between).
 */
export const POST = withRoute(async (request: Request, { params }: Ctx) => {
  const id = parseParam(ReviewIdSchema, (await params).id, "id");
  const input = await readJson(request, DecideRequestSchema);
  const db = await getDb();
  const record = await getReview(db, id);
  if (!record) throw notFound(id);
  const conflict = () =>
    new AppError(
      "CONFLICT",
      `this review was saved as revision ${record.revision} since revision ${input.baseRevision}; look at it again before deciding`,
      { details: { current: record } },
    );
  if (record.revision !== input.baseRevision) throw conflict();
  const surfaces = await currentSurfaces(db, id, record.review);
  const decision = buildDecision(record.review, {
    serverId: input.serverId,
    agentId: input.agentId,
    verdict: input.verdict,
    conditions: input.conditions,
    reviewer: input.reviewer,
    rationale: input.rationale,
    now: new Date(),
    revision: record.revision,
    surfaceSha256: surfaces.get(input.serverId) ?? null,
  });
  const next = { ...record.review, decisions: [...record.review.decisions, decision] };
  const saved = await saveReview(db, id, input.baseRevision, next, OWNER_AUTHOR);
  if (!saved) throw notFound(id);
  if (!saved.ok) {
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${saved.conflict.revision} since revision ${input.baseRevision}; look at it again before deciding`,
      { details: { current: saved.conflict } },
    );
  }
  const body: DecideResponse = { revision: saved.record.revision, decision: decisionView(decision, saved.record.review, surfaces) };
  return jsonResponse(body, 201);
});
