/**
 * What a decision is bound to. A decision is never a bare approve/reject of a server: it names an
 * agent and that agent's whole tool set (the union property: text returned by any tool in the
 * session reaches every other tool in it), and fingerprints the surface, image digest, tool set
 * and controls it was made against, so that a change to either half of the pair makes it stale
 * (see staleness.ts). Pure: hashing only, no I/O. The exact hashed forms are in
 * docs/decision-record.md so anyone can recompute them.
 */
import { type z } from "zod";
import { AppError, badRequestFromZod, type FieldIssue } from "@/lib/errors";
import { newId, type AgentId, type ServerId, type Sha256 } from "@/lib/ids";
import {
  type DecisionConditionSchema,
  DecisionSchema,
  type AcceptedRisk,
  type Decision,
  type RelayServer,
  type Review,
  type ToolRef,
} from "@/lib/review/schema";
import { CONTROLS, type ControlRegistry } from "@/lib/controls/registry";
import { grantedScopesBinding } from "@/lib/controls/granted-scopes";
import { canonicalJson, canonicalSha256 } from "@/lib/hash";
import { compareText, normalizeToolSet } from "@/lib/model/tool-set";
import { describeItemChanges, surfaceItemChanges } from "@/lib/surface/diff";
import type { PinComparison } from "@/lib/surface/registration";

/** What a decision with no live inspection behind it must say about itself. */
export const DECLARED_TOOLS_BASIS = "made against declared tools, not a live surface";

export { normalizeToolSet };

/** SHA-256 of the RFC 8785 canonical JSON of the sorted, de-duplicated `{serverId, tool}` refs. */
export function toolSetSha256(refs: readonly ToolRef[]): Sha256 {
  return canonicalSha256(normalizeToolSet(refs));
}

const sortedByCanonical = <T>(items: T[]) =>
  items
    .map((item) => [canonicalJson(item), item] as const)
    .sort(([a], [b]) => compareText(a, b))
    .map(([, item]) => item);

/**
 * The controls configuration a decision about (server, agent) rests on: what each control of the
 * registry binds (its definition's `binding`: the server's credential and egress policy, the
 * agent's approval configuration), under the control's key. Each control makes its set-valued
 * fields sorted, so that a reorder is not a change; its configurations are sorted here by their
 * canonical JSON. Statements of intent are excluded on purpose: prose is not a control, so
 * rewording a sentence in a document cannot make a decision stale, nor can adding one keep it
 * current.
 */
export function controlsBindingInput(
  review: Review,
  serverId: ServerId,
  agentId: AgentId,
  registry: ControlRegistry = CONTROLS,
): { serverId: ServerId; agentId: AgentId } & Record<string, unknown> {
  const input: { serverId: ServerId; agentId: AgentId } & Record<string, unknown> = {
    serverId,
    agentId,
  };
  for (const { binding } of registry)
    if (binding) input[binding.key] = sortedByCanonical(binding.select(review, serverId, agentId));
  // The hosts the gate relays URL-mode elicitation to widen what the signed record admits, so a
  // change to them makes the decision stale. Present only when some are listed: a decision made
  // before the field existed keeps its fingerprint.
  const server = review.servers.find((s) => s.id === serverId);
  const hosts = server?.elicitationUrlHosts ?? [];
  if (hosts.length > 0) input.elicitationUrlHosts = [...hosts].sort(compareText);
  // Declaring MCP Apps says the agent's host is another kind of client, one the server may show
  // more tools to: a decision made for a host without apps is stale once it is turned on (and
  // back). Present only when on, so a decision made before the field keeps its fingerprint.
  if (server?.hostRendersApps) input.hostRendersApps = true;
  return input;
}

/** SHA-256 of the canonical JSON of `controlsBindingInput(review, serverId, agentId)`. */
export function controlsSha256(review: Review, serverId: ServerId, agentId: AgentId): Sha256 {
  return canonicalSha256(controlsBindingInput(review, serverId, agentId));
}

export type DecisionBasis =
  | { kind: "live_surface"; surfaceSha256: Sha256; label: string }
  | { kind: "declared_tools"; surfaceSha256: null; label: typeof DECLARED_TOOLS_BASIS };

/** Whether the decision was made against a live, fingerprinted surface or only declared tools. */
export function decisionBasis(decision: Pick<Decision, "bound">): DecisionBasis {
  const sha = decision.bound.surfaceSha256;
  return sha === null
    ? { kind: "declared_tools", surfaceSha256: null, label: DECLARED_TOOLS_BASIS }
    : { kind: "live_surface", surfaceSha256: sha, label: `made against the live surface ${sha}` };
}

export type BuildDecisionInput = {
  /** Defaults to a fresh `dec-…` id. */
  id?: string;
  serverId: string;
  agentId: string;
  verdict: Decision["verdict"];
  conditions?: readonly z.input<typeof DecisionConditionSchema>[];
  reviewer: string;
  rationale: string;
  now: Date | string;
  /** The review revision the reviewer was looking at. */
  revision: number;
  /** Fingerprint of the server's latest live inspection; null when never inspected. */
  surfaceSha256: string | null;
  /** The scopes that inspection's OAuth grant held; null or omitted when it had none (nothing bound). */
  grantedScopes?: readonly string[] | null;
  /** For an approval: the open findings it accepts (lib/decisions/acceptance.ts `resolveAcceptances`). */
  acceptedRisks?: readonly AcceptedRisk[];
  /** The decision in force for the same server and agent, which this one replaces; null: none. */
  supersedes?: string | null;
};

