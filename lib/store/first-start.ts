import "server-only";
/**
 * What the very first start of a store does: seed the demo review when the store is empty. The
 * `settings` row records that the first start happened, so deleting every review later does not
 * bring the demo back; the demo is created in the same transaction as the marker, so racing
 * instances against one PostgreSQL seed it once.
 */
import { createDemoReview } from "@/lib/review/demo";
import type { Db } from "@/lib/store/db";
import { createReview, countReviews } from "@/lib/store/reviews";
import { settings } from "@/lib/store/tables";

export const FIRST_START_KEY = "first_start";
export const DEMO_AUTHOR = "relay-review (demo)";

export type FirstStartOutcome =
  { firstStart: false } | { firstStart: true; demoReviewId: string | null };

export async function ensureFirstStart(db: Db, now: Date = new Date()): Promise<FirstStartOutcome> {
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(settings)
      .values({ key: FIRST_START_KEY, value: { at: now.toISOString() } })
      .onConflictDoNothing({ target: settings.key })
      .returning({ key: settings.key });
    if (claimed.length === 0) return { firstStart: false };
    // A transaction handle is a Db for every query the store functions make.
    const txDb = tx as unknown as Db;
    if ((await countReviews(txDb)) > 0) return { firstStart: true, demoReviewId: null };
    const record = await createReview(txDb, createDemoReview(), DEMO_AUTHOR);
    return { firstStart: true, demoReviewId: record.id };
  });
}
