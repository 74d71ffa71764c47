import "server-only";
/**
 * The re-inspection schedule (table `watches`). Every pinned server of every review has a row;
 * `syncWatches` adds the rows of newly pinned servers (first due at a random point within their
 * interval, so a batch pinned together is spread out) and removes those of servers no longer
 * pinned. The owner sets a server's interval or pauses it; the row keeps it across re-pins.
 */
import { and, asc, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { listPinnedServers } from "@/lib/store/reviews";
import { watches } from "@/lib/store/tables";

/** A watched server's schedule as stored (lib/watch/schedule.ts WatchViewSchema describes it for the API). */
export type WatchView = {
  reviewId: string;
  serverId: string;
  intervalSeconds: number;
  isEnabled: boolean;
  nextDueAt: string;
  lastClaimedAt: string | null;
};

const toView = (r: typeof watches.$inferSelect): WatchView => ({
  reviewId: r.reviewId,
  serverId: r.serverId,
  intervalSeconds: r.intervalSeconds,
  isEnabled: r.isEnabled,
  nextDueAt: r.nextDueAt.toISOString(),
  lastClaimedAt: r.lastClaimedAt?.toISOString() ?? null,
});

/** Reviews synced per round of `syncWatches` (two statements each round, whatever its size). */
const SYNC_BATCH = 500;

/**
 * Brings the rows in line with the pins of the reviews saved since `since` (all when null);
 * returns the time to pass as `since` next (the newest save seen), so a tick reads only what
 * changed. Reads only each review's pinned server ids (`listPinnedServers`) and writes in batches:
 * the scheduler calls it every tick, on the same embedded store the saves wait for. A review whose
 * stored servers do not read as a list is left as it is.
 */
export async function syncWatches(
  db: Db,
  defaultIntervalSeconds: number,
  since: string | null,
  /** Where in its first interval a newly watched server is first due, in [0, 1). */
  random: () => number = Math.random,
): Promise<string | null> {
  const changed = await listPinnedServers(db, since);
  let newest = since;
  for (const c of changed) if (newest === null || c.updatedAt > newest) newest = c.updatedAt;
  const known = changed.flatMap((c) =>
    c.pinned ? [{ reviewId: c.reviewId, pinned: c.pinned }] : [],
  );
  const key = (reviewId: string, serverId: string) => `${reviewId}\n${serverId}`;
  for (let i = 0; i < known.length; i += SYNC_BATCH) {
    const batch = known.slice(i, i + SYNC_BATCH);
    const existing = await db
      .select({ reviewId: watches.reviewId, serverId: watches.serverId })
      .from(watches)
      .where(
        inArray(
          watches.reviewId,
          batch.map((c) => c.reviewId),
        ),
      );
    const have = new Set(existing.map((w) => key(w.reviewId, w.serverId)));
    const want = new Set(batch.flatMap((c) => c.pinned.map((s) => key(c.reviewId, s))));
    const now = Date.now();
    const added = batch.flatMap((c) =>
      c.pinned
        .filter((serverId) => !have.has(key(c.reviewId, serverId)))
        .map((serverId) => ({
          reviewId: c.reviewId,
          serverId,
          intervalSeconds: defaultIntervalSeconds,
          nextDueAt: new Date(now + defaultIntervalSeconds * 1000 * random()),
        })),
    );
    if (added.length > 0) await db.insert(watches).values(added).onConflictDoNothing();
    for (const w of existing)
      if (!want.has(key(w.reviewId, w.serverId)))
        await db
          .delete(watches)
          .where(and(eq(watches.reviewId, w.reviewId), eq(watches.serverId, w.serverId)));
  }
  return newest;
}

/**
 * One review's rows in line with its pins: a pinned server without a row gets one, first due at a
 * random point of its first interval; a row whose server is no longer pinned goes. The pin route
 * calls it too, so a server is on the schedule the moment it is pinned rather than at the
 * scheduler's next tick.
 */
export async function syncReviewWatches(
  db: Db,
  record: ReviewRecord,
  defaultIntervalSeconds: number,
  random: () => number = Math.random,
): Promise<void> {
  const pinned = record.review.servers.filter((s) => s.pin).map((s) => s.id as string);
  const now = new Date();
  if (pinned.length > 0) {
    await db
      .insert(watches)
      .values(
        pinned.map((serverId) => ({
          reviewId: record.id,
          serverId,
          intervalSeconds: defaultIntervalSeconds,
          nextDueAt: new Date(now.getTime() + defaultIntervalSeconds * 1000 * random()),
        })),
      )
      .onConflictDoNothing();
  }
  await db
    .delete(watches)
    .where(
      and(
        eq(watches.reviewId, record.id),
        ...(pinned.length > 0 ? [notInArray(watches.serverId, pinned)] : []),
      ),
    );
}

/** A pinned server of a review and its row; `watch` is null until a sync adds the row. */
export type ScheduledServer = { serverId: string; watch: WatchView | null };

/**
 * The schedule of a review's current pins, read without writing: each pinned server in the
 * review's order with its row, or null when no sync has added one yet (the pin route adds it at
 * once; a pin that came with a save or an import gets it at the scheduler's next tick). A row
 * left by a pin that is gone is not part of the schedule; that tick removes it. The timeline and
 * the watches route read this, so a GET never writes the schedule.
 */
export async function reviewSchedule(db: Db, record: ReviewRecord): Promise<ScheduledServer[]> {
  const byServer = new Map((await listWatches(db, record.id)).map((w) => [w.serverId, w]));
  return record.review.servers
    .filter((s) => s.pin)
    .map((s) => ({ serverId: s.id, watch: byServer.get(s.id) ?? null }));
}

export async function listWatches(db: Db, reviewId?: string): Promise<WatchView[]> {
  const rows = await db
    .select()
    .from(watches)
    .where(reviewId ? eq(watches.reviewId, reviewId) : undefined)
    .orderBy(asc(watches.reviewId), asc(watches.serverId));
  return rows.map(toView);
}

/** Sets a watched server's interval and whether it runs; the next run moves to one interval from now at most. */
export async function setWatch(
  db: Db,
  reviewId: string,
  serverId: string,
  input: { intervalSeconds: number; isEnabled: boolean },
): Promise<WatchView | null> {
  const [row] = await db
    .update(watches)
    .set({
      intervalSeconds: input.intervalSeconds,
      isEnabled: input.isEnabled,
      nextDueAt: sql`date_trunc('milliseconds', LEAST(${watches.nextDueAt}, now() + make_interval(secs => ${input.intervalSeconds})))`,
    })
    .where(and(eq(watches.reviewId, reviewId), eq(watches.serverId, serverId)))
    .returning();
  return row ? toView(row) : null;
}

/** Embedded store: the due rows (one process owns the data folder, so no row locks are needed). */
export async function dueWatches(db: Db, limit: number) {
  return db
    .select()
    .from(watches)
    .where(and(eq(watches.isEnabled, true), lte(watches.nextDueAt, sql`now()`)))
    .orderBy(asc(watches.nextDueAt))
    .limit(limit);
}

/** Embedded store: moves a row to its next slot after a run: one interval after the slot, or from now when that has passed. */
export async function advanceWatch(
  db: Db,
  row: { reviewId: string; serverId: string; nextDueAt: Date },
  afterSeconds: number,
): Promise<void> {
  const next = sql`${watches.nextDueAt} + make_interval(secs => ${afterSeconds})`;
  await db
    .update(watches)
    .set({
      // Milliseconds, as a JS Date holds them: the slot is matched and named by this value.
      nextDueAt: sql`date_trunc('milliseconds', CASE WHEN ${next} > now() THEN ${next} ELSE now() + make_interval(secs => ${afterSeconds}) END)`,
      attempts: 0,
      lastClaimedAt: sql`now()`,
    })
    .where(
      and(
        eq(watches.reviewId, row.reviewId),
        eq(watches.serverId, row.serverId),
        eq(watches.nextDueAt, row.nextDueAt),
      ),
    );
}

/** Embedded store: a run of the slot failed for the workbench's own reasons; the slot stays, retried after a backoff. */
export async function markWatchAttempt(
  db: Db,
  row: { reviewId: string; serverId: string; nextDueAt: Date },
  attempts: number,
): Promise<void> {
  await db
    .update(watches)
    .set({ attempts, lastClaimedAt: sql`now()` })
    .where(
      and(
        eq(watches.reviewId, row.reviewId),
        eq(watches.serverId, row.serverId),
        eq(watches.nextDueAt, row.nextDueAt),
      ),
    );
}
