/**
 * Tool-set separation: the one control that cuts the source-to-sink path, because it decides what
 * shares an agent session (the union property: text returned by any tool reaches every tool in the
 * session). Evaluated from agent composition only. Where an agent holds both a tool returning
 * untrusted text and a sensitive sink, the split is computed: a reference agent keeps the returning
 * tools, a deploy agent gets the sinks, and a person hands the value over by retyping it, which is
 * the boundary (the seed: "a human retyped the value rather than because anyone asked the model to
 * be careful"). `applySplit` (split.ts) produces the split review so the UI can save it.
 */
import { findingId, nodeIds, type ToolKey } from "@/lib/model/ids";
import { why, type Finding } from "@/lib/model/findings";
import { toolListsFromReview, type ServerToolList } from "@/lib/model/input";
import { namesInProse } from "@/lib/model/prose";
import {
  agentReturningTools,
  agentSinkTools,
  buildModel,
  type AnalysisModel,
  type ResolvedAgent,
} from "@/lib/model/model";
import type { AgentId } from "@/lib/ids";
import { AgentIdSchema } from "@/lib/ids";
import type { Review } from "@/lib/review/schema";
import { CONTROLS_SECTION, SEED_DOCUMENT, type ControlCatalogEntry } from "./catalog";
import { type ControlEvaluationBase, type ControlFindingRule, defineControl } from "./types";

export const SEPARATION_ENTRY = {
  id: "separation",
  name: "Tool-set separation",
  sitsAt: "session_boundary",
  acts: "path",
  canCutPath: true,
  stops: "the path from a returned text to a sensitive sink",
  residue: "whatever damage the remaining tools can do",
  source: {
    document: SEED_DOCUMENT,
    section: CONTROLS_SECTION,
    quote: "Tool-set separation is the control that actually addresses this deployment",
  },
} as const satisfies ControlCatalogEntry;

/** Most sink names quoted in the residue statement when separation is missing; the rest are counted. */
export const MAX_SINKS_NAMED_IN_RESIDUE = 3;

export type Handoff = {
  from: AgentId;
  to: AgentId;
  by: "human";
  /** What crosses the boundary, and how. */
  carries: string;
};

export type SplitPlan = {
  agentId: AgentId;
  reference: { agentId: AgentId; name: string; tools: ToolKey[] };
  deploy: { agentId: AgentId; name: string; tools: ToolKey[] };
  handoff: Handoff;
  /** Tools that both return untrusted text and are sinks: no split keeps their own text from reaching them. */
  removed: { tool: ToolKey; reason: string }[];
  /** Approval configurations moved with the sinks to the deploy agent. */
  movedApprovals: number;
};

export type SplitPlanResult =
  | { kind: "split"; plan: SplitPlan }
  | { kind: "not_needed"; agentId: AgentId; reason: string }
  | { kind: "unknown_agent"; agentId: string; reason: string };

export type AgentSeparation = {
  agentId: AgentId;
  holdsBoth: boolean;
  returningTools: ToolKey[];
  sinkTools: ToolKey[];
  split: SplitPlan | null;
};

export type SeparationEvaluation = ControlEvaluationBase & {
  controlId: "separation";
  scope: { kind: "review" };
  /** True when no agent holds both a returning tool and a sensitive sink. */
  inPlace: boolean;
  agents: AgentSeparation[];
};

/** The ids a split uses: the reference half keeps the agent's id, so decisions about it still resolve. */
export function splitAgentIds(
  agentId: AgentId,
  taken: ReadonlySet<string>,
): { reference: AgentId; deploy: AgentId } {
  let deploy = `${agentId}-deploy`.slice(0, 80);
  for (let n = 2; taken.has(deploy); n++) deploy = `${agentId}-deploy-${n}`.slice(0, 80);
  return { reference: agentId, deploy: AgentIdSchema.parse(deploy) };
}