/**
 * A decision about `serverId` into `agentId`, bound to the agent's current tool set and the
 * current controls, image digest and surface. Throws AppError BAD_REQUEST (with field issues)
 * when a reference does not resolve or the decision is not well-formed: conditions belong only to
 * `approved_with_conditions` (which needs at least one), and an approval needs the agent to hold
 * at least one of the server's tools.
 */
export function buildDecision(review: Review, input: BuildDecisionInput): Decision {
  const issues: FieldIssue[] = [];
  const server = review.servers.find((s) => s.id === input.serverId);
  const agent = review.agents.find((a) => a.id === input.agentId);
  if (!server)
    issues.push({ path: "serverId", message: `unknown server ${JSON.stringify(input.serverId)}` });
  if (!agent)
    issues.push({ path: "agentId", message: `unknown agent ${JSON.stringify(input.agentId)}` });

  const conditions = input.conditions ?? [];
  if (input.verdict === "approved_with_conditions" && conditions.length === 0) {
    issues.push({
      path: "conditions",
      message: "an approval with conditions needs at least one condition",
    });
  }
  if (input.verdict !== "approved_with_conditions" && conditions.length > 0) {
    issues.push({
      path: "conditions",
      message: `conditions belong to "approved_with_conditions", not ${JSON.stringify(input.verdict)}`,
    });
  }
  const serverIds = new Set<string>(review.servers.map((s) => s.id));
  const agentIds = new Set<string>(review.agents.map((a) => a.id));
  conditions.forEach((c, i) => {
    // A condition names a tool (its server), an agent or a server: what it is about must exist.
    const isAgent = "agentId" in c;
    const ref =
      c.kind === "tool_absent_from_agent" ? c.tool.serverId : isAgent ? c.agentId : c.serverId;
    const known = isAgent ? agentIds : serverIds;
    if (!known.has(ref)) {
      issues.push({
        path: `conditions.${i}`,
        message: `unknown ${isAgent ? "agent" : "server"} ${JSON.stringify(ref)}`,
      });
    }
  });
  const decidedAt = typeof input.now === "string" ? new Date(input.now) : input.now;
  if (Number.isNaN(decidedAt.getTime()))
    issues.push({ path: "now", message: "must be a valid time" });
  if (
    server &&
    agent &&
    input.verdict !== "rejected" &&
    !agent.tools.some((t) => t.serverId === server.id)
  ) {
    issues.push({
      path: "agentId",
      message: `${agent.name} holds no tool of ${server.name}: there is nothing to approve into it`,
    });
  }
  if (issues.length > 0 || !server || !agent) {
    throw new AppError(
      "BAD_REQUEST",
      `invalid decision: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      { issues },
    );
  }

  const toolSet = normalizeToolSet(agent.tools);
  const parsed = DecisionSchema.safeParse({
    id: input.id ?? newId("dec"),
    serverId: server.id,
    agentId: agent.id,
    verdict: input.verdict,
    toolSet,
    conditions,
    reviewer: input.reviewer,
    rationale: input.rationale,
    decidedAt: decidedAt.toISOString(),
    bound: {
      surfaceSha256: input.surfaceSha256,
      imageDigest: server.imageDigest,
      toolSetSha256: toolSetSha256(toolSet),
      controlsSha256: controlsSha256(review, server.id, agent.id),
      revision: input.revision,
      ...(input.grantedScopes ? { grantedScopes: grantedScopesBinding(input.grantedScopes) } : {}),
    },
    ...(input.verdict !== "rejected" ? { acceptedRisks: [...(input.acceptedRisks ?? [])] } : {}),
    supersedes: input.supersedes ?? null,
    pin: server.pin
      ? {
          surfaceSha256: server.pin.surfaceSha256,
          pinnedAt: server.pin.pinnedAt,
          pinnedBy: server.pin.pinnedBy,
          reason: server.pin.reason,
          onSurfaceChange: server.pin.onSurfaceChange,
        }
      : null,
  });
  if (!parsed.success) throw badRequestFromZod(parsed.error, "decision");
  return parsed.data;
}

/**
 * The refusal of an approval while the server is blocked: its live surface differs from its pin
 * under "block" (or was inspected with other client capabilities). CONFLICT with
 * `details.reason: "surface_blocked"` and the items that changed, when the pinned snapshot is
 * stored. A rejection is never refused: it cannot let a changed surface through.
 */
export function blockedDecisionError(
  server: RelayServer,
  comparison: PinComparison,
): AppError | null {
  if (!server.pin || !comparison.blocked) return null;
  const pin = server.pin;
  const pinned = `pinned to ${pin.surfaceSha256.slice(0, 12)}… by ${pin.pinnedBy} at ${pin.pinnedAt}`;
  const items =
    comparison.status === "mismatch" && comparison.diff
      ? surfaceItemChanges(comparison.diff)
      : null;
  const what =
    comparison.status === "incomparable"
      ? comparison.reason
      : items && items.length > 0
        ? `its live surface ${comparison.actual.slice(0, 12)}… differs from the pin: ${describeItemChanges(items)}`
        : `its live surface ${comparison.actual.slice(0, 12)}… differs from the pin (the pinned snapshot is not stored here, so only the fingerprints can be compared)`;
  return new AppError(
    "CONFLICT",
    `${server.name} is blocked (${pinned}, on_surface_change "block"): ${what}. Review the change and re-pin the server with a reason before approving it`,
    {
      details: {
        reason: "surface_blocked",
        serverId: server.id,
        pinnedSurfaceSha256: pin.surfaceSha256,
        liveSurfaceSha256: comparison.status === "mismatch" ? comparison.actual : null,
        items: items ?? [],
      },
    },
  );
}
