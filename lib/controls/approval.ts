/**
 * Approval on the sensitive path, evaluated from its configuration and its measured use. It sits at
 * the sink call and holds only if the prompt is out of band of the agent, shows the arguments
 * resolved to their final values, and fires rarely; its residue, even then, is an approver who
 * trusts the model's justification. Prompts per day × median seconds to approve is the human
 * attention the control actually receives (the seed: 14 × 1.9 s ≈ 27 s a day, "a click, not a review").
 */
import { findingId, toolKey, type NodeId, type ToolKey } from "@/lib/model/ids";
import { why, type Finding, type Severity } from "@/lib/model/findings";
import type { AgentId } from "@/lib/ids";
import type { ApprovalConfig } from "@/lib/review/schema";
import { controlEntry } from "./catalog";
import type { ControlEvaluationBase } from "./types";

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
  const entry = controlEntry("approval");
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
