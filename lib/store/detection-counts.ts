import "server-only";
/**
 * Scan counts and reporting tokens (issue 31 items 1 and 4). Counts are added to per (review,
 * source, agent, origin) in one statement, so two reports arriving together both count. A reporting
 * token is stored as its hash only (the caller hashes, as for share links).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { detectionBatches, detectionCounts, reportingTokens } from "@/lib/store/tables";

export type CountOrigin = "gate" | "sample";

export interface CountDelta {
  source: string;
  agent: string;
  scanned: number;
  flagged: number;
}

export interface CountRow extends CountDelta {
  origin: CountOrigin;
  updatedAt: string;
}

export interface ReportingToken {
  id: string;
  reviewId: string;
  label: string;
  createdAt: string;
  revokedAt: string | null;
}

/**
 * Adds each delta to its row (created at zero). Deltas must be checked by the caller (0 ≤ flagged ≤
 * scanned). With a `batchId` (the reporter's idempotency key) the batch is added at most once: the
 * key and the counts are written in one transaction, and a key seen before adds nothing. Returns
 * whether the counts were added.
 */
export async function addDetectionCounts(
  db: Db,
  reviewId: string,
  origin: CountOrigin,
  deltas: readonly CountDelta[],
  batchId?: string,
): Promise<boolean> {
  if (batchId === undefined) {
    await addDeltas(db, reviewId, origin, deltas);
    return true;
  }
  return db.transaction(async (tx) => {
    const fresh = await tx
      .insert(detectionBatches)
      .values({ reviewId, batchId })
      .onConflictDoNothing()
      .returning({ batchId: detectionBatches.batchId });
    if (fresh.length === 0) return false;
    await addDeltas(tx, reviewId, origin, deltas);
    return true;
  });
}

async function addDeltas(
  db: Db,
  reviewId: string,
  origin: CountOrigin,
  deltas: readonly CountDelta[],
): Promise<void> {
  for (const d of deltas) {
    if (d.scanned === 0 && d.flagged === 0) continue;
    await db
      .insert(detectionCounts)
      .values({
        reviewId,
        source: d.source,
        agent: d.agent,
        origin,
        scanned: d.scanned,
        flagged: d.flagged,
      })
      .onConflictDoUpdate({
        target: [
          detectionCounts.reviewId,
          detectionCounts.source,
          detectionCounts.agent,
          detectionCounts.origin,
        ],
        set: {
          scanned: sql`${detectionCounts.scanned} + ${d.scanned}`,
          flagged: sql`${detectionCounts.flagged} + ${d.flagged}`,
          updatedAt: sql`now()`,
        },
      });
  }
}

export async function listDetectionCounts(db: Db, reviewId: string): Promise<CountRow[]> {
  const rows = await db
    .select()
    .from(detectionCounts)
    .where(eq(detectionCounts.reviewId, reviewId));
  return rows
    .map((r) => ({
      source: r.source,
      agent: r.agent,
      origin: r.origin as CountOrigin,
      scanned: r.scanned,
      flagged: r.flagged,
      updatedAt: r.updatedAt.toISOString(),
    }))
    .sort(
      (a, b) =>
        a.source.localeCompare(b.source) ||
        a.agent.localeCompare(b.agent) ||
        a.origin.localeCompare(b.origin),
    );
}

export async function createReportingToken(
  db: Db,
  input: { reviewId: string; tokenHash: string; label?: string },
): Promise<ReportingToken> {
  const [row] = await db
    .insert(reportingTokens)
    .values({
      id: newId("rpt"),
      reviewId: input.reviewId,
      tokenHash: input.tokenHash,
      label: input.label ?? "",
    })
    .returning();
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return toToken(row);
}

/** The active token with this hash; null for an unknown or revoked one (the route answers both alike). */
export async function findActiveReportingToken(
  db: Db,
  tokenHash: string,
): Promise<ReportingToken | null> {
  const [row] = await db
    .select()
    .from(reportingTokens)
    .where(and(eq(reportingTokens.tokenHash, tokenHash), isNull(reportingTokens.revokedAt)));
  return row ? toToken(row) : null;
}

export async function revokeReportingToken(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(reportingTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(reportingTokens.id, id), isNull(reportingTokens.revokedAt)))
    .returning({ id: reportingTokens.id });
  return rows.length > 0;
}

function toToken(row: typeof reportingTokens.$inferSelect): ReportingToken {
  return {
    id: row.id,
    reviewId: row.reviewId,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
