/**
 * One rule for the current surface: on a review whose server was inspected several times under
 * different declared client capabilities (with a pin made under other capabilities than the
 * newest inspection's, and a failed inspection after it), the surface view, the analysis, the
 * decision binding and status, the signed record's surface, the report, the exports and the
 * share view all rest on the same inspection, and all move together when a newer one arrives.
 */
import { beforeAll, describe, expect, test } from "vitest";
import type { Analysis } from "@/lib/analysis/analyze";
import { DecideRequestSchema } from "@/lib/decisions/api";
import { AppError } from "@/lib/errors";
import type { ReviewId, ServerId } from "@/lib/ids";
import { DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { createDemoReview } from "@/lib/review/demo";
import type { SurfacePin } from "@/lib/review/schema";
import { createReview, getReview } from "@/lib/store/reviews";
import { createShareLink } from "@/lib/store/share-links";
import { putSnapshot, recordInspection, type InspectionRecord } from "@/lib/store/snapshots";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import { analyzeReviewDocument, analyzeStoredReview } from "@/lib/workbench/analysis";
import { currentInspection, currentInspections } from "@/lib/workbench/current-surface";
import {
  currentSurfaces,
  decide,
  decisionExport,
  decisionReport,
  decisionView,
  loadStoredDecision,
  recordSurface,
} from "@/lib/workbench/decisions";
import { hashShareToken, loadShareView, newShareToken } from "@/lib/workbench/share";
import { surfaceView } from "@/lib/workbench/surface";
import { BACKENDS, useStore } from "@/tests/store/support/backends";
import {
  decideForDocsAgent,
  recordOkInspection,
  toolsSnapshot,
} from "@/tests/support/decision-setup";

const SERVER = "knowledge-mcp" as ServerId;
const OLDER_CAPS = ["roots"];

const PINNED = toolsSnapshot(
  ["knowledge_search", "read_page", "list_spaces", "get_comment"],
  DECLARED_CAPABILITY_NAMES,
);
const NEWER = toolsSnapshot(
  ["knowledge_search", "read_page", "list_spaces", "get_comment", "export_space"],
  OLDER_CAPS,
);
/** The server's tools the analysis lists from a snapshot ("declared" when it fell back to the review's declared tools). */
const listedTools = (analysis: Analysis) =>
  analysis.toolLists.find((l) => l.serverId === SERVER)?.origin === "snapshot"
    ? analysis.tools
        .filter((t) => t.serverId === SERVER && t.item === "tool" && t.presence === "listed")
        .map((t) => t.name)
        .sort()
    : "declared";
const at = (minute: number) => new Date(Date.UTC(2026, 11, 2, 12, minute));
/** A pin of PINNED under the capabilities this workbench declares. */
const pinOfPinned = (onSurfaceChange: "block" | "warn"): SurfacePin => ({
  surfaceSha256: PINNED.surfaceSha256,
  declaredCapabilities: [...DECLARED_CAPABILITY_NAMES],
  pinnedAt: at(0).toISOString(),
  pinnedBy: "owner",
  reason: "first review",
  onSurfaceChange,
});

describe.each(BACKENDS)("the current surface on $name", (backend) => {
  const store = useStore(backend);
  let reviewId: ReviewId;
  let token: string;
  let newest: InspectionRecord;

  const inspect = async (
    /** Null: a failed inspection, under the capabilities this workbench declares. */
    snapshot: SurfaceSnapshot | null,
    minute: number,
    serverId: string = SERVER,
  ) =>
    snapshot
      ? recordOkInspection(store.db, { reviewId, serverId, snapshot, inspectedAt: at(minute) })
      : recordInspection(store.db, {
          reviewId,
          serverId,
          snapshotSha256: null,
          surfaceSha256: null,
          declaredCapabilities: DECLARED_CAPABILITY_NAMES,
          status: "failed",
          error: { code: "timeout", message: "no answer within 5000 ms" },
          inspectedAt: at(minute),
        });

  /** What each reader takes as the server's current surface, by fingerprint (and inspection where it says). */
  async function everyReader(decisionId: string) {
    const db = store.db;
    const record = (await getReview(db, reviewId))!;
    const server = record.review.servers.find((s) => s.id === SERVER)!;
    const view = await surfaceView(db, record, server);
    const analysis = await analyzeReviewDocument(db, reviewId, record.review);
    const surfaces = await currentSurfaces(db, reviewId, record.review);
    const stored = await loadStoredDecision(db, reviewId, decisionId);
    const share = (await loadShareView(db, token))!;
    return {
      view: {
        inspectionId: view.current?.inspection.id,
        surfaceSha256: view.current?.snapshot.surfaceSha256,
        pin: view.comparison?.status,
      },
      analysisTools: listedTools(analysis),
      // The graph routes' analysis of the shared current document, reused while its inputs hold.
      storedAnalysisTools: listedTools((await analyzeStoredReview(db, reviewId))!),
      decisionList: surfaces.get(SERVER),
      storedDecision: stored.currentSurfaceSha256,
      shareTools: listedTools(share.analysis),
      shareStatus: share.decisions.find((d) => d.decision.id === decisionId)!.status.state,
      listStatus: decisionView(stored.decision, record.review, surfaces).status.state,
      report: await decisionReport(db, reviewId, decisionId),
      recordSurface: await recordSurface(db, reviewId, server, stored.decision.bound.surfaceSha256),
      exported: await decisionExport(db, reviewId, decisionId, "credential-request").then(
        (file) => file.kind,
        (e: unknown) => (e instanceof AppError ? e.code : String(e)),
      ),
    };
  }

  beforeAll(async () => {
    const review = createDemoReview();
    // Pinned under the capabilities this workbench declares, as "warn" so an approval goes through.
    review.servers.find((s) => s.id === SERVER)!.pin = pinOfPinned("warn");
    reviewId = (await createReview(store.db, review, "test")).id;
    await inspect(PINNED, 1);
    newest = await inspect(NEWER, 2);
    await inspect(null, 3);
    // Another server, inspected only under the older capabilities: per server, not per review.
    await inspect(toolsSnapshot(["trigger_deploy"], OLDER_CAPS), 4, "deploy-tools");
    token = newShareToken();
    await createShareLink(store.db, { reviewId, tokenHash: hashShareToken(token) });
  });

  test("the newest successful inspection is current, whatever capabilities it declared, per server", async () => {
    const current = await currentInspections(store.db, reviewId);
    expect([...current.keys()].sort()).toEqual(["deploy-tools", SERVER]);
    expect(current.get(SERVER)?.id).toBe(newest.id);
    expect((await currentInspection(store.db, reviewId, SERVER))?.id).toBe(newest.id);
    expect(
      (await currentInspection(store.db, reviewId, "deploy-tools"))?.declaredCapabilities,
    ).toEqual(OLDER_CAPS);
    expect(await currentInspection(store.db, reviewId, "tracker-internal")).toBeNull();
  });

  test("every reader rests on that inspection, and they all move together to a newer one", async () => {
    const made = await decideForDocsAgent(store.db, reviewId, SERVER, {
      verdict: "approved",
      rationale: "read-only tools",
    });
    expect(made.decision.decision.bound.surfaceSha256).toBe(NEWER.surfaceSha256);

    const newerTools = NEWER.tools.map((t) => t.name).sort();
    const before = await everyReader(made.decision.decision.id);
    expect(before).toMatchObject({
      // The pin was made under other capabilities: shown, not papered over with the older inspection.
      view: { inspectionId: newest.id, surfaceSha256: NEWER.surfaceSha256, pin: "incomparable" },
      analysisTools: newerTools,
      storedAnalysisTools: newerTools,
      decisionList: NEWER.surfaceSha256,
      storedDecision: NEWER.surfaceSha256,
      shareTools: newerTools,
      shareStatus: "current",
      listStatus: "current",
      recordSurface: {
        surfaceSha256: NEWER.surfaceSha256,
        tools: newerTools,
        declaredCapabilities: OLDER_CAPS,
      },
      exported: "credential-request",
    });
    expect(before.report).toContain(`made against the live surface \`${NEWER.surfaceSha256}\``);
    expect(before.report).toContain("current: nothing the decision is bound to has changed");

    // Re-inspected under the pinned capabilities: every reader takes the new inspection, and the decision is stale everywhere.
    const again = await inspect(PINNED, 5);
    const after = await everyReader(made.decision.decision.id);
    expect(after).toMatchObject({
      view: { inspectionId: again.id, surfaceSha256: PINNED.surfaceSha256, pin: "match" },
      analysisTools: PINNED.tools.map((t) => t.name).sort(),
      storedAnalysisTools: PINNED.tools.map((t) => t.name).sort(),
      decisionList: PINNED.surfaceSha256,
      storedDecision: PINNED.surfaceSha256,
      shareTools: PINNED.tools.map((t) => t.name).sort(),
      shareStatus: "stale",
      listStatus: "stale",
      recordSurface: null,
      exported: "CONFLICT",
    });
    expect(after.report).toContain("**stale**");
  });

  test("a decision made now binds to the same inspection the analysis and the view use", async () => {
    const record = (await getReview(store.db, reviewId))!;
    const made = await decideForDocsAgent(store.db, reviewId, SERVER, {
      verdict: "rejected",
      rationale: "not yet",
    });
    const view = await surfaceView(
      store.db,
      (await getReview(store.db, reviewId))!,
      record.review.servers.find((s) => s.id === SERVER)!,
    );
    expect(made.decision.decision.bound.surfaceSha256).toBe(view.current?.snapshot.surfaceSha256);
    expect(made.decision.status.state).toBe("current");
    // A stale base revision is refused, naming the revision, and saves nothing.
    await expect(
      decide(
        store.db,
        reviewId,
        DecideRequestSchema.parse({
          baseRevision: record.revision,
          serverId: SERVER,
          agentId: "docs-agent",
          verdict: "rejected",
          reviewer: "R",
          rationale: "x",
        }),
      ),
    ).rejects.toThrow(/saved as revision/);
    expect((await getReview(store.db, reviewId))!.review.decisions).toHaveLength(2);
  });

  test("an approval under a blocking pin is refused when the current inspection differs and its snapshot cannot be read", async () => {
    const review = createDemoReview();
    review.servers.find((s) => s.id === SERVER)!.pin = pinOfPinned("block");
    const id = (await createReview(store.db, review, "test")).id;
    await recordInspection(store.db, {
      reviewId: id,
      serverId: SERVER,
      snapshotSha256: await putSnapshot(store.db, {
        snapshotVersion: 99,
        written: "by another version",
      }),
      surfaceSha256: NEWER.surfaceSha256,
      declaredCapabilities: DECLARED_CAPABILITY_NAMES,
      status: "ok",
      inspectedAt: at(5),
    });
    const record = (await getReview(store.db, id))!;
    const approve = {
      baseRevision: record.revision,
      serverId: SERVER,
      agentId: "docs-agent",
      verdict: "approved",
      conditions: [],
      reviewer: "R",
      rationale: "x",
    };
    await expect(decide(store.db, id, DecideRequestSchema.parse(approve))).rejects.toThrow(
      /is blocked: its current inspection .* differs from its pin/,
    );
    expect((await getReview(store.db, id))!.review.decisions).toHaveLength(review.decisions.length);
  });
});
