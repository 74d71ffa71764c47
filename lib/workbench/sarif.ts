import "server-only";
/**
 * Server-side glue for the SARIF export (lib/exports/sarif.ts): the review's current revision, its
 * analysis (lib/workbench/analysis.ts, the same the review page shows), the suspicious-text flags of
 * each server's current surface (the surface panel's), and each server whose latest inspection
 * failed (the state route's rule).
 */
import { reviewNotFound } from "@/lib/errors";
import { buildSarif, type FailedInspection } from "@/lib/exports/sarif";
import type { ReviewId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { latestInspectionPerServer } from "@/lib/store/snapshots";
import { scanSurface, type SuspiciousFlag } from "@/lib/surface/suspicious";
import { surfaceOf } from "@/lib/surface/types";
import { analyzeRecord } from "@/lib/workbench/analysis";
import { currentInspections, inspectionSnapshot } from "@/lib/workbench/current-surface";
import { storedInspectError } from "@/lib/workbench/surface";
import type { Log } from "sarif";

/** The review's findings as a SARIF log; NOT_FOUND for an unknown review. */
export async function reviewSarif(db: Db, id: ReviewId): Promise<Log> {
  const record = await getReview(db, id);
  if (!record) throw reviewNotFound(id);
  const analysis = await analyzeRecord(db, record);
  const current = await currentInspections(db, id);
  const latest = await latestInspectionPerServer(db, id);
  const surfaceFlags: { serverId: string; flags: SuspiciousFlag[] }[] = [];
  const failedInspections: FailedInspection[] = [];
  for (const server of record.review.servers) {
    const snapshot = await inspectionSnapshot(db, current.get(server.id) ?? null);
    if (snapshot)
      surfaceFlags.push({ serverId: server.id, flags: scanSurface(surfaceOf(snapshot)) });
    const last = latest.get(server.id);
    if (last?.status === "failed") {
      const e = storedInspectError(last.error);
      failedInspections.push({
        serverId: server.id,
        inspectedAt: last.inspectedAt,
        error: e
          ? { code: e.code, ...(e.limit ? { limit: e.limit } : {}), message: e.message }
          : { code: "internal", message: "no error was recorded" },
      });
    }
  }
  return buildSarif({
    reviewId: record.id,
    revision: record.revision,
    review: record.review,
    analysis,
    surfaceFlags,
    failedInspections,
  });
}
