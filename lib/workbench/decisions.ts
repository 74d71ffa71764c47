import "server-only";
import type { KeyObject } from "node:crypto";
/**
 * Server-side glue for the decision, record, report and share routes: what the live surface of
 * each server is now (from the store), each decision's status and condition checks against the
 * current review, the registration block of a record, and the analysis summary a report needs.
 * The domain rules are lib/decisions'; this file only gathers their inputs.
 */
import type { z } from "zod";
import type { Analysis } from "@/lib/analysis/analyze";
import type { ServerId } from "@/lib/ids";
import { splitToolKey } from "@/lib/model/ids";
import { egressDefaultDeny } from "@/lib/controls/egress";
import { controlEntry, controlEvaluations } from "@/lib/controls/registry";
import { principalAuthor, principalRole, type Principal } from "@/lib/auth/principal";
import { hasRole } from "@/lib/auth/roles";
import { currentPrincipal } from "@/lib/auth/request-principal";
import { approvalsNeeded, fourEyesSettings, isPending } from "@/lib/decisions/four-eyes";
import { blockedDecisionError, buildDecision, decisionBasis } from "@/lib/decisions/binding";
import { toolConditionOffers, type ToolConditionOffer } from "@/lib/decisions/candidates";
import type { DecideRequestSchema, DecideResponse, DecisionView } from "@/lib/decisions/api";
import {
  buildDecisionRecord,
  recordSurfaceOf,
  signRecord,
  type DecisionRecord,
  type RecordSurface,
} from "@/lib/decisions/record";
import { renderDecisionMarkdown, type ReportAnalysisSummary } from "@/lib/decisions/report";
import { resolveAcceptances } from "@/lib/decisions/acceptance";
import { decisionInForceFor, supersededBy } from "@/lib/decisions/lifecycle";
import {
  buildExport,
  type ExportFile,
  type ExportKind,
  type ExportOptions,
} from "@/lib/exports/exports";
import {
  checkConditions,
  decisionStatus,
  surfaceChangeKey,
  type ConditionCheck,
} from "@/lib/decisions/staleness";
import {
  DecisionSchema,
  type Decision,
  type DecisionCondition,
  type RelayServer,
  type Review,
} from "@/lib/review/schema";
import { AppError, reviewNotFound } from "@/lib/errors";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { saveDecisionRecord } from "@/lib/store/decision-records";
import { getReview, saveReview } from "@/lib/store/reviews";
import { listInspections } from "@/lib/store/snapshots";
import { diffSurfaces, surfaceItemChanges, type SurfaceItemChange } from "@/lib/surface/diff";
import { buildRegistrationRecord } from "@/lib/surface/registration";
import { surfaceOf, type SurfaceSnapshot } from "@/lib/surface/types";
import { inspectionSnapshot } from "@/lib/workbench/current-surface";
import { openReview, type FindingsNow, type ReviewContext } from "@/lib/workbench/review-context";

/** Egress default-deny for a decision condition: from the policy text, never from a summary. */
export { egressDefaultDeny };

/**
 * A context for `review` (a document of the stored review, or one about to be saved): the stored
 * review's current surfaces with this document. For the (db, reviewId, review) helpers below that
 * predate `openReview`; a route opens its context once instead.
 */
async function contextFor(db: Db, reviewId: string, review: Review): Promise<ReviewContext> {
  const stored = await getReview(db, reviewId);
  if (!stored) throw reviewNotFound(reviewId);
  return openReview(db, reviewId, { record: { ...stored, review } });
}

/** Each server's current surface fingerprint (lib/workbench/current-surface.ts); null when never inspected. */
export async function currentSurfaces(
  db: Db,
  reviewId: string,
  review: Review,
): Promise<ReadonlyMap<ServerId, string | null>> {
  return (await contextFor(db, reviewId, review)).surfaces;
}

/**
 * Each server's current OAuth grant: the scopes its current inspection was granted (sorted set),
 * null when that inspection was not reached through OAuth or there is none. Decisions bind it and
 * a wider one makes them stale (lib/controls/granted-scopes.ts).
 */