function plan(model: AnalysisModel, agent: ResolvedAgent): SplitPlan | null {
  const returning = agentReturningTools(model, agent);
  const sinks = agentSinkTools(model, agent);
  if (returning.length === 0 || sinks.length === 0) return null;
  const returningKeys = new Set(returning.map((t) => t.key));
  const sinkKeys = new Set(sinks.map((t) => t.key));
  const both = [...returningKeys].filter((k) => sinkKeys.has(k));
  const ids = splitAgentIds(agent.id, new Set(model.agents.map((a) => a.id)));
  const movedApprovals = model.review.controls.approvals.filter(
    (a) => a.agentId === agent.id,
  ).length;
  return {
    agentId: agent.id,
    reference: {
      agentId: ids.reference,
      name: `${agent.name} (reference)`,
      tools: agent.tools.filter((k) => !sinkKeys.has(k)),
    },
    deploy: {
      agentId: ids.deploy,
      name: `${agent.name} (${sinks.some((s) => s.sinkRoles.includes("deploys_or_destroys")) ? "deploy" : "actions"})`,
      tools: agent.tools.filter((k) => sinkKeys.has(k) && !returningKeys.has(k)),
    },
    handoff: {
      from: ids.reference,
      to: ids.deploy,
      by: "human",
      carries:
        "the reference agent reads and summarises; a person reads the summary and invokes the deploy agent separately with the value (e.g. the release identifier) they typed themselves",
    },
    removed: both.map((tool) => ({
      tool,
      reason:
        "returns untrusted text and is a sensitive sink, so its own returned text reaches it in any session; it needs its own review",
    })),
    movedApprovals,
  };
}

/** Evaluate separation across all agents of the model. */
export function evaluateSeparation(model: AnalysisModel): SeparationEvaluation {
  const entry = SEPARATION_ENTRY;
  const findings: Finding[] = [];
  const agents: AgentSeparation[] = model.agents.map((agent) => {
    const returning = agentReturningTools(model, agent);
    const sinks = agentSinkTools(model, agent);
    const holdsBoth = returning.length > 0 && sinks.length > 0;
    const split = holdsBoth ? plan(model, agent) : null;
    if (holdsBoth) {
      findings.push({
        id: findingId("separation.holds_both", agent.id),
        kind: "separation.holds_both",
        severity: "high",
        title: `${agent.name} holds both returning tools and sensitive sinks`,
        controlId: "separation",
        subject: { agentId: agent.id },
        why: why(
          `${namesInProse(returning.map((t) => t.name))} return untrusted text into the session and ${namesInProse(sinks.map((t) => t.name))} ${sinks.length === 1 ? "is a sensitive sink" : "are sensitive sinks"} in the same session; split: ${split?.reference.name} keeps the returning tools, ${split?.deploy.name} the sinks, a person retypes the value between them`,
          {
            // The same evidence, tools and sources as the agent's path finding (built once in the model).
            roles: agent.pathEvidence,
            tools: agent.pathTools,
            sources: agent.pathSources,
            config: [
              {
                path: `agents.${model.agents.indexOf(agent)}.tools`,
                value: agent.tools.join(", "),
              },
            ],
          },
        ),
        nodeIds: [nodeIds.agent(agent.id)],
        pathIds: [],
      });
    }
    return {
      agentId: agent.id,
      holdsBoth,
      returningTools: returning.map((t) => t.key),
      sinkTools: sinks.map((t) => t.key),
      split,
    };
  });
  const offenders = agents.filter((a) => a.holdsBoth);
  const inPlace = offenders.length === 0;
  return {
    controlId: "separation",
    scope: { kind: "review" },
    status: inPlace ? "holds" : "fails",
    sitsAt: entry.sitsAt,
    cutsPath: inPlace,
    stops: entry.stops,
    residue: entry.residue,
    summary: inPlace
      ? "in place: no agent holds both a tool returning untrusted text and a sensitive sink"
      : `not in place: ${offenders.map((a) => model.agents.find((x) => x.id === a.agentId)?.name ?? a.agentId).join(", ")} hold${offenders.length === 1 ? "s" : ""} both; splitting removes the path`,
    findings,
    attachesTo: model.agents.map((a) => nodeIds.agent(a.id)),
    inPlace,
    agents,
  };
}

