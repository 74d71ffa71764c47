import "server-only";
/**
 * The `decision.stale` events: one per decision in force (lib/decisions/lifecycle.ts) that is stale
 * now, whoever's action made it so — a scheduled re-inspection (lib/watch/node/run.ts) or an
 * owner's edit (adding a sink to the tool set, changing a control). Both log the same kind under
 * the same id, derived from the decision and what changed (never from when or who), so webhooks
 * subscribed to the kind fire for either, and the schedule and an edit finding the same change
 * leave one entry.
 */
import { canonicalJson, sha256Hex } from "@/lib/hash";
import { decisionsInForce } from "@/lib/decisions/lifecycle";
import { decisionStatus } from "@/lib/decisions/staleness";
import { AppError, reviewNotFound } from "@/lib/errors";
import type { Review } from "@/lib/review/schema";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { saveReview, type SaveDocumentOptions } from "@/lib/store/reviews";
import { decisionChecks } from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";

/** The id of the event for a decision stale for these changes. */
export function staleEventId(
  reviewId: string,
  decisionId: string,
  changes: readonly { message: string }[],
): string {
  const why = changes.map(({ message: _m, ...rest }) => rest);
  return `decision.stale:${reviewId}:${decisionId}:${sha256Hex(canonicalJson(why))}`;
}

/**
 * Logs `decision.stale` for each decision in force that is stale now (only those of `serverId`
 * when given). Returns how many were new. Idempotent on the event ids.
 */
export async function recordStaleDecisionEvents(
  db: Db,
  record: ReviewRecord,
  actor: string,
  options: { serverId?: string; now?: Date } = {},
): Promise<number> {
  const review = record.review;
  const decisions = decisionsInForce(review.decisions).filter(
    (d) => options.serverId === undefined || d.serverId === options.serverId,
  );
  if (decisions.length === 0) return 0;
  // Decisions read the review's current surfaces (lib/workbench/current-surface.ts), as their routes do.
  const ctx = await openReview(db, record.id, { record });
  const { surfaceChanges: changes, grants, findings } = await decisionChecks(ctx, decisions);
  const surfaces = ctx.surfaces;
  let logged = 0;
  for (const decision of decisions) {
    const status = decisionStatus(decision, {
      review,
      currentSurfaceSha256: surfaces.get(decision.serverId) ?? null,
      currentGrantedScopes: grants.get(decision.serverId) ?? null,
      surfaceChanges: changes,
      openFindings: findings.of(decision.serverId, decision.agentId),
      ...(options.now ? { now: options.now } : {}),
    });
    if (status.state !== "stale") continue;
    const server =
      review.servers.find((s) => s.id === decision.serverId)?.name ?? decision.serverId;
    const agent = review.agents.find((a) => a.id === decision.agentId)?.name ?? decision.agentId;
    const result = await appendEvent(db, {
      id: staleEventId(record.id, decision.id, status.changes),
      kind: "decision.stale",
      reviewId: record.id,
      serverId: decision.serverId,
      actor,
      summary: `The ${decision.verdict} decision for ${server} in ${agent} is stale: ${status.changes.map((c) => c.message).join("; ")}`,
      detail: {
        decisionId: decision.id,
        verdict: decision.verdict,
        agentId: decision.agentId,
        serverName: server,
        changes: status.changes,
      },
    });
    if (result.isNew) logged++;
  }
  return logged;
}

/**
 * After an owner's edit is saved: log what it made stale. The edit has already happened, so a log
 * write that fails is reported on stderr rather than turning a saved edit into a 500 (the caller
 * would retry and save twice), as `auditOwnerAction` (lib/workbench/audit-action.ts) does.
 */
export async function logStaleDecisions(
  db: Db,
  record: ReviewRecord,
  actor: string,
): Promise<void> {
  try {
    await recordStaleDecisionEvents(db, record, actor);
  } catch (error) {
    console.error(
      `[events] could not log stale decisions: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * An owner's edit of the review document (PUT /api/reviews/[id]): saved on top of `baseRevision`
 * (CONFLICT with the current record when someone saved in between), then what it made stale is
 * logged as the schedule logs it, so webhooks subscribed to `decision.stale` fire.
 */
export async function saveOwnerEdit(
  db: Db,
  reviewId: string,
  baseRevision: number,
  review: Review,
  author: string,
  options: SaveDocumentOptions = {},
): Promise<ReviewRecord> {
  const result = await saveReview(db, reviewId, baseRevision, review, author, options);
  if (!result) throw reviewNotFound(reviewId);
  if (!result.ok) {
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${result.conflict.revision} since revision ${baseRevision}; reload it and apply your change again`,
      { details: { current: result.conflict } },
    );
  }
  await logStaleDecisions(db, result.record, author);
  return result.record;
}