export async function currentGrants(
  db: Db,
  reviewId: string,
  review: Review,
): Promise<ReadonlyMap<ServerId, string[] | null>> {
  return (await contextFor(db, reviewId, review)).grants;
}

/** The open findings of `review` now (see `FindingsNow`). */
export async function findingsNow(db: Db, reviewId: string, review: Review): Promise<FindingsNow> {
  return (await contextFor(db, reviewId, review)).findings();
}

export type { FindingsNow };

/**
 * The items that changed between each stale decision's bound surface and its server's surface
 * now, from the stored snapshots (keyed by `surfaceChangeKey`), so a stale message names them.
 * A pair whose snapshots are not both stored is left out: its message names the fingerprints.
 * The current snapshot is the context's; only a decision's older bound surface is read here.
 */
export async function surfaceChangesIn(
  ctx: ReviewContext,
  decisions: readonly Decision[] = ctx.review.decisions,
): Promise<Map<string, SurfaceItemChange[]>> {
  const out = new Map<string, SurfaceItemChange[]>();
  const snapshots = new Map<string, SurfaceSnapshot | null>();
  const snapshotOf = async (serverId: string, surfaceSha256: string) => {
    const current = ctx.snapshots.get(serverId);
    if (current?.surfaceSha256 === surfaceSha256) return current;
    const key = `${serverId}>${surfaceSha256}`;
    if (!snapshots.has(key)) {
      const inspection = (await listInspections(ctx.db, ctx.reviewId, serverId)).find(
        (i) => i.status === "ok" && i.surfaceSha256 === surfaceSha256 && i.snapshotSha256,
      );
      const parsed = await inspectionSnapshot(ctx.db, inspection ?? null);
      snapshots.set(key, parsed && parsed.surfaceSha256 === surfaceSha256 ? parsed : null);
    }
    return snapshots.get(key) ?? null;
  };
  for (const d of decisions) {
    const before = d.bound.surfaceSha256;
    const after = ctx.surfaces.get(d.serverId) ?? null;
    if (
      before === null ||
      after === null ||
      before === after ||
      out.has(surfaceChangeKey(before, after))
    )
      continue;
    const [a, b] = [await snapshotOf(d.serverId, before), await snapshotOf(d.serverId, after)];
    if (a && b)
      out.set(
        surfaceChangeKey(before, after),
        surfaceItemChanges(diffSurfaces(surfaceOf(a), surfaceOf(b))),
      );
  }
  return out;
}

export type DecisionChecks = Required<Omit<DecisionViewContext, "now" | "findings">> & {
  findings: FindingsNow;
};

/**
 * Everything a decision's status is checked against now, from the context, assembled in one place
 * (the decisions list, the state route, the share view and the stale events all read this).
 */
export async function decisionChecks(
  ctx: ReviewContext,
  decisions: readonly Decision[] = ctx.review.decisions,
): Promise<DecisionChecks> {
  return {
    surfaceChanges: await surfaceChangesIn(ctx, decisions),
    grants: ctx.grants,
    findings: await ctx.findings(),
    supersededBy: supersededBy(ctx.review.decisions),
  };
}

/**
 * Refuses an approval of a server whose pin is blocked now (its latest inspection differs from the
 * pin under "block"): the CONFLICT names the changed items. A rejection always passes.
 */