/** The split that removes every path through one agent, or why none is needed. */
export function planSplit(
  review: Review,
  agentId: string,
  toolLists?: readonly ServerToolList[],
): SplitPlanResult {
  const model = buildModel(review, toolLists ?? toolListsFromReview(review));
  const agent = model.agents.find((a) => a.id === agentId);
  if (!agent)
    return {
      kind: "unknown_agent",
      agentId,
      reason: `no agent ${JSON.stringify(agentId)} in the review`,
    };
  const p = plan(model, agent);
  if (!p)
    return {
      kind: "not_needed",
      agentId: agent.id,
      reason: `${agent.name} does not hold both a tool returning untrusted text and a sensitive sink`,
    };
  return { kind: "split", plan: p };
}

/** Its finding kinds, as the SARIF export describes them. */
const SEPARATION_FINDING_RULES: readonly ControlFindingRule[] = [
  {
    kind: "holds_both",
    name: "SeparationHoldsBoth",
    severity: "high",
    short: "An agent holds both returning tools and sensitive sinks",
    help: "Tool-set separation is not in place: the session that reads untrusted text can also call the sinks. Split the agent into one that reads and summarises and one that acts, with a person retyping the value between them.",
  },
];

/**
 * Tool-set separation in the registry: one review-wide evaluation from the agents' composition,
 * never absent (there is nothing to configure: the agents' tool sets are its configuration, bound
 * into a decision as its tool set), drawn on each agent session's boundary.
 */
export const separationControl = defineControl({
  entry: SEPARATION_ENTRY,
  scope: "review",
  output: { key: "separation", single: true },
  config: null,
  evaluate: (ctx) => [evaluateSeparation(ctx.model)],
  missing: () => [],
  present: (evaluations) => evaluations.every((e) => e.inPlace),
  residue: (isPresent, ctx) => {
    if (isPresent("separation"))
      return [
        {
          at: 2,
          controlIds: ["separation"],
          present: true,
          text: "reaching the tools that stayed in the session",
        },
      ];
    const names = [
      ...new Set(
        ctx.model.agents
          .filter((a) => a.returning.length > 0 && a.sinks.length > 0)
          .flatMap((a) => a.sinks.map((t) => t.name)),
      ),
    ].sort();
    return [
      {
        at: 2,
        controlIds: [],
        present: false,
        text: `reaching every tool in the session, ${namesInProse(names, MAX_SINKS_NAMED_IN_RESIDUE)} among them`,
      },
    ];
  },
  // Its failure is the residue's own clause (the sinks sharing a session), not a caveat on it.
  caveat: () => null,
  summaryOnPath: (evaluation, agent) => {
    const split = evaluation.agents.find((a) => a.agentId === agent.id)?.split;
    return split
      ? `not in place for ${agent.name}: split into ${split.reference.name} and ${split.deploy.name}, a person retyping the value, removes the path`
      : evaluation.summary;
  },
  binding: null,
  conditions: [],
  findingRules: SEPARATION_FINDING_RULES,
  graph: {
    kind: "agent_sessions",
    sessions: (evaluation) =>
      (evaluation as SeparationEvaluation).agents.map((a) => {
        const cutsPath = !a.holdsBoth && a.returningTools.length > 0;
        return {
          agentId: a.agentId,
          status: a.holdsBoth ? "fails" : "holds",
          cutsPath,
          summary: (name: string) =>
            a.holdsBoth
              ? `${name} holds both returning tools and sensitive sinks`
              : cutsPath
                ? `${name} holds returning tools and no sensitive sink: the path is cut at this session's boundary`
                : `${name} holds no tool returning untrusted text`,
          ...(cutsPath
            ? {
                cut: (name: string) =>
                  `${name} holds no sensitive sink, so text its tools return has no sink to reach in this session.`,
              }
            : {}),
        };
      }),
  },
});
