import "server-only";
/**
 * The one rule for a server's current surface, which the surface view, pinning, the registration
 * export, the analysis, decisions (binding, status, records, reports, exports) and the share view
 * all read through here, so a report's analysis and its decision rest on the same inspection:
 *
 *   the current inspection of a server is its most recent successful inspection in the review,
 *   whatever client capabilities it declared; its snapshot is the current surface when it is
 *   stored and readable.
 *
 * The pin's declared capabilities do not choose the current inspection. The inspection and the
 * gate declare the same fixed set (lib/mcp/capabilities.ts), so the newest inspection is what the
 * gate would see; one under other capabilities than the pin's (a pin from another workbench or an
 * older version) is compared with the pin as "incomparable", which blocks under "block", instead
 * of an older inspection under the pin's capabilities standing in for it silently: that would let
 * an approval and the analysis rest on a surface the gate no longer sees, and leave no way to
 * re-pin, since pinning takes the current inspection. The capabilities only select the pinned
 * snapshot itself (findPinnedSnapshot), to compare like with like.
 *
 * A current inspection whose snapshot is missing or unreadable (an imported review, an older
 * format) still gives the fingerprint decisions bind to; what needs the surface itself (the view,
 * the pin diff, the analysis, which then uses the declared tools) gets null.
 */
import type { Db } from "@/lib/store/db";
import {
  getSnapshot,
  latestInspectionPerServer,
  type InspectionRecord,
} from "@/lib/store/snapshots";
import { parseSurfaceSnapshot, type SurfaceSnapshot } from "@/lib/surface/types";

/** Each server's current inspection in one query, keyed by server id; a server never inspected successfully is absent. */
export async function currentInspections(
  db: Db,
  reviewId: string,
): Promise<Map<string, InspectionRecord>> {
  return latestInspectionPerServer(db, reviewId, { status: "ok" });
}

/** One server's current inspection (the same rule as `currentInspections`); null when it has none. */
export async function currentInspection(
  db: Db,
  reviewId: string,
  serverId: string,
): Promise<InspectionRecord | null> {
  return (
    (await latestInspectionPerServer(db, reviewId, { serverId, status: "ok" })).get(serverId) ??
    null
  );
}

/** An inspection's stored snapshot, parsed; null when it has none, it is missing, or in a format this version cannot read. */
export async function inspectionSnapshot(
  db: Db,
  inspection: InspectionRecord | null,
): Promise<SurfaceSnapshot | null> {
  if (!inspection?.snapshotSha256) return null;
  const stored = await getSnapshot(db, inspection.snapshotSha256);
  return stored ? parseSurfaceSnapshot(stored.document) : null;
}

export type CurrentSurface = { inspection: InspectionRecord; snapshot: SurfaceSnapshot | null };

/** One server's current inspection and its snapshot; null when it has no successful inspection. */
export async function currentSurface(
  db: Db,
  reviewId: string,
  serverId: string,
): Promise<CurrentSurface | null> {
  const inspection = await currentInspection(db, reviewId, serverId);
  return inspection ? { inspection, snapshot: await inspectionSnapshot(db, inspection) } : null;
}