export function assertDecidable(
  ctx: ReviewContext,
  serverId: string,
  verdict: Decision["verdict"],
): void {
  if (verdict === "rejected") return;
  const server = ctx.review.servers.find((s) => s.id === serverId);
  if (!server) return; // buildDecision names the unknown server
  const check = ctx.pinChecks.get(server.id) ?? null;
  const error = check ? blockedDecisionError(server, check.comparison) : null;
  if (error) throw error;
  if (!check && server.pin?.onSurfaceChange === "block") {
    // The current inspection's snapshot cannot be read back (missing, or a format this version does
    // not read), so its items cannot be compared: fail closed on its fingerprint alone.
    const current = ctx.current.get(server.id);
    if (current?.surfaceSha256 && current.surfaceSha256 !== server.pin.surfaceSha256) {
      throw new AppError(
        "CONFLICT",
        `${server.name} is blocked: its current inspection (${current.surfaceSha256.slice(0, 12)}…) differs from its pin (${server.pin.surfaceSha256.slice(0, 12)}…) and its snapshot cannot be read to say what changed; inspect it again, or re-pin it with a reason`,
        {
          details: {
            reason: "surface_blocked",
            pinnedSurfaceSha256: server.pin.surfaceSha256,
            liveSurfaceSha256: current.surfaceSha256,
            items: [],
          },
        },
      );
    }
  }
}

export type StoredDecision = {
  record: ReviewRecord;
  decision: Decision;
  /** The fingerprint of the decision's server's current inspection; null when never inspected. */
  currentSurfaceSha256: string | null;
  /** The scopes that inspection's OAuth grant held; null when it had none. */
  currentGrantedScopes: string[] | null;
};

/** One decision of the context's review, as its record, report and export read it; NOT_FOUND otherwise. */
export function storedDecision(ctx: ReviewContext, decisionId: string): StoredDecision {
  const decision = ctx.review.decisions.find((d) => d.id === decisionId);
  if (!decision)
    throw new AppError(
      "NOT_FOUND",
      `no decision with id ${JSON.stringify(decisionId)} in this review`,
    );
  const known = ctx.review.servers.some((s) => s.id === decision.serverId);
  return {
    record: ctx.record,
    decision,
    currentSurfaceSha256: known ? (ctx.surfaces.get(decision.serverId) ?? null) : null,
    currentGrantedScopes: known ? (ctx.grants.get(decision.serverId) ?? null) : null,
  };
}

/** `storedDecision` of a stored review, opened for this call; NOT_FOUND otherwise. */
export async function loadStoredDecision(
  db: Db,
  reviewId: string,
  decisionId: string,
): Promise<StoredDecision> {
  return storedDecision(await openReview(db, reviewId), decisionId);
}

/** What a decision view is checked against besides the surfaces; each part omitted is not checked. */
export type DecisionViewContext = {
  surfaceChanges?: ReadonlyMap<string, readonly SurfaceItemChange[]>;
  /** Each server's current grant (`currentGrants`); without it the grant is not checked. */
  grants?: ReadonlyMap<ServerId, string[] | null>;
  /** The open findings now (`findingsNow`); without it findings are not checked (acceptance dates still are). */
  findings?: Pick<FindingsNow, "of">;
  /** Which decision replaced which (lib/decisions/lifecycle.ts `supersededBy` of the latest revision). */
  supersededBy?: ReadonlyMap<string, string>;
  now?: Date;
};

/** A decision with its status, condition checks and basis, against `review` and the surfaces now. */
export function decisionView(
  decision: Decision,
  review: Review,
  surfaces: ReadonlyMap<ServerId, string | null>,
  context: DecisionViewContext = {},
): DecisionView {
  const { surfaceChanges, grants, findings } = context;
  const currentSurfaceSha256 = surfaces.get(decision.serverId) ?? null;
  const basis = decisionBasis(decision);
  return {
    decision,
    status: decisionStatus(decision, {
      review,
      currentSurfaceSha256,
      ...(surfaceChanges ? { surfaceChanges } : {}),
      ...(grants ? { currentGrantedScopes: grants.get(decision.serverId) ?? null } : {}),
      ...(findings ? { openFindings: findings.of(decision.serverId, decision.agentId) } : {}),
      ...(context.now ? { now: context.now } : {}),
    }),
    conditionChecks: checkConditions(decision, review, {
      evaluateEgressDefaultDeny: egressDefaultDeny,
    }),
    basis: { kind: basis.kind, label: basis.label },
    ...(context.supersededBy
      ? { supersededBy: context.supersededBy.get(decision.id) ?? null }
      : {}),
  };
}

