/**
 * Approval on the sensitive path, evaluated from its configuration and its measured use. It sits at
 * the sink call and holds only if the prompt is out of band of the agent, shows the arguments
 * resolved to their final values, and fires rarely; its residue, even then, is an approver who
 * trusts the model's justification. Prompts per day × median seconds to approve is the human
 * attention the control actually receives (the seed: 14 × 1.9 s ≈ 27 s a day, "a click, not a review").
 */
import { findingId, nodeIds, toolKey, type NodeId, type ToolKey } from "@/lib/model/ids";
import { why, type Finding, type Severity } from "@/lib/model/findings";
import type { AgentId } from "@/lib/ids";
import { namesInProse } from "@/lib/model/prose";
import { normalizeToolSet } from "@/lib/model/tool-set";
import type { ApprovalConfig } from "@/lib/review/schema";
import { CONTROLS_SECTION, SEED_DOCUMENT, type ControlCatalogEntry } from "./catalog";
import {
  absentRule,
  type ControlEvaluationBase,
  type ControlFindingRule,
  defineControl,
} from "./types";

export const APPROVAL_ENTRY = {
  id: "approval",
  name: "Approval on the sensitive path",
  sitsAt: "sink_call",
  acts: "sink_end",
  canCutPath: false,
  stops: "unreviewed sensitive calls, if rare and out of band",
  residue: "an approver who trusts the model's justification",
  source: {
    document: SEED_DOCUMENT,
    section: CONTROLS_SECTION,
    quote: "Approval on the sensitive path is the weakest of the four",
  },
} as const satisfies ControlCatalogEntry;

/**
 * Below this many seconds per prompt nobody has read the arguments: reading a deploy target and a
 * release identifier and comparing them with what you expected takes several seconds, while ~2 s is
 * how long it takes to recognise a familiar dialog and move the pointer (the seed's 1.9 s median).
 */
export const MIN_SECONDS_TO_REVIEW_A_PROMPT = 5;

/**
 * At most this many prompts a day per approver still counts as rare: a prompt seen once or twice a
 * day is still an event; the seed's 14 a day during a release week is a routine.
 */
export const RARE_MAX_PROMPTS_PER_DAY = 2;

/** Above this many prompts a day, approving is a routine and habituation is high. */
export const HABITUATED_PROMPTS_PER_DAY = 10;

export type Habituation = "low" | "moderate" | "high";

export type ApprovalEvaluation = ControlEvaluationBase & {
  controlId: "approval";
  scope: { kind: "agent"; agentId: AgentId };
  /** The sink calls that need approval. */
  tools: ToolKey[];
  conditions: { outOfBand: boolean; showsResolvedArguments: boolean; rare: boolean };
  promptsPerDay: number;
  medianSecondsToApprove: number;
  /** Prompts per day × median seconds, rounded to 0.1 s. */
  attentionSecondsPerDay: number;
  /** "a click, not a review" when the median is below `MIN_SECONDS_TO_REVIEW_A_PROMPT`. */
  verdict: "a click, not a review" | "time to read the arguments";
  habituation: Habituation;
};

/** Round to one decimal, exactly: 14 × 1.9 = 26.599999999999998 → 26.6. */
export const roundTenth = (x: number) => Math.round(x * 10) / 10;

/** Human attention per day spent on approvals, in seconds (rounded to 0.1 s). */
export function attentionSecondsPerDay(
  promptsPerDay: number,
  medianSecondsToApprove: number,
): number {
  return roundTenth(promptsPerDay * medianSecondsToApprove);
}

/** Habituation grows with frequency. */
export function habituation(promptsPerDay: number): Habituation {
  if (promptsPerDay <= RARE_MAX_PROMPTS_PER_DAY) return "low";
  if (promptsPerDay <= HABITUATED_PROMPTS_PER_DAY) return "moderate";
  return "high";
}

/**
 * Evaluate one approval configuration. `heldTools` are the agent's tools and `sinkTools` its
 * sensitive sinks, so the evaluation can say which sinks go unapproved and which configured tools
 * the agent does not hold.
 */
