import "server-only";
/**
 * One scheduled re-inspection of a pinned server, and the events it leaves. The inspection is the
 * one a click runs (lib/workbench/inspect-run.ts: launcher and egress allowlists, sandbox, named
 * limits), stored the same way, and compared with the pin the same way.
 *
 * Every event id is derived from what it reports, never from when or where the job ran:
 * `watch.inspected` from the slot (so a job retried after its process was killed logs its run
 * once), a surface change and a block from the pin and the new fingerprint (so a change is
 * announced once, not once per interval while it stays unresolved, and a re-pin starts afresh),
 * a stale decision from the decision and what changed (lib/workbench/stale-events.ts, shared with
 * owner edits). Appending an id twice adds nothing, so a
 * retry, two processes racing, or a click and the schedule finding the same change leave one entry.
 */
import type { InspectError } from "@/lib/mcp/types";
import type { RelayServer } from "@/lib/review/schema";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { getReview } from "@/lib/store/reviews";
import { getSnapshot } from "@/lib/store/snapshots";
import { describeItemChanges, surfaceItemChanges, type SurfaceDiff } from "@/lib/surface/diff";
import type { PinComparison } from "@/lib/surface/registration";
import { parseSurfaceSnapshot } from "@/lib/surface/types";
import { recordStaleDecisionEvents } from "@/lib/workbench/stale-events";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { blockedReason, checkPin } from "@/lib/workbench/surface";

export const SCHEDULE_ACTOR = "schedule";
/** How many changed items, and how many characters of each before/after value, an event keeps. */
export const EVENT_MAX_ITEMS = 100;
export const EVENT_MAX_VALUE_CHARS = 2_000;

export type WatchJob = {
  reviewId: string;
  serverId: string;
  /** The due time this run was scheduled for (ISO); with the server, the run's identity. */
  slot: string;
};

export type WatchRunOutcome =
  | { status: "skipped"; reason: string }
  | { status: "ok"; surfaceSha256: string; pin: PinComparison["status"]; blocked: boolean }
  | { status: "failed"; error: InspectError };

export const runKeyOf = (job: WatchJob) => `watch:${job.reviewId}:${job.serverId}:${job.slot}`;

const clip = (v: unknown) => {
  const text = typeof v === "string" ? v : JSON.stringify(v ?? null);
  return text.length > EVENT_MAX_VALUE_CHARS
    ? `${text.slice(0, EVENT_MAX_VALUE_CHARS)}… (${text.length} characters)`
    : text;
};

/** The per-item diff an event keeps: which items, which fields, and bounded before/after text. */
export function eventDiff(diff: SurfaceDiff) {
  const items = surfaceItemChanges(diff);
  return {
    items: items.slice(0, EVENT_MAX_ITEMS),
    itemCount: items.length,
    fields: diff.changed.slice(0, EVENT_MAX_ITEMS).map((c) => ({
      list: c.list,
      key: c.key,
      changes: c.fields.map((f) => ({
        field: f.field,
        before: clip(f.before),
        after: clip(f.after),
      })),
    })),
    instructions: diff.instructions
      ? { before: clip(diff.instructions.before), after: clip(diff.instructions.after) }
      : null,
  };
}

/**
 * Logs what an inspection's outcome means against the pin and the decisions: surface changed
 * (with the per-item diff), server blocked, decisions stale (with why). Idempotent (ids above).
 * Used by the schedule; a click's inspection may call it too, under the same ids.
 */