const PLACEHOLDER_SHA = "0".repeat(64);

/** A condition checked now, and for a tool condition why it is offered. */
export type CandidateCheck = ConditionCheck & {
  offer?: ToolConditionOffer["offer"];
  offerNote?: string;
};

/**
 * Every checkable condition the reviewer may attach to a decision about (server, agent), each
 * checked now; "tool absent from agent" for the sinks it should keep out and the tools on its
 * paths (see lib/decisions/candidates.ts), from the review's analysis.
 */
export function candidateConditions(
  review: Review,
  serverId: string,
  agentId: string,
  analysis: Analysis,
): CandidateCheck[] {
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
    bound: {
      surfaceSha256: null,
      imageDigest: null,
      toolSetSha256: PLACEHOLDER_SHA,
      controlsSha256: PLACEHOLDER_SHA,
      revision: 1,
    },
  });
  const checks = checkConditions(probe, review, { evaluateEgressDefaultDeny: egressDefaultDeny });
  const fixed = checks.length - offers.length;
  return checks.map((c, i) =>
    i < fixed ? c : { ...c, offer: offers[i - fixed]!.offer, offerNote: offers[i - fixed]!.note },
  );
}

/**
 * The registration block's surface for a record: the current surface, when the decision is bound
 * to its fingerprint. Null when the decision was made against declared tools, against another
 * surface, or the snapshot is not a readable current one.
 */
export function recordSurfaceIn(
  ctx: ReviewContext,
  server: RelayServer,
  surfaceSha256: string | null,
): RecordSurface | null {
  if (surfaceSha256 === null) return null;
  const inspection = ctx.current.get(server.id);
  const snapshot =
    inspection?.surfaceSha256 === surfaceSha256 ? (ctx.snapshots.get(server.id) ?? null) : null;
  if (!snapshot || snapshot.surfaceSha256 !== surfaceSha256) return null;
  const r = buildRegistrationRecord(snapshot, { server: server.name, image: server.imageDigest });
  return recordSurfaceOf(r, {
    ...(snapshot.era ? { era: snapshot.era } : {}),
    // The reviewer's hosts, so the gate relays URL-mode elicitation to them alone (docs/gate.md).
    ...(server.elicitationUrlHosts.length > 0
      ? { elicitationUrlDomains: [...server.elicitationUrlHosts] }
      : {}),
  });
}

/** `recordSurfaceIn` of a stored review, opened for this call. */
export async function recordSurface(
  db: Db,
  reviewId: string,
  server: RelayServer,
  surfaceSha256: string | null,
): Promise<RecordSurface | null> {
  return recordSurfaceIn(await openReview(db, reviewId), server, surfaceSha256);
}

const STATUS_WORD = {
  holds: "holds",
  fails: "fails",
  absent: "absent",
  cannot_evaluate: "cannot be evaluated",
} as const;

/** What the Markdown report shows of the analysis, for the decision's agent and server. */
export function reportAnalysisSummary(
  analysis: Analysis,
  review: Review,
  decision: Decision,
): ReportAnalysisSummary {
  const agentName = review.agents.find((a) => a.id === decision.agentId)?.name ?? decision.agentId;
  const serverName = (id: string) => review.servers.find((s) => s.id === id)?.name ?? id;
  const paths = analysis.paths.listed
    .filter((p) => p.agentId === decision.agentId)
    .map((p) => ({
      from: p.head.label,
      via: [splitToolKey(p.returningTool).tool, agentName],
      to: splitToolKey(p.sink).tool,
      bound: p.head.boundLabel,
    }));
  const c = analysis.controls;
  const evaluations = [...controlEvaluations(c), ...c.absent].filter(
    (e) =>
      e.scope.kind === "review" ||
      (e.scope.kind === "server" && e.scope.serverId === decision.serverId) ||
      (e.scope.kind === "agent" && e.scope.agentId === decision.agentId),
  );
  const controls = evaluations.map((e) => {
    const scope =
      e.scope.kind === "server"
        ? serverName(e.scope.serverId)
        : e.scope.kind === "agent"
          ? agentName
          : "every agent session";
    return {
      name: `${controlEntry(e.controlId).name} (${scope}): ${STATUS_WORD[e.status]}. ${e.summary}`,
      stops: e.stops,
      residue: e.residue,
      cuts: e.cutsPath,
    };
  });
  const truncated = analysis.paths.truncated
    ? ` (listing truncated: ${analysis.paths.total} paths in all)`
    : "";
  return { paths, controls, residueStatement: `${c.residue.text}${truncated}` };
}