export function evaluateApproval(
  config: ApprovalConfig,
  index: number,
  heldTools: ReadonlySet<ToolKey>,
  sinkTools: readonly ToolKey[],
  attachesTo: NodeId[] = [],
  /** How a sentence names a tool (its key by default, for callers without the review's names). */
  toolName: (key: ToolKey) => string = (key) => key,
): ApprovalEvaluation {
  const entry = APPROVAL_ENTRY;
  const at = (f: string) => `controls.approvals.${index}.${f}`;
  const tools = [...new Set(config.tools.map((t) => toolKey(t.serverId, t.tool)))].sort();
  const rare = config.promptsPerDay <= RARE_MAX_PROMPTS_PER_DAY;
  const attention = attentionSecondsPerDay(config.promptsPerDay, config.medianSecondsToApprove);
  const verdict =
    config.medianSecondsToApprove < MIN_SECONDS_TO_REVIEW_A_PROMPT
      ? "a click, not a review"
      : "time to read the arguments";
  const level = habituation(config.promptsPerDay);
  const findings: Finding[] = [];
  const add = (
    kind: string,
    severity: Severity,
    title: string,
    summary: string,
    field: string,
    value: string,
    tool?: ToolKey,
  ) =>
    findings.push({
      id: findingId(`approval.${kind}`, config.agentId, ...(tool ? [tool] : [])),
      kind: `approval.${kind}`,
      severity,
      title,
      controlId: "approval",
      subject: { agentId: config.agentId, ...(tool ? { tool } : {}) },
      why: why(summary, { tools: tool ? [tool] : tools, config: [{ path: at(field), value }] }),
      nodeIds: [],
      pathIds: [],
    });

  if (!config.outOfBand)
    add(
      "in_band",
      "high",
      "Approval prompt is in band of the agent",
      "a prompt inside the agent's own channel can be answered by text in its context",
      "outOfBand",
      "false",
    );
  if (!config.showsResolvedArguments)
    add(
      "unresolved_arguments",
      "high",
      "Approval does not show resolved arguments",
      "the approver sees the model's description of the call, not its final argument values",
      "showsResolvedArguments",
      "false",
    );
  if (!rare)
    add(
      "not_rare",
      level === "high" ? "high" : "medium",
      `Approval fires ${config.promptsPerDay} times a day`,
      `more than ${RARE_MAX_PROMPTS_PER_DAY} prompts a day is not rare; habituation is ${level}`,
      "promptsPerDay",
      String(config.promptsPerDay),
    );
  if (verdict === "a click, not a review")
    add(
      "click_not_review",
      "high",
      "A click, not a review",
      `${config.promptsPerDay} prompts × ${config.medianSecondsToApprove} s median = ${attention} s of attention a day; below ${MIN_SECONDS_TO_REVIEW_A_PROMPT} s a prompt nobody reads the arguments`,
      "medianSecondsToApprove",
      String(config.medianSecondsToApprove),
    );
  for (const t of tools)
    if (!heldTools.has(t))
      add(
        "tool_not_held",
        "low",
        `Approval names ${toolName(t)}, which the agent does not hold`,
        "the approval covers a tool outside the agent's tool set",
        "tools",
        t,
        t,
      );
  for (const s of sinkTools)
    if (!tools.includes(s))
      add(
        "sink_unapproved",
        "medium",
        `Sensitive sink ${toolName(s)} needs no approval`,
        "the agent holds this sink and the approval configuration does not cover it",
        "tools",
        s,
        s,
      );

  const holds = config.outOfBand && config.showsResolvedArguments && rare;
  return {
    controlId: "approval",
    scope: { kind: "agent", agentId: config.agentId },
    status: holds ? "holds" : "fails",
    sitsAt: entry.sitsAt,
    cutsPath: false,
    stops: entry.stops,
    residue: entry.residue,
    summary: `${config.promptsPerDay} prompts a day × ${config.medianSecondsToApprove} s median = ${attention} s of attention a day: ${verdict}; habituation ${level}${holds ? "" : `; holds only if out of band, showing resolved arguments and rare (${[!config.outOfBand && "in band", !config.showsResolvedArguments && "arguments not resolved", !rare && "not rare"].filter(Boolean).join(", ")})`}`,
    findings,
    attachesTo,
    tools,
    conditions: {
      outOfBand: config.outOfBand,
      showsResolvedArguments: config.showsResolvedArguments,
      rare,
    },
    promptsPerDay: config.promptsPerDay,
    medianSecondsToApprove: config.medianSecondsToApprove,
    attentionSecondsPerDay: attention,
    verdict,
    habituation: level,
  };
}