export async function recordDriftEvents(
  db: Db,
  record: ReviewRecord,
  server: RelayServer,
  snapshotSha256: string,
  actor: string,
): Promise<{ comparison: PinComparison | null }> {
  const pin = server.pin;
  if (!pin) return { comparison: null };
  const stored = await getSnapshot(db, snapshotSha256);
  const snapshot = stored ? parseSurfaceSnapshot(stored.document) : null;
  if (!snapshot) return { comparison: null };
  const check = await checkPin(db, record.id, server, snapshot);
  const comparison = check?.comparison ?? null;
  const base = { reviewId: record.id, serverId: server.id, actor };
  if (comparison && comparison.status !== "match") {
    const changeKey = `${record.id}:${server.id}:${pin.pinnedAt}:${pin.surfaceSha256}:${snapshot.surfaceSha256}`;
    const diff =
      comparison.status === "mismatch" && comparison.diff ? eventDiff(comparison.diff) : null;
    const what =
      comparison.status === "incomparable"
        ? comparison.reason
        : diff && diff.items.length > 0
          ? describeItemChanges(diff.items)
          : `fingerprint ${pin.surfaceSha256.slice(0, 12)}… → ${snapshot.surfaceSha256.slice(0, 12)}… (the pinned snapshot is not stored here, so the items cannot be named)`;
    await appendEvent(db, {
      ...base,
      id: `surface.changed:${changeKey}`,
      kind: "surface.changed",
      summary: `${server.name}: the live surface differs from its pin: ${what}`,
      detail: {
        serverName: server.name,
        comparison: comparison.status,
        pinnedSurfaceSha256: pin.surfaceSha256,
        surfaceSha256: snapshot.surfaceSha256,
        snapshotSha256,
        onSurfaceChange: pin.onSurfaceChange,
        ...(diff ? { diff } : {}),
        ...(comparison.status === "mismatch" && comparison.names && !diff
          ? { names: comparison.names }
          : {}),
      },
    });
    if (comparison.blocked) {
      await appendEvent(db, {
        ...base,
        id: `server.blocked:${changeKey}`,
        kind: "server.blocked",
        summary: `${server.name} is blocked: ${blockedReason(comparison) ?? "its surface differs from its pin"}`,
        detail: {
          serverName: server.name,
          pinnedSurfaceSha256: pin.surfaceSha256,
          surfaceSha256: snapshot.surfaceSha256,
        },
      });
    }
  }
  // The decisions in force for this server (lib/decisions/lifecycle.ts), as the state route counts them.
  await recordStaleDecisionEvents(db, record, actor, { serverId: server.id });
  return { comparison };
}

/** One scheduled run: inspect, store, compare, log. Throws only for the workbench's own faults (the job is retried). */
export async function runWatchJob(
  db: Db,
  job: WatchJob,
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<WatchRunOutcome> {
  const record = await getReview(db, job.reviewId);
  const server = record?.review.servers.find((s) => s.id === job.serverId);
  if (!record || !server) return { status: "skipped", reason: "the review or server is gone" };
  if (!server.pin) return { status: "skipped", reason: "the server is no longer pinned" };
  const runKey = runKeyOf(job);
  const base = { reviewId: record.id, serverId: server.id, actor: SCHEDULE_ACTOR };

  const failed = async (
    error: InspectError,
    inspectionId: string | null,
  ): Promise<WatchRunOutcome> => {
    await appendEvent(db, {
      ...base,
      id: `inspection.failed:${runKey}`,
      kind: "inspection.failed",
      summary: `${server.name}: the scheduled inspection failed: ${error.message}`,
      detail: { serverName: server.name, slot: job.slot, error, inspectionId },
    });
    await appendEvent(db, {
      ...base,
      id: runKey,
      kind: "watch.inspected",
      summary: `${server.name}: scheduled inspection failed (${error.code}${error.limit ? `, limit ${error.limit}` : ""})`,
      detail: { slot: job.slot, status: "failed", inspectionId, error },
    });
    return { status: "failed", error };
  };

  const prepared = await prepareInspection(db, record.id, server.id, env);
  if (!prepared.ok) return failed(prepared.error, null);
  const result = await runInspection(db, prepared, {});
  if (!result.ok) return failed(result.error, result.inspectionId);
  const { comparison } = await recordDriftEvents(
    db,
    record,
    server,
    result.snapshotSha256,
    SCHEDULE_ACTOR,
  );
  const pinStatus = comparison?.status ?? "match";
  const blocked = comparison?.blocked ?? false;
  await appendEvent(db, {
    ...base,
    id: runKey,
    kind: "watch.inspected",
    summary: `${server.name}: scheduled inspection, ${pinStatus === "match" ? "matches its pin" : blocked ? "differs from its pin (blocked)" : "differs from its pin"}`,
    detail: {
      slot: job.slot,
      status: "ok",
      inspectionId: result.inspectionId,
      surfaceSha256: result.surfaceSha256,
      pin: pinStatus,
      blocked,
    },
  });
  return { status: "ok", surfaceSha256: result.surfaceSha256, pin: pinStatus, blocked };
}