/**
 * Decide: the decision is built from the review at `baseRevision`, bound to what is true now, and
 * saved as a new revision on top of it (409 with the current record when someone saved in between;
 * 409 `surface_blocked` with the changed items when approving a server whose pin is blocked).
 */
export async function decide(
  db: Db,
  reviewId: string,
  input: z.output<typeof DecideRequestSchema>,
  now: Date = new Date(),
  principal: Principal = currentPrincipal(),
): Promise<DecideResponse> {
  const record = await getReview(db, reviewId);
  if (!record) throw reviewNotFound(reviewId);
  const conflict = (current: ReviewRecord) =>
    new AppError(
      "CONFLICT",
      `this review was saved as revision ${current.revision} since revision ${input.baseRevision}; look at it again before deciding`,
      {
        details: { current },
      },
    );
  if (record.revision !== input.baseRevision) throw conflict(record);
  const ctx = await openReview(db, reviewId, { record });
  assertDecidable(ctx, input.serverId, input.verdict);
  const findings = await ctx.findings();
  const decisionInput = {
    serverId: input.serverId,
    agentId: input.agentId,
    verdict: input.verdict,
    conditions: input.conditions,
    // A person is named by the identity provider, never by what was typed; the owner token keeps
    // the typed name (or says it was the owner token).
    reviewer: principal.kind === "person" ? principal.name : (input.reviewer ?? "owner token"),
    rationale: input.rationale,
    now,
    revision: record.revision,
    surfaceSha256: ctx.surfaces.get(input.serverId) ?? null,
    grantedScopes: ctx.grants.get(input.serverId) ?? null,
  };
  // A malformed decision (unknown server or agent, conditions on the wrong verdict) is named as
  // such (400) before what it accepts is weighed (422).
  buildDecision(record.review, decisionInput);
  const acceptedRisks = resolveAcceptances({
    verdict: input.verdict,
    conditions: input.conditions,
    acceptances: input.acceptances,
    findings: findings.of(input.serverId, input.agentId),
    now,
  });
  const built = buildDecision(record.review, {
    ...decisionInput,
    acceptedRisks,
    supersedes: decisionInForceFor(record.review.decisions, input.serverId, input.agentId),
  });
  // Four eyes: an approval accepting critical or high risk waits for other approvers; so does any
  // approval by someone who may only propose (a reviewer).
  const fourEyes = approvalsNeeded(built, fourEyesSettings());
  const onlyProposes =
    built.verdict !== "rejected" && !hasRole(principalRole(principal), "approver") ? 1 : 0;
  const decision = {
    ...built,
    ...(principal.kind === "person"
      ? {
          author: {
            issuer: principal.issuer,
            subject: principal.subject,
            name: principal.name,
            at: built.decidedAt,
          },
        }
      : {}),
    requiredApprovals: Math.max(fourEyes, onlyProposes),
    approvals: [],
  };
  const next = { ...record.review, decisions: [...record.review.decisions, decision] };
  const saved = await saveReview(
    db,
    reviewId,
    input.baseRevision,
    next,
    principalAuthor(principal),
  );
  if (!saved) throw reviewNotFound(reviewId);
  if (!saved.ok) throw conflict(saved.conflict);
  return {
    revision: saved.record.revision,
    decision: decisionView(decision, saved.record.review, ctx.surfaces, {
      grants: ctx.grants,
      findings,
      supersededBy: supersededBy(saved.record.review.decisions),
      now,
    }),
  };
}

