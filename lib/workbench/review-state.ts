import { isPending } from "@/lib/decisions/four-eyes";
import "server-only";
/**
 * Server-side glue for GET /api/reviews/[id]/state (lib/decisions/review-state.ts says what each state
 * means): each server's pin, current surface, latest inspection and whether it is blocked now, and
 * each decision's status, all read through the same functions the surface panel, the decisions
 * list and the approval check use, so `relay-review check` and the UI cannot disagree.
 */
import { reviewNotFound } from "@/lib/errors";
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
import { supersededBy } from "@/lib/decisions/lifecycle";
import { getReview } from "@/lib/store/reviews";
import { latestInspectionPerServer } from "@/lib/store/snapshots";
import { surfaceItemChanges, type SurfaceItemChange } from "@/lib/surface/diff";
import { currentInspection } from "@/lib/workbench/current-surface";
import {
  currentGrants,
  currentSurfaces,
  decisionView,
  findingsNow,
  surfaceChangesOf,
} from "@/lib/workbench/decisions";
import { blockedReason, pinCheckNow, storedInspectError } from "@/lib/workbench/surface";

/**
 * Why the server is blocked now, or null: its current surface differs from its pin under "block"
 * (the items that changed when the pinned snapshot is stored), or, when the current snapshot cannot
 * be read back, its current fingerprint alone differs from the pin's: fail closed, as approving does.
 */
export async function serverBlockNow(
  db: Db,
  reviewId: string,
  server: RelayServer,
): Promise<{ reason: string; items: SurfaceItemChange[] } | null> {
  if (!server.pin) return null;
  const check = await pinCheckNow(db, reviewId, server);
  if (check) {
    const c = check.comparison;
    if (!c.blocked) return null;
    return {
      reason: blockedReason(c) ?? "its live surface differs from the pin",
      items: c.status === "mismatch" && c.diff ? surfaceItemChanges(c.diff) : [],
    };
  }
  if (server.pin.onSurfaceChange !== "block") return null;
  const current = await currentInspection(db, reviewId, server.id);
  if (!current?.surfaceSha256 || current.surfaceSha256 === server.pin.surfaceSha256) return null;
  return {
    reason: `its current inspection (${current.surfaceSha256.slice(0, 12)}…) differs from its pin (${server.pin.surfaceSha256.slice(0, 12)}…) and its snapshot cannot be read to say what changed`,
    items: [],
  };
}

/** The state of a stored review now; NOT_FOUND for an unknown review. */
export async function reviewState(db: Db, id: ReviewId): Promise<ReviewStateResponse> {
  const record = await getReview(db, id);
  if (!record) throw reviewNotFound(id);
  const { review } = record;
  const surfaces = await currentSurfaces(db, id, review);
  const grants = await currentGrants(db, id, review);
  const latest = await latestInspectionPerServer(db, id);
  const servers: ServerState[] = [];
  for (const server of review.servers) {
    const last = latest.get(server.id) ?? null;
    const error = last ? storedInspectError(last.error) : null;
    servers.push({
      serverId: server.id,
      name: server.name,
      pin: server.pin
        ? { surfaceSha256: server.pin.surfaceSha256, onSurfaceChange: server.pin.onSurfaceChange }
        : null,
      currentSurfaceSha256: surfaces.get(server.id) ?? null,
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
      blocked: await serverBlockNow(db, id, server),
    });
  }
  const changes = await surfaceChangesOf(db, id, review.decisions, surfaces);
  const name = (list: readonly { id: string; name: string }[], key: string) =>
    list.find((x) => x.id === key)?.name ?? key;
  const findings = await findingsNow(db, id, review);
  const retired = supersededBy(review.decisions);
  const now = new Date();
  const decisions: DecisionState[] = review.decisions.map((d) => {
    const status = decisionView(d, review, surfaces, {
      surfaceChanges: changes,
      grants,
      findings,
      now,
    }).status;
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
      inForce: !retired.has(d.id) && !isPending(d),
      pending: isPending(d)
        ? { approvals: d.approvals?.length ?? 0, required: d.requiredApprovals ?? 0 }
        : null,
      supersededBy: retired.get(d.id) ?? null,
      acceptedRisks: (d.acceptedRisks ?? []).map((r) => ({
        findingId: r.findingId,
        severity: r.severity,
        text: r.text,
        owner: r.owner,
        until: r.until,
      })),
    };
  });
  const reasons = stateReasons(servers, decisions);
  return {
    reviewId: id,
    revision: record.revision,
    state: overallState(reasons),
    reasons,
    servers,
    decisions,
  };
}
