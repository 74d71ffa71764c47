import "server-only";
/**
 * Server-side glue for the analysis route: load a review, pick each server's tool list (the latest
 * successful inspection's snapshot when one exists and parses as a current snapshot, else the
 * review's declared tools), and run the pure analysis. The browser renders exactly this result;
 * nothing is recomputed client-side.
 */
import { analyzeReview, type Analysis } from "@/lib/analysis/analyze";
import { toolListsFromReview, type ListedTool } from "@/lib/analysis/input";
import type { ReviewId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { getSnapshot, listInspections, type InspectionRecord } from "@/lib/store/snapshots";
import { parseSurfaceSnapshot } from "@/lib/surface/types";

export type ReviewAnalysis = Analysis & { reviewId: ReviewId; revision: number };

/** The tools of one inspection's snapshot, or null when there is no usable snapshot. */
async function snapshotTools(db: Db, inspection: InspectionRecord): Promise<ListedTool[] | null> {
  if (!inspection.snapshotSha256) return null;
  const record = await getSnapshot(db, inspection.snapshotSha256);
  // An unknown snapshot shape (older version, another writer's format) falls back to declared tools.
  const snapshot = record ? parseSurfaceSnapshot(record.document) : null;
  if (!snapshot) return null;
  return snapshot.tools.map((t) => ({
    name: t.name,
    description: t.description ?? "",
    ...(t.annotations ? { annotations: t.annotations } : {}),
  }));
}

/** The analysis of the review's current revision; null for an unknown review. */
export async function analyzeStoredReview(db: Db, id: ReviewId): Promise<ReviewAnalysis | null> {
  const record = await getReview(db, id);
  if (!record) return null;
  // One query for every server's inspections (newest first); the first successful one per server counts.
  const latest = new Map<string, InspectionRecord>();
  for (const inspection of await listInspections(db, id)) {
    if (inspection.status === "ok" && !latest.has(inspection.serverId)) latest.set(inspection.serverId, inspection);
  }
  const snapshots = new Map<string, ListedTool[]>();
  for (const server of record.review.servers) {
    const inspection = latest.get(server.id);
    const tools = inspection ? await snapshotTools(db, inspection) : null;
    if (tools) snapshots.set(server.id, tools);
  }
  const analysis = analyzeReview(record.review, toolListsFromReview(record.review, snapshots));
  return { reviewId: record.id, revision: record.revision, ...analysis };
}
