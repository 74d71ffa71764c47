import "server-only";
/**
 * Server-side glue for the decision, record, report and share routes: what the live surface of
 * each server is now (from the store), each decision's status and condition checks against the
 * current review, the registration block of a record, and the analysis summary a report needs.
 * The domain rules are lib/decisions'; this file only gathers their inputs.
 */
import type { Analysis } from "@/lib/analysis/analyze";
import type { ServerId } from "@/lib/ids";
import { splitToolKey } from "@/lib/analysis/ids";
import { controlEntry } from "@/lib/controls/catalog";
import { classifyEgress } from "@/lib/controls/egress/evaluate";
import { parseNetworkPolicies } from "@/lib/controls/egress/policy";
import { decisionBasis } from "@/lib/decisions/binding";
import { toolConditionOffers, type ToolConditionOffer } from "@/lib/decisions/candidates";
import type { DecisionView } from "@/lib/decisions/api";
import type { RecordSurface } from "@/lib/decisions/record";
import type { ReportAnalysisSummary } from "@/lib/decisions/report";
import { checkConditions, decisionStatus, type ConditionCheck } from "@/lib/decisions/staleness";
import { DecisionSchema, type Decision, type DecisionCondition, type RelayServer, type Review } from "@/lib/review/schema";
import { AppError } from "@/lib/errors";
import type { ReviewRecord } from "@/lib/reviews/api";
import type { Db } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";
import { getSnapshot, latestInspection, type InspectionRecord } from "@/lib/store/snapshots";
import { buildRegistrationRecord } from "@/lib/surface/registration";
import { parseSurfaceSnapshot } from "@/lib/surface/types";


/** Egress default-deny for a decision condition: from the policy text, never from a summary. */
export function egressDefaultDeny(policyYaml: string): boolean | null {
  const parsed = parseNetworkPolicies(policyYaml);
  if (!parsed.ok) return null;
  return classifyEgress(parsed.policies).deniesUnlistedByConstruction;
}

/** The latest successful inspection a decision about `server` compares with: like with like when pinned. */
async function currentInspection(db: Db, reviewId: string, server: RelayServer): Promise<InspectionRecord | null> {
  return latestInspection(db, reviewId, server.id, {
    status: "ok",
    ...(server.pin ? { declaredCapabilities: server.pin.declaredCapabilities } : {}),
  });
}

/** Each server's current surface fingerprint; null when never inspected. */
export async function currentSurfaces(db: Db, reviewId: string, review: Review): Promise<Map<ServerId, string | null>> {
  const out = new Map<ServerId, string | null>();
  for (const server of review.servers) {
    out.set(server.id, (await currentInspection(db, reviewId, server))?.surfaceSha256 ?? null);
  }
  return out;
}

export type StoredDecision = {
  record: ReviewRecord;
  decision: Decision;
  /** The fingerprint of the decision's server's latest live inspection; null when never inspected. */
  currentSurfaceSha256: string | null;
};

/** One decision of a stored review, as its record, report and export routes load it; NOT_FOUND otherwise. */
export async function loadStoredDecision(db: Db, reviewId: string, decisionId: string): Promise<StoredDecision> {
  const record = await getReview(db, reviewId);
  if (!record) throw new AppError("NOT_FOUND", `no review with id ${JSON.stringify(reviewId)}`);
  const decision = record.review.decisions.find((d) => d.id === decisionId);
  if (!decision) throw new AppError("NOT_FOUND", `no decision with id ${JSON.stringify(decisionId)} in this review`);
  const server = record.review.servers.find((s) => s.id === decision.serverId);
  const currentSurfaceSha256 = server ? ((await currentInspection(db, reviewId, server))?.surfaceSha256 ?? null) : null;
  return { record, decision, currentSurfaceSha256 };
}

/** A decision with its status, condition checks and basis, against `review` and the surfaces now. */
export function decisionView(decision: Decision, review: Review, surfaces: ReadonlyMap<ServerId, string | null>): DecisionView {
  const currentSurfaceSha256 = surfaces.get(decision.serverId) ?? null;
  const basis = decisionBasis(decision);
  return {
    decision,
    status: decisionStatus(decision, { review, currentSurfaceSha256 }),
    conditionChecks: checkConditions(decision, review, { evaluateEgressDefaultDeny: egressDefaultDeny }),
    basis: { kind: basis.kind, label: basis.label },
  };
}

const PLACEHOLDER_SHA = "0".repeat(64);

/** A condition checked now, and for a tool condition why it is offered. */
export type CandidateCheck = ConditionCheck & { offer?: ToolConditionOffer["offer"]; offerNote?: string };

