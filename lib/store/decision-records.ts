import "server-only";
/**
 * Exported decision records, kept as written. The record's schema belongs to lib/decisions, which
 * validates on read (a stored record that no longer parses is its business, not the store's).
 */
import { and, desc, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { decisionRecords } from "@/lib/store/tables";

export interface StoredDecisionRecord {
  id: string;
  reviewId: string;
  decisionId: string;
  record: unknown;
  createdAt: string;
}

function toStored(row: typeof decisionRecords.$inferSelect): StoredDecisionRecord {
  return {
    id: row.id,
    reviewId: row.reviewId,
    decisionId: row.decisionId,
    record: row.record,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function saveDecisionRecord(
  db: Db,
  input: { reviewId: string; decisionId: string; record: unknown; id?: string },
): Promise<StoredDecisionRecord> {
  const [row] = await db
    .insert(decisionRecords)
    .values({
      id: input.id ?? newId("drec"),
      reviewId: input.reviewId,
      decisionId: input.decisionId,
      record: input.record,
    })
    .returning();
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return toStored(row);
}

/** Newest first; only those for one decision when `decisionId` is given. */
export async function listDecisionRecords(
  db: Db,
  reviewId: string,
  decisionId?: string,
): Promise<StoredDecisionRecord[]> {
  const rows = await db
    .select()
    .from(decisionRecords)
    .where(
      decisionId
        ? and(eq(decisionRecords.reviewId, reviewId), eq(decisionRecords.decisionId, decisionId))
        : eq(decisionRecords.reviewId, reviewId),
    )
    .orderBy(desc(decisionRecords.createdAt), desc(decisionRecords.id));
  return rows.map(toStored);
}

export async function getDecisionRecord(db: Db, id: string): Promise<StoredDecisionRecord | null> {
  const [row] = await db.select().from(decisionRecords).where(eq(decisionRecords.id, id));
  return row ? toStored(row) : null;
}
