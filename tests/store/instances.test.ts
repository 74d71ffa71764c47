/**
 * Several app instances behind a balancer share one PostgreSQL: each has its own pool, sees the
 * others' saves, and loses a stale save to a conflict whichever instance made the newer one.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { openStore, type Store } from "@/lib/store/db";
import { createReview, getReview, listReviews, saveReview } from "@/lib/store/reviews";
import { postgresBackend, TEST_DATABASE_URL } from "./support/backends";

describe.skipIf(!TEST_DATABASE_URL)("two store instances on one PostgreSQL", () => {
  let a: Store;
  let b: Store;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const provisioned = await postgresBackend(TEST_DATABASE_URL!).provision();
    drop = provisioned.drop;
    // Started together: the advisory lock serialises the two migrators.
    [a, b] = await Promise.all([
      openStore({ target: provisioned.target }),
      openStore({ target: provisioned.target }),
    ]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await drop?.();
  });

  test("each sees the other's saves, and a stale save conflicts across instances", async () => {
    const created = await createReview(
      a.db,
      { schemaVersion: REVIEW_SCHEMA_VERSION, title: "from a" },
      "a",
    );
    expect((await listReviews(b.db)).map((r) => r.id)).toContain(created.id);
    expect((await getReview(b.db, created.id))?.review.title).toBe("from a");

    const fromB = await saveReview(
      b.db,
      created.id,
      1,
      { schemaVersion: REVIEW_SCHEMA_VERSION, title: "from b" },
      "b",
    );
    expect(fromB?.ok).toBe(true);
    const staleA = await saveReview(
      a.db,
      created.id,
      1,
      { schemaVersion: REVIEW_SCHEMA_VERSION, title: "stale a" },
      "a",
    );
    expect(staleA).toMatchObject({
      ok: false,
      conflict: { revision: 2, review: { title: "from b" } },
    });

    const racing = await Promise.all([
      saveReview(
        a.db,
        created.id,
        2,
        { schemaVersion: REVIEW_SCHEMA_VERSION, title: "race a" },
        "a",
      ),
      saveReview(
        b.db,
        created.id,
        2,
        { schemaVersion: REVIEW_SCHEMA_VERSION, title: "race b" },
        "b",
      ),
    ]);
    expect(racing.filter((r) => r?.ok).length).toBe(1);
    expect((await getReview(a.db, created.id))?.revision).toBe(3);
  });
});
