import { and, eq } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import type { ReviewId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import { REVIEW_SCHEMA_VERSION, type ReviewInput } from "@/lib/review/schema";
import { openStore } from "@/lib/store/db";
import { ensureFirstStart } from "@/lib/store/first-start";
import {
  createReview,
  deleteReview,
  getReview,
  getRevision,
  listReviews,
  listRevisions,
  readReview,
  readRevision,
  saveReview,
} from "@/lib/store/reviews";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { diffReviews } from "@/lib/reviews/revision-diff";
import { reviewRevisions, reviews } from "@/lib/store/tables";
import { BACKENDS, pgliteBackend, useStore } from "./support/backends";

const minimal = (title: string): ReviewInput => ({ schemaVersion: REVIEW_SCHEMA_VERSION, title });

describe.each(BACKENDS)("review store on $name", (backend) => {
  const store = useStore(backend);

  test("readReview and readRevision: what getReview and getRevision read, one shared frozen parse per saved revision", async () => {
    const demo = createDemoReview();
    const created = await createReview(store.db, demo, "alice");
    const first = await readReview(store.db, created.id);
    expect(first).toEqual(await getReview(store.db, created.id));
    // The second read is the first's parse, frozen so no reader can change what the next one gets.
    const again = await readReview(store.db, created.id);
    expect(again?.review).toBe(first?.review);
    expect(Object.isFrozen(again?.review.servers[0])).toBe(true);
    expect(() => {
      (again!.review as { title: string }).title = "changed";
    }).toThrow(TypeError);
    // The read paths that use it only read: the analysis and the revision diff of frozen documents.
    expect(() => analyzeReview(first!.review, toolListsFromReview(first!.review))).not.toThrow();

    const edited = structuredClone(first!.review);
    edited.title = "second";
    await saveReview(store.db, created.id, 1, edited, "bob");
    const current = await readReview(store.db, created.id);
    expect(current).toEqual(await getReview(store.db, created.id));
    expect(current?.revision).toBe(2);
    expect(await readRevision(store.db, created.id, 1)).toEqual(
      await getRevision(store.db, created.id, 1),
    );
    const [r1, r2] = [
      await readRevision(store.db, created.id, 1),
      await readRevision(store.db, created.id, 2),
    ];
    expect(r2?.review).toBe(current?.review);
    expect(diffReviews(r1!.review, r2!.review).map((c) => c.key)).toEqual(
      diffReviews(
        (await getRevision(store.db, created.id, 1))!.review,
        (await getRevision(store.db, created.id, 2))!.review,
      ).map((c) => c.key),
    );
    expect(await readRevision(store.db, created.id, 3)).toBeNull();

    // Deleted and created again under the same id: the new revision 1, not the kept parse.
    expect(await deleteReview(store.db, created.id)).toBe(true);
    expect(await readReview(store.db, created.id)).toBeNull();
    await createReview(store.db, { ...demo, title: "imported again" }, "alice", { id: created.id });
    expect((await readReview(store.db, created.id))?.review.title).toBe("imported again");
    expect((await readRevision(store.db, created.id, 1))?.review.title).toBe("imported again");
  });

  test("create, then save keeps every revision", async () => {
    const created = await createReview(store.db, minimal("first"), "alice");
    expect(created.revision).toBe(1);
    const r2 = await saveReview(store.db, created.id, 1, minimal("second"), "bob");
    expect(r2).toMatchObject({ ok: true, record: { revision: 2, review: { title: "second" } } });
    const r3 = await saveReview(store.db, created.id, 2, minimal("third"), "alice");
    expect(r3).toMatchObject({ ok: true, record: { revision: 3 } });

    const revisions = await listRevisions(store.db, created.id);
    expect(revisions?.map((r) => [r.revision, r.title, r.author])).toEqual([
      [3, "third", "alice"],
      [2, "second", "bob"],
      [1, "first", "alice"],
    ]);
    const old = await getRevision(store.db, created.id, 2);
    expect(old).toMatchObject({
      revision: 2,
      author: "bob",
      review: { title: "second" },
      upgradedFrom: null,
    });
    expect((await getReview(store.db, created.id))?.review.title).toBe("third");
    expect((await listReviews(store.db)).find((s) => s.id === created.id)).toMatchObject({
      title: "third",
      revision: 3,
    });
  });

  test("a save on a stale revision is refused with the current record, and writes nothing", async () => {
    const created = await createReview(store.db, minimal("base"), "alice");
    const mine = await saveReview(store.db, created.id, 1, minimal("mine"), "alice");
    expect(mine?.ok).toBe(true);
    const theirs = await saveReview(store.db, created.id, 1, minimal("theirs"), "bob");
    expect(theirs).toMatchObject({
      ok: false,
      conflict: { revision: 2, review: { title: "mine" } },
    });
    expect((await listRevisions(store.db, created.id))?.length).toBe(2);
    expect((await getReview(store.db, created.id))?.review.title).toBe("mine");
  });

  test("concurrent saves on one base: exactly one lands", async () => {
    const created = await createReview(store.db, minimal("race"), "alice");
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        saveReview(store.db, created.id, 1, minimal(`racer ${i}`), `w${i}`),
      ),
    );
    expect(results.filter((r) => r?.ok).length).toBe(1);
    expect(results.filter((r) => r && !r.ok).length).toBe(5);
    expect((await listRevisions(store.db, created.id))?.map((r) => r.revision)).toEqual([2, 1]);
  });

  test("a malformed document is never written", async () => {
    const created = await createReview(store.db, minimal("good"), "alice");
    // Typed as input on purpose: the store must refuse it even when the types were bypassed.
    const bad = {
      ...minimal("bad"),
      servers: [{ id: "s1", name: "", transport: { kind: "manual" } }],
    } as unknown as ReviewInput;
    const attempt = saveReview(store.db, created.id, 1, bad, "mallory");
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: "BAD_REQUEST",
      issues: [{ path: "review.servers.0.name" }],
    });
    await expect(
      createReview(store.db, { ...minimal("x"), title: "" }, "mallory"),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await getReview(store.db, created.id))?.revision).toBe(1);
    expect((await listRevisions(store.db, created.id))?.length).toBe(1);
    expect((await listReviews(store.db)).some((s) => s.title === "" || s.title === "x")).toBe(
      false,
    );
  });

  test("a v1 document written to the database loads upgraded", async () => {
    const v1 = {
      schemaVersion: 1,
      title: "saved by v1",
      servers: [{ id: "srv", name: "srv", transport: { kind: "manual" } }],
      sources: [{ id: "portal", name: "portal", writers: { externalAccounts: 5 } }],
      toolSources: [{ serverId: "srv", tool: "search", sourceIds: ["portal"] }],
      decision: null,
    };
    const id = "rev-v1-legacy";
    await store.db.insert(reviews).values({ id, title: v1.title, currentRevision: 1 });
    await store.db
      .insert(reviewRevisions)
      .values({ reviewId: id, revision: 1, schemaVersion: 1, document: v1, author: "v1" });

    const loaded = await getReview(store.db, id);
    expect(loaded?.upgradedFrom).toBe(1);
    expect(loaded?.review.schemaVersion).toBe(REVIEW_SCHEMA_VERSION);
    expect(loaded?.review.tools).toEqual([
      {
        serverId: "srv",
        tool: "search",
        sourceIds: ["portal"],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: false,
      },
    ]);
    expect((await getRevision(store.db, id, 1))?.upgradedFrom).toBe(1);
    // Saving it writes a current-version revision on top; the v1 one stays as it was.
    const saved = await saveReview(store.db, id, 1, loaded!.review, "alice");
    expect(saved).toMatchObject({ ok: true, record: { revision: 2, upgradedFrom: null } });
    const [raw] = await store.db.select().from(reviewRevisions).where(eqRev(id, 1));
    expect(raw?.document).toEqual(v1);
  });

  test("unknown ids answer null, delete cascades", async () => {
    const missing = "rev-does-not-exist" as ReviewId;
    expect(await getReview(store.db, missing)).toBeNull();
    expect(await saveReview(store.db, missing, 1, minimal("x"), "a")).toBeNull();
    expect(await listRevisions(store.db, missing)).toBeNull();
    expect(await getRevision(store.db, missing, 1)).toBeNull();
    expect(await deleteReview(store.db, missing)).toBe(false);

    const created = await createReview(store.db, createDemoReview(), "alice");
    expect((await getReview(store.db, created.id))?.review).toEqual(createDemoReview());
    expect(await getRevision(store.db, created.id, 9)).toBeNull();
    expect(await deleteReview(store.db, created.id)).toBe(true);
    expect(await getReview(store.db, created.id)).toBeNull();
    expect(await store.db.select().from(reviewRevisions).where(eqRev(created.id, 1))).toEqual([]);
  });

  test(
    "first start seeds the demo once, and never again after it is deleted",
    { timeout: 120_000 },
    async () => {
      const provisioned = await backend.provision();
      const fresh = await openStore({ target: provisioned.target });
      try {
        const first = await ensureFirstStart(fresh.db);
        expect(first).toMatchObject({ firstStart: true });
        const listed = await listReviews(fresh.db);
        expect(listed.length).toBe(1);
        expect(await ensureFirstStart(fresh.db)).toEqual({ firstStart: false });
        await deleteReview(fresh.db, listed[0]!.id);
        expect(await ensureFirstStart(fresh.db)).toEqual({ firstStart: false });
        expect(await listReviews(fresh.db)).toEqual([]);
      } finally {
        await fresh.close();
        await provisioned.drop();
      }
    },
  );
});

function eqRev(id: string, revision: number) {
  return and(eq(reviewRevisions.reviewId, id), eq(reviewRevisions.revision, revision));
}

describe("one PGlite per data folder", () => {
  test(
    "a second open of a folder in use is refused; after close it opens",
    { timeout: 120_000 },
    async () => {
      const provisioned = await pgliteBackend.provision();
      const first = await openStore({ target: provisioned.target });
      try {
        await expect(openStore({ target: provisioned.target })).rejects.toThrow(
          /in use by this process/,
        );
      } finally {
        await first.close();
      }
      const again = await openStore({ target: provisioned.target });
      await again.close();
      await provisioned.drop();
    },
  );
});
