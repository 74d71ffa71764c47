import "server-only";
import { isPending } from "@/lib/decisions/four-eyes";
/**
 * Server-side glue for GET /api/reviews/[id]/state (lib/decisions/review-state.ts says what each state
 * means): each server's pin, current surface, latest inspection and whether it is blocked now, and
 * each decision's status, all read through the same functions the surface panel, the decisions
 * list and the approval check use, so `relay-review check` and the UI cannot disagree.
 */
import { detectionView } from "@/lib/workbench/detection-report";
import type { ReviewId } from "@/lib/ids";
import type { RelayServer } from "@/lib/review/schema";
import {
  overallState,
  stateReasons,
  type DecisionState,
  type ReviewStateResponse,
  type ServerState,
} from "@/lib/decisions/review-state";
import type { Db } from "@/lib/store/db";
import { surfaceItemChanges, type SurfaceItemChange } from "@/lib/surface/diff";
import { decisionChecks, decisionView } from "@/lib/workbench/decisions";
import { openReview, type ReviewContext } from "@/lib/workbench/review-context";
import { blockedReason, storedInspectError } from "@/lib/workbench/surface";

/**
 * Why the server is blocked now, or null: its current surface differs from its pin under "block"
 * (the items that changed when the pinned snapshot is stored), or, when the current snapshot cannot
 * be read back, its current fingerprint alone differs from the pin's: fail closed, as approving does.
 */
export function serverBlockNow(
  ctx: ReviewContext,
  server: RelayServer,
): { reason: string; items: SurfaceItemChange[] } | null {
  if (!server.pin) return null;
  const check = ctx.pinChecks.get(server.id);
  if (check) {
    const c = check.comparison;
    if (!c.blocked) return null;
    return {
      reason: blockedReason(c) ?? "its live surface differs from the pin",
      items: c.status === "mismatch" && c.diff ? surfaceItemChanges(c.diff) : [],
    };
  }
  if (server.pin.onSurfaceChange !== "block") return null;
  const current = ctx.current.get(server.id);
  if (!current?.surfaceSha256 || current.surfaceSha256 === server.pin.surfaceSha256) return null;
  return {
    reason: `its current inspection (${current.surfaceSha256.slice(0, 12)}…) differs from its pin (${server.pin.surfaceSha256.slice(0, 12)}…) and its snapshot cannot be read to say what changed`,
    items: [],
  };
}

/** Each server's state now: pin, current surface, latest inspection, whether it is blocked. */
export function serverStates(ctx: ReviewContext): ServerState[] {
  return ctx.review.servers.map((server) => {
    const last = ctx.latest.get(server.id) ?? null;
    const error = last ? storedInspectError(last.error) : null;
    return {
      serverId: server.id,
      name: server.name,
      pin: server.pin
        ? { surfaceSha256: server.pin.surfaceSha256, onSurfaceChange: server.pin.onSurfaceChange }
        : null,
      currentSurfaceSha256: ctx.surfaces.get(server.id) ?? null,
      latestInspection: last
        ? {
            inspectedAt: last.inspectedAt,
            status: last.status,
            error:
              last.status === "failed" && error
                ? {
                    code: error.code,
                    ...(error.limit ? { limit: error.limit } : {}),
                    message: error.message,
                  }
                : null,
          }
        : null,
      blocked: serverBlockNow(ctx, server),
    };
  });
}

/** Each decision's state now, with whether it is in force and what it accepts. */
export async function decisionStates(
  ctx: ReviewContext,
  now: Date = new Date(),
): Promise<DecisionState[]> {
  const { review } = ctx;
  const checks = await decisionChecks(ctx);
  const name = (list: readonly { id: string; name: string }[], key: string) =>
    list.find((x) => x.id === key)?.name ?? key;
  return review.decisions.map((d) => {
    const status = decisionView(d, review, ctx.surfaces, { ...checks, now }).status;
    return {
      decisionId: d.id,
      serverId: d.serverId,
      serverName: name(review.servers, d.serverId),
      agentId: d.agentId,
      agentName: name(review.agents, d.agentId),
      verdict: d.verdict,
      state: status.state,
      changes: status.state === "stale" ? status.changes : [],
      // A pending proposal (four eyes) is never in force.
      inForce: !checks.supersededBy.has(d.id) && !isPending(d),
      pending: isPending(d)
        ? { approvals: d.approvals?.length ?? 0, required: d.requiredApprovals ?? 0 }
        : null,
      supersededBy: checks.supersededBy.get(d.id) ?? null,
      acceptedRisks: (d.acceptedRisks ?? []).map((r) => ({
        findingId: r.findingId,
        severity: r.severity,
        text: r.text,
        owner: r.owner,
        until: r.until,
      })),
    };
  });
}

/** The state of the context's review now. */
export async function stateIn(ctx: ReviewContext): Promise<ReviewStateResponse> {
  const servers = serverStates(ctx);
  const decisions = await decisionStates(ctx);
  const reasons = stateReasons(servers, decisions);
  return {
    reviewId: ctx.reviewId,
    revision: ctx.record.revision,
    state: overallState(reasons),
    reasons,
    servers,
    decisions,
    detection: await detectionView(ctx.db, ctx.reviewId),
  };
}

/** The state of a stored review now; NOT_FOUND for an unknown review. */
export async function reviewState(db: Db, id: ReviewId): Promise<ReviewStateResponse> {
  return stateIn(await openReview(db, id));
}
