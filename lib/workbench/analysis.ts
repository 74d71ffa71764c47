import "server-only";
/**
 * Server-side glue for the analysis: pick each server's tool list (the latest successful
 * inspection's snapshot when one exists and parses as a current snapshot, else the review's
 * declared tools) and run the pure analysis. The analysis route, the review page's server
 * prefetch, the share view and the report all analyse through here, so they cannot disagree;
 * the browser renders exactly this result and recomputes nothing.
 */
import { analyzeReview, type Analysis } from "@/lib/analysis/analyze";
import { toolListsFromReview, type ListedSurface } from "@/lib/analysis/input";
import type { ReviewId } from "@/lib/ids";
import type { ReviewRecord } from "@/lib/reviews/api";
import type { Review } from "@/lib/review/schema";
import type { Db } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { getSnapshot, listInspections, type InspectionRecord } from "@/lib/store/snapshots";
import { parseSurfaceSnapshot } from "@/lib/surface/types";

export type ReviewAnalysis = Analysis & { reviewId: ReviewId; revision: number };

/** The tools of one inspection's snapshot, or null when there is no usable snapshot. */
async function snapshotTools(db: Db, inspection: InspectionRecord): Promise<ListedSurface | null> {
  if (!inspection.snapshotSha256) return null;
  const record = await getSnapshot(db, inspection.snapshotSha256);
  // An unknown snapshot shape (older version, another writer's format) falls back to declared tools.
  const snapshot = record ? parseSurfaceSnapshot(record.document) : null;
  if (!snapshot) return null;
  return {
    tools: snapshot.tools.map((t) => ({
      name: t.name,
      description: t.description ?? "",
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
    resources: snapshot.resources,
    resourceTemplates: snapshot.resourceTemplates,
    prompts: snapshot.prompts,
  };
}

/**
 * The analysis of any revision's document of a stored review (the share view may be frozen at an
 * old one), with each server's latest inspected tools where an inspection exists.
 */
export async function analyzeReviewDocument(db: Db, reviewId: string, review: Review): Promise<Analysis> {
  // One query for every server's inspections (newest first); the first successful one per server counts.
  const latest = new Map<string, InspectionRecord>();
  for (const inspection of await listInspections(db, reviewId)) {
    if (inspection.status === "ok" && !latest.has(inspection.serverId)) latest.set(inspection.serverId, inspection);
  }
  const snapshots = new Map<string, ListedSurface>();
  for (const server of review.servers) {
    const inspection = latest.get(server.id);
    const tools = inspection ? await snapshotTools(db, inspection) : null;
    if (tools) snapshots.set(server.id, tools);
  }
  return analyzeReview(review, toolListsFromReview(review, snapshots));
}

/** The analysis of a loaded review record, labelled with its id and revision. */
export async function analyzeRecord(db: Db, record: ReviewRecord): Promise<ReviewAnalysis> {
  return { reviewId: record.id, revision: record.revision, ...(await analyzeReviewDocument(db, record.id, record.review)) };
}

/** The analysis of the review's current revision; null for an unknown review. */
export async function analyzeStoredReview(db: Db, id: ReviewId): Promise<ReviewAnalysis | null> {
  const record = await getReview(db, id);
  return record ? analyzeRecord(db, record) : null;
}
