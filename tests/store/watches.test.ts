/**
 * The scheduler's sync of watch rows to pins (`syncWatches`), on both stores: it reads only the
 * pinned server ids of the reviews saved since its last call, adds a row for each newly pinned
 * server, removes the rows of servers no longer pinned, keeps a row's interval across syncs, and
 * leaves the rows of reviews saved before `since` alone; and the schedule a review's timeline
 * shows (`reviewSchedule`), which follows its current pins without writing a row.
 */
import { describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";
import type { Db } from "@/lib/store/db";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";
import { watches } from "@/lib/store/tables";
import { listWatches, reviewSchedule, setWatch, syncWatches } from "@/lib/store/watches";
import { BACKENDS, useStore } from "./support/backends";

const DAY = 86_400;
const pin = {
  surfaceSha256: "a".repeat(64),
  declaredCapabilities: [],
  pinnedAt: "2026-12-01T08:00:00.000Z",
  pinnedBy: "reviewer",
};

/** A review of `count` stdio servers, those in `pinned` carrying a pin. */
function reviewWith(count: number, pinned: number[]): ReviewInput {
  return {
    schemaVersion: REVIEW_SCHEMA_VERSION,
    title: "watched",
    servers: Array.from({ length: count }, (_, i) => ({
      id: `srv-${i}`,
      name: `srv-${i}`,
      transport: { kind: "stdio" as const, command: "node", args: [], envNames: [] },
      pin: pinned.includes(i) ? pin : null,
    })),
  };
}

const rows = async (db: Db, reviewId: string) =>
  (await listWatches(db, reviewId)).map((w) => w.serverId);

describe.each(BACKENDS)("syncWatches on $name", (backend) => {
  const store = useStore(backend);

  test("rows follow the pins of the reviews saved since the last sync, and keep their interval", async () => {
    const db = store.db;
    const a = await createReview(db, reviewWith(3, [0, 2]), "t");
    const b = await createReview(db, reviewWith(2, [1]), "t");
    let since = await syncWatches(db, DAY, null, () => 0.5);
    expect(await rows(db, a.id)).toEqual(["srv-0", "srv-2"]);
    expect(await rows(db, b.id)).toEqual(["srv-1"]);
    const [first] = await listWatches(db, a.id);
    // Due at the random point of its first interval.
    expect(Date.parse(first!.nextDueAt) - Date.now()).toBeGreaterThan(DAY * 1000 * 0.49);
    expect(Date.parse(first!.nextDueAt) - Date.now()).toBeLessThan(DAY * 1000 * 0.51);
    expect(since).toBe([a.updatedAt, b.updatedAt].sort().at(-1));

    // The owner sets srv-2's interval; then srv-0 is unpinned and srv-1 pinned in a new revision.
    await setWatch(db, a.id, "srv-2", { intervalSeconds: 3600, isEnabled: true });
    const current = (await getReview(db, a.id))!;
    const saved = await saveReview(db, a.id, current.revision, reviewWith(3, [1, 2]), "t");
    expect(saved?.ok).toBe(true);
    since = await syncWatches(db, DAY, since);
    expect(await rows(db, a.id)).toEqual(["srv-1", "srv-2"]);
    expect((await listWatches(db, a.id)).find((w) => w.serverId === "srv-2")?.intervalSeconds).toBe(
      3600,
    );

    // A review not saved since `since` is not read again: b's row, gone, is not put back; a's
    // save is at `since` itself, so a is read again and its rows are.
    await db.delete(watches);
    await syncWatches(db, DAY, since);
    expect(await rows(db, b.id)).toEqual([]);
    expect(await rows(db, a.id)).toEqual(["srv-1", "srv-2"]);
    // From the start, every review is read again.
    await syncWatches(db, DAY, null);
    expect(await rows(db, b.id)).toEqual(["srv-1"]);
  });

  test("a review with every server pinned, then none", async () => {
    const db = store.db;
    const c = await createReview(db, reviewWith(4, [0, 1, 2, 3]), "t");
    const since = await syncWatches(db, DAY, null);
    expect(await rows(db, c.id)).toEqual(["srv-0", "srv-1", "srv-2", "srv-3"]);
    const saved = await saveReview(db, c.id, c.revision, reviewWith(4, []), "t");
    expect(saved?.ok).toBe(true);
    await syncWatches(db, DAY, since);
    expect(await rows(db, c.id)).toEqual([]);
  });

  test("the schedule shows the current pins, row or not, and writes nothing", async () => {
    const db = store.db;
    const d = await createReview(db, reviewWith(3, [0, 1]), "t");
    await syncWatches(db, DAY, null);
    // A save moves the pin from srv-1 to srv-2 and no sync has run since.
    const saved = await saveReview(db, d.id, d.revision, reviewWith(3, [0, 2]), "t");
    if (!saved?.ok) throw new Error("the save did not land");
    const schedule = await reviewSchedule(db, saved.record);
    expect(schedule.map((s) => [s.serverId, s.watch?.serverId ?? null])).toEqual([
      ["srv-0", "srv-0"],
      ["srv-2", null],
    ]);
    // srv-1's row is still stored (the next sync removes it) and srv-2 has none yet.
    expect(await rows(db, d.id)).toEqual(["srv-0", "srv-1"]);
  });
});
