/**
 * Is a decision still about the deployment in front of us? A decision is current only while
 * everything it was bound to is unchanged: the server's live surface, its image digest, the
 * agent's tool set and the controls for the pair. Anything else in the review may change freely.
 * Conditions are checked against the current review, each from configuration, never from prose.
 * Pure: expected outcomes ("cannot be checked") are values with a reason.
 */
import type { Sha256 } from "@/lib/ids";
import type { Decision, DecisionCondition, Review, ToolRef } from "@/lib/review/schema";
import {
  DECLARED_TOOLS_BASIS,
  controlsSha256,
  normalizeToolSet,
  toolSetSha256,
} from "@/lib/decisions/binding";
import { grantWidening } from "@/lib/controls/granted-scopes";
import { describeItemChanges, type SurfaceItemChange } from "@/lib/surface/diff";
import { uncoveredFindings, type DecisionFinding } from "@/lib/decisions/findings";

export type StaleChange =
  | {
      what: "surface";
      before: string | null;
      after: string | null;
      items?: SurfaceItemChange[];
      message: string;
    }
  | { what: "pin"; before: string; after: string; message: string }
  | { what: "image_digest"; before: string | null; after: string | null; message: string }
  | {
      what: "tool_set";
      before: ToolRef[];
      after: ToolRef[];
      added: ToolRef[];
      removed: ToolRef[];
      message: string;
    }
  | { what: "controls"; before: Sha256; after: Sha256; message: string }
  | {
      what: "granted_scopes";
      before: string[] | null;
      after: string[];
      addedScopes: string[];
      message: string;
    }
  | { what: "agent_removed"; before: string; after: null; message: string }
  | { what: "server_removed"; before: string; after: null; message: string }
  | {
      /** A critical or high finding is open that the approval neither removes by a condition nor accepts. */
      what: "finding_unaccepted";
      before: null;
      after: string;
      finding: StaleFinding;
      message: string;
    }
  | {
      /** An acceptance the approval rests on has passed its end date. */
      what: "acceptance_expired";
      /** The acceptance's end date. */
      before: string;
      after: null;
      finding: StaleFinding;
      message: string;
    };

/** A finding as a stale reason names it. */
export type StaleFinding = Pick<DecisionFinding, "id" | "kind" | "severity" | "text" | "ends">;

export type DecisionStatus = { state: "current" } | { state: "stale"; changes: StaleChange[] };

export type DecisionStatusContext = {
  review: Review;
  /** Fingerprint of the server's latest live inspection (made with the pin's declared capabilities); null when never inspected. */
  currentSurfaceSha256: string | null;
  /**
   * The review's current revision. Informational only: edits elsewhere in the review (a new
   * source, a note) do not make a decision stale; only the bound fingerprints do.
   */
  currentRevision?: number;
  /**
   * The items that differ between two surfaces, keyed by `surfaceChangeKey(before, after)`, from
   * the stored snapshots; without an entry a surface change names only the two fingerprints.
   */
  surfaceChanges?: ReadonlyMap<string, readonly SurfaceItemChange[]>;
  /**
   * The scopes the server's current inspection was granted (its OAuth token response); null when
   * it was not reached through OAuth. Omitted: the grant is not checked (a caller that does not
   * read inspections).
   */
  currentGrantedScopes?: readonly string[] | null;
  /**
   * The open findings of the decision's agent and server now (lib/decisions/findings.ts
   * `decisionFindings`). Omitted: findings are not checked (a caller without the analysis).
   */
  openFindings?: readonly DecisionFinding[];
  /** The time acceptances are checked against; omitted: the clock. */
  now?: Date;
};

/** The key of `DecisionStatusContext.surfaceChanges` for a change from `before` to `after`. */
export const surfaceChangeKey = (before: string, after: string) => `${before}>${after}`;