/**
 * Approve a pending proposal (four eyes): the approver is a person, holds the approver role (the
 * proxy checked), is not the author and has not approved it already; the proposal is still the
 * newest for its pair and not stale. With enough approvals it comes into force and supersedes the
 * decision in force for its pair then.
 */
export async function approveDecision(
  db: Db,
  reviewId: string,
  decisionId: string,
  now: Date = new Date(),
  principal: Principal = currentPrincipal(),
): Promise<DecideResponse> {
  if (principal.kind !== "person")
    throw new AppError(
      "FORBIDDEN",
      "a proposal is approved by a named person signed in with the identity provider, not the owner token",
    );
  if (!hasRole(principal.role, "approver"))
    throw new AppError("FORBIDDEN", "approving a proposal needs the approver role");
  const record = await getReview(db, reviewId);
  if (!record) throw reviewNotFound(reviewId);
  const index = record.review.decisions.findIndex((d) => d.id === decisionId);
  const decision = record.review.decisions[index];
  if (!decision) throw new AppError("NOT_FOUND", `no decision ${decisionId} in this review`);
  if (!isPending(decision))
    throw new AppError("CONFLICT", "this decision is not a pending proposal");
  const same = (p: { issuer: string; subject: string }) =>
    p.issuer === principal.issuer && p.subject === principal.subject;
  if (decision.author && same(decision.author))
    throw new AppError(
      "FORBIDDEN",
      "you proposed this decision; an approver other than its author must approve it",
    );
  if ((decision.approvals ?? []).some(same))
    throw new AppError("CONFLICT", "you have approved this proposal already");
  if (supersededBy(record.review.decisions).has(decision.id))
    throw new AppError(
      "CONFLICT",
      "a newer decision for this server and agent replaced this proposal",
    );
  const surfaces = await currentSurfaces(db, reviewId, record.review);
  const grants = await currentGrants(db, reviewId, record.review);
  const findings = await findingsNow(db, reviewId, record.review);
  const before = decisionView(decision, record.review, surfaces, { grants, findings, now });
  if (before.status.state === "stale")
    throw new AppError(
      "CONFLICT",
      "what this proposal is bound to has changed since it was made; propose again",
      { details: { changes: before.status.changes } },
    );
  const approvals = [
    ...(decision.approvals ?? []),
    {
      issuer: principal.issuer,
      subject: principal.subject,
      name: principal.name,
      at: now.toISOString(),
    },
  ];
  const others = record.review.decisions.filter((d) => d.id !== decision.id);
  const approved = {
    ...decision,
    approvals,
    // Coming into force now: it replaces whatever is in force for its pair at this moment.
    ...(approvals.length >= (decision.requiredApprovals ?? 0)
      ? {
          supersedes: decisionInForceFor(others, decision.serverId, decision.agentId) as
            Decision["id"] | null,
        }
      : {}),
  };
  const decisions = record.review.decisions.map((d, i) => (i === index ? approved : d));
  const saved = await saveReview(
    db,
    reviewId,
    record.revision,
    { ...record.review, decisions },
    principalAuthor(principal),
  );
  if (!saved) throw reviewNotFound(reviewId);
  if (!saved.ok)
    throw new AppError("CONFLICT", "this review was saved in between; try again", {
      details: { current: saved.conflict },
    });
  return {
    revision: saved.record.revision,
    decision: decisionView(approved, saved.record.review, surfaces, {
      grants,
      findings,
      supersededBy: supersededBy(saved.record.review.decisions),
      now,
    }),
  };
}

