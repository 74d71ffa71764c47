/**
 * The setup the store-backed decision tests share: a surface of named tools as an inspection
 * stores it, an ok inspection of it recorded for a server, and a decision on that server for the
 * demo review's documentation agent taken at the review's current revision, as the decide route
 * takes it.
 */
import { DecideRequestSchema, type DecideResponse } from "@/lib/decisions/api";
import { DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import type { Db } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import {
  putSnapshot,
  recordInspection,
  type InspectionInput,
  type InspectionRecord,
} from "@/lib/store/snapshots";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import { decide } from "@/lib/workbench/decisions";
import { snapshotOfSurface } from "@/tests/support/snapshot";

/** A surface of these tools (each "The NAME tool.", an object input), under `declaredCapabilities`. */
export function toolsSnapshot(
  toolNames: readonly string[],
  declaredCapabilities: readonly string[] = DECLARED_CAPABILITY_NAMES,
): SurfaceSnapshot {
  return snapshotOfSurface(
    {
      instructions: null,
      tools: toolNames.map((name) => ({
        name,
        description: `The ${name} tool.`,
        inputSchema: { type: "object" },
      })),
      resources: [],
      resourceTemplates: [],
      prompts: [],
      rejects: [],
    },
    { declaredCapabilities },
  );
}

/** An ok inspection of `snapshot`, stored as the inspect route stores one (snapshot, then the row). */
export async function recordOkInspection(
  db: Db,
  input: Omit<
    InspectionInput,
    "snapshotSha256" | "surfaceSha256" | "status" | "declaredCapabilities"
  > & {
    snapshot: SurfaceSnapshot;
  },
): Promise<InspectionRecord> {
  const { snapshot, ...rest } = input;
  return recordInspection(db, {
    ...rest,
    snapshotSha256: await putSnapshot(db, snapshot),
    surfaceSha256: snapshot.surfaceSha256,
    declaredCapabilities: snapshot.declaredCapabilities,
    status: "ok",
  });
}

/** Decide on `serverId` for the demo's docs-agent, at the review's current revision. */
export async function decideForDocsAgent(
  db: Db,
  reviewId: string,
  serverId: string,
  decision: { verdict: "approved" | "rejected"; rationale: string },
): Promise<DecideResponse> {
  const record = (await getReview(db, reviewId))!;
  return decide(
    db,
    reviewId,
    DecideRequestSchema.parse({
      baseRevision: record.revision,
      serverId,
      agentId: "docs-agent",
      verdict: decision.verdict,
      conditions: [],
      reviewer: "R. Reviewer",
      rationale: decision.rationale,
    }),
  );
}