/**
 * Every checkable condition the reviewer may attach to a decision about (server, agent), each
 * checked now; "tool absent from agent" for the sinks it should keep out and the tools on its
 * paths (see lib/decisions/candidates.ts), from the review's analysis.
 */
export function candidateConditions(review: Review, serverId: string, agentId: string, analysis: Analysis): CandidateCheck[] {
  const server = review.servers.find((s) => s.id === serverId);
  const agent = review.agents.find((a) => a.id === agentId);
  if (!server || !agent) return [];
  const offers = toolConditionOffers(review, analysis, agent.id);
  const conditions: DecisionCondition[] = [
    { kind: "egress_default_deny", serverId: server.id },
    { kind: "credential_read_only", serverId: server.id },
    { kind: "surface_pinned_block", serverId: server.id },
    { kind: "approval_out_of_band", agentId: agent.id },
    ...offers.map((o) => o.condition),
  ];
  // A probe decision, only to run checkConditions: never stored, never shown.
  const probe = DecisionSchema.parse({
    id: "probe",
    serverId: server.id,
    agentId: agent.id,
    verdict: "approved_with_conditions",
    toolSet: agent.tools,
    conditions,
    reviewer: "probe",
    rationale: "probe",
    decidedAt: new Date(0).toISOString(),
    bound: { surfaceSha256: null, imageDigest: null, toolSetSha256: PLACEHOLDER_SHA, controlsSha256: PLACEHOLDER_SHA, revision: 1 },
  });
  const checks = checkConditions(probe, review, { evaluateEgressDefaultDeny: egressDefaultDeny });
  const fixed = checks.length - offers.length;
  return checks.map((c, i) => (i < fixed ? c : { ...c, offer: offers[i - fixed]!.offer, offerNote: offers[i - fixed]!.note }));
}

/**
 * The registration block's surface for a record: the snapshot of the inspection whose fingerprint
 * the decision is bound to. Null when the decision was made against declared tools or the
 * snapshot is not a readable current one.
 */
export async function recordSurface(db: Db, reviewId: string, server: RelayServer, surfaceSha256: string | null): Promise<RecordSurface | null> {
  if (surfaceSha256 === null) return null;
  const inspection = await currentInspection(db, reviewId, server);
  if (!inspection?.snapshotSha256 || inspection.surfaceSha256 !== surfaceSha256) return null;
  const stored = await getSnapshot(db, inspection.snapshotSha256);
  const snapshot = stored ? parseSurfaceSnapshot(stored.document) : null;
  if (!snapshot || snapshot.surfaceSha256 !== surfaceSha256) return null;
  const r = buildRegistrationRecord(snapshot, { server: server.name, image: server.imageDigest });
  return {
    surfaceSha256: r.surface_sha256,
    ...r.surface,
    declaredCapabilities: r.declared_capabilities,
    ...(r.item_sha256 ? { itemSha256: r.item_sha256 } : {}),
  };
}

const STATUS_WORD = { holds: "holds", fails: "fails", absent: "absent", cannot_evaluate: "cannot be evaluated" } as const;

/** What the Markdown report shows of the analysis, for the decision's agent and server. */
export function reportAnalysisSummary(analysis: Analysis, review: Review, decision: Decision): ReportAnalysisSummary {
  const agentName = review.agents.find((a) => a.id === decision.agentId)?.name ?? decision.agentId;
  const serverName = (id: string) => review.servers.find((s) => s.id === id)?.name ?? id;
  const paths = analysis.paths.listed
    .filter((p) => p.agentId === decision.agentId)
    .map((p) => ({ from: p.head.label, via: [splitToolKey(p.returningTool).tool, agentName], to: splitToolKey(p.sink).tool, bound: p.head.boundLabel }));
  const c = analysis.controls;
  const evaluations = [...c.credentials, ...c.egress, c.separation, ...c.approvals, ...c.absent].filter(
    (e) =>
      e.scope.kind === "review" ||
      (e.scope.kind === "server" && e.scope.serverId === decision.serverId) ||
      (e.scope.kind === "agent" && e.scope.agentId === decision.agentId),
  );
  const controls = evaluations.map((e) => {
    const scope = e.scope.kind === "server" ? serverName(e.scope.serverId) : e.scope.kind === "agent" ? agentName : "every agent session";
    return { name: `${controlEntry(e.controlId).name} (${scope}): ${STATUS_WORD[e.status]}. ${e.summary}`, stops: e.stops, residue: e.residue, cuts: e.cutsPath };
  });
  const truncated = analysis.paths.truncated ? ` (listing truncated: ${analysis.paths.total} paths in all)` : "";
  return { paths, controls, residueStatement: `${c.residue.text}${truncated}` };
}