/** The decision as a Markdown report: its status now and the analysis of the current review. */
export async function reportIn(ctx: ReviewContext, decisionId: string): Promise<string> {
  const { record, decision, currentSurfaceSha256, currentGrantedScopes } = storedDecision(
    ctx,
    decisionId,
  );
  const findings = await ctx.findings();
  return renderDecisionMarkdown({
    review: record.review,
    decision,
    supersededBy: supersededBy(record.review.decisions).get(decision.id) ?? null,
    status: decisionStatus(decision, {
      review: record.review,
      currentSurfaceSha256,
      currentGrantedScopes,
      openFindings: findings.of(decision.serverId, decision.agentId),
    }),
    conditionChecks: checkConditions(decision, record.review, {
      evaluateEgressDefaultDeny: egressDefaultDeny,
    }),
    analysisSummary: reportAnalysisSummary(findings.analysis, record.review, decision),
  });
}

/** `reportIn` of a stored review, opened for this call. */
export async function decisionReport(
  db: Db,
  reviewId: string,
  decisionId: string,
): Promise<string> {
  return reportIn(await openReview(db, reviewId), decisionId);
}

/** An enforceable export of a decision; CONFLICT when the decision is stale or the review lacks what the export needs. */
export async function exportIn(
  ctx: ReviewContext,
  decisionId: string,
  kind: ExportKind,
  options: ExportOptions = {},
): Promise<ExportFile> {
  const { record, decision, currentSurfaceSha256, currentGrantedScopes } = storedDecision(
    ctx,
    decisionId,
  );
  const findings = await ctx.findings();
  const status = decisionStatus(decision, {
    review: record.review,
    currentSurfaceSha256,
    currentGrantedScopes,
    currentRevision: record.revision,
    openFindings: findings.of(decision.serverId, decision.agentId),
  });
  if (status.state === "stale") {
    throw new AppError(
      "CONFLICT",
      `the decision is stale (${status.changes.map((c) => c.message).join("; ")}); decide again before exporting it`,
      {
        details: { reason: "stale", changes: status.changes },
      },
    );
  }
  const result = buildExport(kind, record.review, decision, options);
  if (!result.ok)
    throw new AppError("CONFLICT", result.reason, { details: { reason: "cannot_export", kind } });
  return result.file;
}

/** `exportIn` of a stored review, opened for this call. */
export async function decisionExport(
  db: Db,
  reviewId: string,
  decisionId: string,
  kind: ExportKind,
  options: ExportOptions = {},
): Promise<ExportFile> {
  return exportIn(await openReview(db, reviewId), decisionId, kind, options);
}

/**
 * The decision's signed record, as issued now (and kept in the store as issued): CONFLICT naming
 * what changed when the decision is stale, since a signed record would vouch for a pair that no
 * longer exists. The route hands it out with the workbench's key; scripts/conformance-agent.ts
 * with a temporary data folder's.
 */
export async function issueRecordIn(
  ctx: ReviewContext,
  decisionId: string,
  key: { privateKey: KeyObject; keyId: string },
): Promise<DecisionRecord> {
  const { record, decision, currentSurfaceSha256, currentGrantedScopes } = storedDecision(
    ctx,
    decisionId,
  );
  const server = record.review.servers.find((s) => s.id === decision.serverId);
  const unsigned = buildDecisionRecord({
    review: record.review,
    reviewId: ctx.reviewId,
    revision: record.revision,
    decision,
    issuedAt: new Date(),
    currentSurfaceSha256,
    currentGrantedScopes,
    surface: server ? recordSurfaceIn(ctx, server, decision.bound.surfaceSha256) : null,
    evaluateEgressDefaultDeny: egressDefaultDeny,
    openFindings: (await ctx.findings()).of(decision.serverId, decision.agentId),
    supersededBy: supersededBy(record.review.decisions).get(decision.id) ?? null,
  });
  const signed = signRecord(unsigned, key.privateKey, key.keyId);
  await saveDecisionRecord(ctx.db, { reviewId: ctx.reviewId, decisionId, record: signed });
  return signed;
}

/** `issueRecordIn` of a stored review, opened for this call. */
export async function issueDecisionRecord(
  db: Db,
  reviewId: string,
  decisionId: string,
  key: { privateKey: KeyObject; keyId: string },
): Promise<DecisionRecord> {
  return issueRecordIn(await openReview(db, reviewId), decisionId, key);
}