const short = (sha: string) => sha.slice(0, 12);
/** A server, agent or tool as a sentence names it: by its name; the id only once the review no longer has it. */
const serverText = (review: Review, id: string) =>
  review.servers.find((s) => s.id === id)?.name ?? id;
const agentText = (review: Review, id: string) =>
  review.agents.find((a) => a.id === id)?.name ?? id;
const refText = (review: Review) => (r: ToolRef) =>
  `${r.tool} on ${serverText(review, r.serverId)}`;

function toolSetDiff(before: readonly ToolRef[], after: readonly ToolRef[]) {
  const key = (r: ToolRef) => JSON.stringify([r.serverId, r.tool]);
  const beforeKeys = new Set(before.map(key));
  const afterKeys = new Set(after.map(key));
  return {
    added: normalizeToolSet(after.filter((r) => !beforeKeys.has(key(r)))),
    removed: normalizeToolSet(before.filter((r) => !afterKeys.has(key(r)))),
  };
}

function surfaceChange(
  before: string | null,
  after: string | null,
  known: DecisionStatusContext["surfaceChanges"],
): StaleChange | null {
  if (before === after) return null;
  const items =
    before !== null && after !== null ? known?.get(surfaceChangeKey(before, after)) : undefined;
  const message =
    before === null
      ? `the decision was ${DECLARED_TOOLS_BASIS}; the server has since been inspected (surface ${short(after ?? "")}…), so review the live surface`
      : after === null
        ? `the decision was bound to surface ${short(before)}…, and no live inspection of the server is on record now`
        : `the server's surface changed: ${items && items.length > 0 ? `${describeItemChanges(items)} (` : ""}${short(before)}… → ${short(after)}…${items && items.length > 0 ? ")" : ""}`;
  return { what: "surface", before, after, ...(items ? { items: [...items] } : {}), message };
}

/** `current`, or `stale` with every change to what the decision is bound to, each saying what changed. */
export function decisionStatus(decision: Decision, context: DecisionStatusContext): DecisionStatus {
  const { review } = context;
  const changes: StaleChange[] = [];
  const server = review.servers.find((s) => s.id === decision.serverId);
  const agent = review.agents.find((a) => a.id === decision.agentId);

  if (!server) {
    changes.push({
      what: "server_removed",
      before: decision.serverId,
      after: null,
      message: `server ${decision.serverId} is no longer in the review`,
    });
  } else {
    const surface = surfaceChange(
      decision.bound.surfaceSha256,
      context.currentSurfaceSha256,
      context.surfaceChanges,
    );
    if (surface) changes.push(surface);
    // Under "block" a decision holds only for the pinned surface: one bound to any other (made
    // before the pin held, or around it) waits for a re-pin with a reason and a new decision.
    const pin = server.pin;
    const bound = decision.bound.surfaceSha256;
    if (pin?.onSurfaceChange === "block" && bound !== null && bound !== pin.surfaceSha256) {
      changes.push({
        what: "pin",
        before: bound,
        after: pin.surfaceSha256,
        message: `${server.name} is pinned to surface ${short(pin.surfaceSha256)}… under "block", not the ${short(bound)}… this decision was made against`,
      });
    }
    if (server.imageDigest !== decision.bound.imageDigest) {
      changes.push({
        what: "image_digest",
        before: decision.bound.imageDigest,
        after: server.imageDigest,
        message:
          server.imageDigest === null
            ? `the image digest ${decision.bound.imageDigest ?? ""} was removed from the server`
            : decision.bound.imageDigest === null
              ? `the server now names image ${server.imageDigest}; the decision named none`
              : `the image changed: ${decision.bound.imageDigest} → ${server.imageDigest}`,
      });
    }
  }

  if (!agent) {
    changes.push({
      what: "agent_removed",
      before: decision.agentId,
      after: null,
      message: `agent ${decision.agentId} is no longer in the review`,
    });
  } else {
    const current = normalizeToolSet(agent.tools);
    if (toolSetSha256(current) !== decision.bound.toolSetSha256) {
      const { added, removed } = toolSetDiff(decision.toolSet, current);
      const parts = [
        added.length > 0 ? `added ${added.map(refText(review)).join(", ")}` : null,
        removed.length > 0 ? `removed ${removed.map(refText(review)).join(", ")}` : null,
      ].filter((p): p is string => p !== null);
      changes.push({
        what: "tool_set",
        before: normalizeToolSet(decision.toolSet),
        after: current,
        added,
        removed,
        message: `${agent.name}'s tool set changed: ${parts.length > 0 ? parts.join("; ") : "it no longer matches the bound fingerprint"}`,
      });
    }
  }

  if (server && agent) {
    const now = controlsSha256(review, server.id, agent.id);
    if (now !== decision.bound.controlsSha256) {
      changes.push({
        what: "controls",
        before: decision.bound.controlsSha256,
        after: now,
        message: `the controls changed: ${server.name}'s credential or egress policy, URL-elicitation hosts or MCP Apps declaration, or ${agent.name}'s approval configuration`,
      });
    }
  }
  if (server && context.currentGrantedScopes !== undefined) {
    const bound = decision.bound.grantedScopes ?? null;
    const widened = grantWidening(bound, context.currentGrantedScopes);
    if (widened)
      changes.push({
        what: "granted_scopes",
        before: bound === null ? null : [...bound],
        after: [...(context.currentGrantedScopes ?? [])].sort(),
        addedScopes: widened.added,
        message: `${server.name}: ${widened.message}`,
      });
  }
  if (decision.verdict !== "rejected") changes.push(...riskChanges(decision, context));
  return changes.length === 0 ? { state: "current" } : { state: "stale", changes };
}

const staleFinding = (f: StaleFinding): StaleFinding => ({
  id: f.id,
  kind: f.kind,
  severity: f.severity,
  text: f.text,
  ends: f.ends,
});

/**
 * An approval's accepted risk: each acceptance past its end date, and each critical or high
 * finding open now that nothing covers (a finding that appeared since, or, on an approval made
 * before approvals said what they accept, one that was never accepted).
 */
function riskChanges(decision: Decision, context: DecisionStatusContext): StaleChange[] {
  const out: StaleChange[] = [];
  const accepted = decision.acceptedRisks ?? [];
  const now = context.now ?? new Date();
  for (const a of accepted) {
    if (Date.parse(a.until) > now.getTime()) continue;
    out.push({
      what: "acceptance_expired",
      before: a.until,
      after: null,
      finding: staleFinding({ ...a, id: a.findingId }),
      message: `the acceptance of "${a.text}" (${a.severity}, ${a.findingId}) by ${a.owner} ended on ${a.until.slice(0, 10)}`,
    });
  }
  if (context.openFindings) {
    for (const f of uncoveredFindings(context.openFindings, decision.conditions, accepted))
      out.push({
        what: "finding_unaccepted",
        before: null,
        after: f.id,
        finding: staleFinding(f),
        message: `a ${f.severity} finding is open that this approval neither removes nor accepts: ${f.text} (${f.id})`,
      });
  }
  return out;
}

/** Evaluates a NetworkPolicy (YAML text): true when it denies by default, false when it admits a new destination, null when it cannot tell. */
export type EgressDefaultDenyEvaluator = (policyYaml: string) => boolean | null;

export type ConditionCheck = {
  condition: DecisionCondition;
  /** null: cannot be checked from what is recorded (say why in `reason`); never counted as holding. */
  holds: boolean | null;
  reason: string;
};

export type CheckConditionsOptions = {
  /** Injected so this module does not depend on lib/controls; without it egress conditions cannot be checked. */
  evaluateEgressDefaultDeny?: EgressDefaultDenyEvaluator;
};

const READ_SCOPE = /^read:\S+/;

function checkOne(
  condition: DecisionCondition,
  decision: Decision,
  review: Review,
  options: CheckConditionsOptions,
): ConditionCheck {
  const result = (holds: boolean | null, reason: string): ConditionCheck => ({
    condition,
    holds,
    reason,
  });
  switch (condition.kind) {
    case "tool_absent_from_agent": {
      const agent = review.agents.find((a) => a.id === decision.agentId);
      const name = refText(review)(condition.tool);
      if (!agent) return result(null, `agent ${decision.agentId} is no longer in the review`);
      const present = agent.tools.some(
        (t) => t.serverId === condition.tool.serverId && t.tool === condition.tool.tool,
      );
      return present
        ? result(false, `${agent.name} holds ${name}`)
        : result(true, `${agent.name} does not hold ${name}`);
    }
    case "egress_default_deny": {
      const policies = review.controls.egress.filter((e) => e.serverId === condition.serverId);
      if (policies.length === 0)
        return result(
          false,
          `no egress policy is recorded for ${serverText(review, condition.serverId)}: nothing bounds its outbound traffic`,
        );
      if (!options.evaluateEgressDefaultDeny)
        return result(null, "egress policy evaluation was not available to this check");
      const verdicts = policies.map(
        (p) => options.evaluateEgressDefaultDeny?.(p.policyYaml) ?? null,
      );
      if (verdicts.some((v) => v === false))
        return result(
          false,
          `an egress policy for ${serverText(review, condition.serverId)} admits destinations it does not name (not default-deny)`,
        );
      if (verdicts.some((v) => v === null))
        return result(
          null,
          `an egress policy for ${serverText(review, condition.serverId)} could not be evaluated`,
        );
      return result(
        true,
        `the egress policy for ${serverText(review, condition.serverId)} is an allowlist: a new destination is denied by construction`,
      );
    }
    case "credential_read_only": {
      const creds = review.controls.credentials.filter((c) => c.serverId === condition.serverId);
      if (creds.length === 0)
        return result(
          null,
          `no credential is recorded for ${serverText(review, condition.serverId)}`,
        );
      const scopes = creds.flatMap((c) => c.scopes);
      if (scopes.length === 0)
        return result(
          null,
          `the credential for ${serverText(review, condition.serverId)} lists no scopes`,
        );
      const other = scopes.filter((s) => !READ_SCOPE.test(s));
      return other.length > 0
        ? result(false, `scopes that are not read-only: ${other.join(", ")}`)
        : result(true, `every scope is read-only (${scopes.join(", ")})`);
    }
    case "approval_out_of_band": {
      const approvals = review.controls.approvals.filter((a) => a.agentId === condition.agentId);
      if (approvals.length === 0)
        return result(
          false,
          `no approval is configured for agent ${agentText(review, condition.agentId)}`,
        );
      if (approvals.some((a) => !a.outOfBand))
        return result(
          false,
          `an approval prompt for ${agentText(review, condition.agentId)} is shown in band of the agent`,
        );
      const resolved = approvals.every((a) => a.showsResolvedArguments);
      return result(
        true,
        `approval prompts are out of band of the agent${resolved ? "" : " (note: arguments are not shown resolved to their final values)"}`,
      );
    }
    case "surface_pinned_block": {
      const server = review.servers.find((s) => s.id === condition.serverId);
      if (!server) return result(null, `server ${condition.serverId} is no longer in the review`);
      if (!server.pin) return result(false, `${server.name} has no surface pin`);
      return server.pin.onSurfaceChange === "block"
        ? result(
            true,
            `${server.name} is pinned to ${short(server.pin.surfaceSha256)}… and blocks on a change`,
          )
        : result(false, `${server.name} is pinned but only warns on a change`);
    }
  }
}

/** Each condition of the decision, evaluated against the current review. */
export function checkConditions(
  decision: Decision,
  review: Review,
  options: CheckConditionsOptions = {},
): ConditionCheck[] {
  return decision.conditions.map((c) => checkOne(c, decision, review, options));
}