/** Its finding kinds, as the SARIF export describes them. */
const APPROVAL_FINDING_RULES: readonly ControlFindingRule[] = [
  absentRule("Approval", "approval on the sensitive path"),
  {
    kind: "in_band",
    name: "ApprovalInBand",
    severity: "high",
    short: "The approval prompt is in band of the agent",
    help: "A prompt inside the agent's own channel can be answered by text in its context. Move it out of band.",
  },
  {
    kind: "unresolved_arguments",
    name: "ApprovalUnresolvedArguments",
    severity: "high",
    short: "The approval does not show resolved arguments",
    help: "The approver sees the model's description of the call, not its final argument values. Show the resolved arguments.",
  },
  {
    kind: "not_rare",
    name: "ApprovalNotRare",
    severity: "medium",
    short: "The approval fires too often to stay a review",
    help: "Habituation grows with frequency: a frequent prompt is approved without reading. Narrow what needs approval.",
  },
  {
    kind: "click_not_review",
    name: "ApprovalClickNotReview",
    severity: "high",
    short: "The approval is a click, not a review",
    help: "Prompts per day × median seconds to approve is the human attention spent a day; below the minimum per prompt, nobody reads the arguments.",
  },
  {
    kind: "tool_not_held",
    name: "ApprovalToolNotHeld",
    severity: "low",
    short: "The approval names a tool the agent does not hold",
    help: "The approval configuration covers a tool outside the agent's tool set. Correct it.",
  },
  {
    kind: "sink_unapproved",
    name: "ApprovalSinkUnapproved",
    severity: "medium",
    short: "A sensitive sink the agent holds needs no approval",
    help: "The agent holds this sink and the approval configuration does not cover it.",
  },
];

/**
 * The approval control in the registry: one evaluation per approval configuration, "absent" on
 * an agent holding sensitive sinks with none, present in the residue when every agent's sinks are
 * covered by an approval configuration (coverage, not the configuration's quality: a weak approval
 * is a caveat on the statement, not a missing clause).
 */
export const approvalControl = defineControl({
  entry: APPROVAL_ENTRY,
  scope: "agent",
  output: { key: "approvals", single: false },
  config: {
    key: "approvals",
    withoutServer: (c: ApprovalConfig, serverId) => ({
      ...c,
      tools: c.tools.filter((t) => t.serverId !== serverId),
    }),
    withoutAgent: (c: ApprovalConfig, agentId) => (c.agentId === agentId ? null : c),
    // The approvals guard the sinks, and the sinks go to the deploy agent.
    afterSplit: (c: ApprovalConfig, agentId, deployAgentId) =>
      c.agentId === agentId ? { ...c, agentId: deployAgentId } : c,
    revisionItem: {
      key: (c: ApprovalConfig) => `approval:${c.agentId}`,
      label: (c: ApprovalConfig, names) => `Approval in ${names.agent(c.agentId)}`,
    },
  },
  evaluate: (ctx) =>
    ctx.model.review.controls.approvals.map((config, i) => {
      const agent = ctx.model.agents.find((a) => a.id === config.agentId);
      const held = new Set(agent?.tools ?? []);
      const sinks = agent ? agent.sinks.map((t) => t.key) : [];
      const approved = config.tools
        .map((t) => toolKey(t.serverId, t.tool))
        .filter((k) => held.has(k));
      return evaluateApproval(config, i, held, sinks, approved.map(nodeIds.sink), ctx.toolName);
    }),
  missing: (ctx) =>
    ctx.model.agents
      .filter(
        (agent) =>
          agent.sinks.length > 0 &&
          !ctx.model.review.controls.approvals.some((a) => a.agentId === agent.id),
      )
      .map((agent) => ({
        scope: { kind: "agent", agentId: agent.id },
        subject: { agentId: agent.id },
        key: agent.id,
        reason: `${agent.name} holds sensitive sinks (${namesInProse(agent.sinks.map((t) => t.name))}) and no approval is configured for it`,
        attachesTo: agent.sinks.map((t) => nodeIds.sink(t.key)),
      })),
  present: (_evaluations, ctx) => {
    let anySink = false;
    for (const agent of ctx.model.agents) {
      if (agent.sinks.length === 0) continue;
      anySink = true;
      const covered = new Set(
        ctx.model.review.controls.approvals
          .filter((a) => a.agentId === agent.id)
          .flatMap((a) => a.tools.map((t) => toolKey(t.serverId, t.tool))),
      );
      if (agent.sinks.some((s) => !covered.has(s.key))) return false;
    }
    return anySink;
  },
  residue: (isPresent) => [
    isPresent("approval")
      ? {
          at: 3,
          controlIds: ["approval"],
          present: true,
          text: "in front of a person reading a sentence the payload helped write",
        }
      : { at: 3, controlIds: [], present: false, text: "with no person in front of the sink call" },
  ],
  caveat: (e, ctx) => `approval for ${ctx.agentName(e.scope.agentId)}: ${e.summary}`,
  binding: {
    key: "approvals",
    select: (review, _serverId, agentId) =>
      review.controls.approvals
        .filter((a) => a.agentId === agentId)
        .map((a): ApprovalConfig => ({ ...a, tools: normalizeToolSet(a.tools) })),
  },
  conditions: [{ kind: "approval_out_of_band", on: "agent" }],
  findingRules: APPROVAL_FINDING_RULES,
  graph: { kind: "sink_call" },
});
