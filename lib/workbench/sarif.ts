import "server-only";
/**
 * Server-side glue for the SARIF export (lib/exports/sarif.ts): the review's current revision, its
 * analysis (lib/workbench/analysis.ts, the same the review page shows), the suspicious-text flags of
 * each server's current surface (the surface panel's), and each server whose latest inspection
 * failed (the state route's rule).
 */
import { buildSarif, type FailedInspection } from "@/lib/exports/sarif";
import type { ReviewId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { labelled } from "@/lib/workbench/analysis";
import { detectionView } from "@/lib/workbench/detection-report";
import { openReview, type ReviewContext } from "@/lib/workbench/review-context";
import { storedInspectError } from "@/lib/workbench/surface";
import type { Log } from "sarif";

/** The context's findings as a SARIF log. */
export async function sarifIn(ctx: ReviewContext): Promise<Log> {
  const analysis = await labelled(ctx);
  const failedInspections: FailedInspection[] = [];
  for (const server of ctx.review.servers) {
    const last = ctx.latest.get(server.id);
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
    reviewId: ctx.record.id,
    revision: ctx.record.revision,
    review: ctx.review,
    analysis,
    surfaceFlags: ctx.surfaceFlags(),
    failedInspections,
    detection: await detectionView(ctx.db, ctx.reviewId),
  });
}

/** The review's findings as a SARIF log; NOT_FOUND for an unknown review. */
export async function reviewSarif(db: Db, id: ReviewId): Promise<Log> {
  return sarifIn(await openReview(db, id));
}
