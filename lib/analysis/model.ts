/**
 * The resolved model the analysis and the controls share: every tool of the review (listed,
 * assessed, or only named by an agent) with the roles the analysis uses and where they came from,
 * every source with its writer bound, and every agent with the tools it holds. It is a pure
 * function of the review and the tool lists; both the path analysis and the control evaluations
 * read it, so they cannot disagree about what a tool is.
 *
 * Role rules: a confirmed assessment is authoritative; otherwise the suggestion is used and marked.
 * A tool with mapped sources returns text from them whatever its roles say. A tool that returns
 * untrusted text with no source mapped has "unmapped" writers, which are treated as outside the
 * boundary: unknown is not safe.
 */
import type { AgentId, ServerId, SourceId } from "@/lib/ids";
import type { Agent, InputSource, Review, ToolAssessment, ToolRole } from "@/lib/review/schema";
import { newRoleCache, resolveRoles, roleMask, roleSet, type ResolvedRoles } from "@/lib/roles/suggest";
import { sourceWriterBound, type WriterBoundResult } from "@/lib/sources/writer-bound";
import type { EffectiveAnnotations } from "@/lib/tools/annotations";
import type { RoleEvidence } from "./findings";
import { nodeIds, toolKey, type HeadRef, type NodeId, type ToolKey } from "./ids";
import type { ListedTool, ServerToolList } from "./input";

/** Roles that make a tool a sensitive sink on a path. `reads_private_data` counts for the trifecta only. */
export const SENSITIVE_SINK_ROLES: readonly ToolRole[] = ["writes", "deploys_or_destroys", "network_or_shares"];
const SENSITIVE_SINK_MASK = roleMask(SENSITIVE_SINK_ROLES);
const READS_PRIVATE_DATA_MASK = roleMask(["reads_private_data"]);

export type ToolPresence =
  /** In the server's tool list (snapshot or declared). */
  | "listed"
  /** Assessed or held by an agent, but absent from the server's tool list. */
  | "not_listed";

/** A path head with its two graph node ids, built once per head rather than once per use. */
export type HeadNodes = { head: HeadRef; writers: NodeId; source: NodeId };

export type ResolvedTool = {
  key: ToolKey;
  /** Position in `AnalysisModel.toolOrder`: per-tool caches are arrays indexed by it. */
  index: number;
  serverId: ServerId;
  name: string;
  description: string;
  presence: ToolPresence;
  listOrigin: "snapshot" | "declared" | null;
  annotations: EffectiveAnnotations;
  roles: ResolvedRoles;
  sourceIds: SourceId[];
  /** Heads of text this tool returns that writers outside the boundary can author. */
  untrustedHeads: HeadRef[];
  /** `untrustedHeads` with their node ids, in the same order. */
  headNodes: HeadNodes[];
  /** Node ids of this tool as a returning tool and as a sink. */
  returningNodeId: NodeId;
  sinkNodeId: NodeId;
  /** One evidence entry per role, in `roles.reasons` order: shared by every finding that cites the tool. */
  evidence: RoleEvidence[];
  sinkRoles: ToolRole[];
  readsPrivateData: boolean;
  /** Assessed sources that do not exist in the review (the schema rejects these; kept for raw input). */
  unknownSourceIds: string[];
};

export type ResolvedSource = { source: InputSource; bound: WriterBoundResult; head: HeadNodes };

export type ResolvedAgent = {
  id: AgentId;
  name: string;
  agent: Agent;
  /** Distinct tools the agent holds, sorted by key. */
  tools: ToolKey[];
  /** The held tools, resolved (computed once: every consumer reads these). */
  held: ResolvedTool[];
  /** Held tools returning text that writers outside the boundary can author. */
  returning: ResolvedTool[];
  /** Held sensitive sinks. */
  sinks: ResolvedTool[];
};

export type AnalysisModel = {
  review: Review;
  toolLists: ServerToolList[];
  tools: Map<ToolKey, ResolvedTool>;
  /** All tool keys, sorted. */
  toolOrder: ToolKey[];
  sources: Map<SourceId, ResolvedSource>;
  agents: ResolvedAgent[];
};

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/** Distinct values, sorted; a single value is returned as it is (shared, never mutated). */
function uniqueSorted<T extends string>(values: readonly T[]): readonly T[] {
  return values.length === 1 ? values : [...new Set(values)].sort(byString);
}
/** Shared by every tool with no (known or unknown) sources, or no untrusted heads: most tools. Never mutated. */
const NO_SOURCES: SourceId[] = [];
const NO_HEADS: HeadNodes[] = [];
const NO_HEAD_REFS: HeadRef[] = [];

/** Build the resolved model. Pure; cost is linear in tools + agent tool references. */
export function buildModel(review: Review, toolLists: readonly ServerToolList[]): AnalysisModel {
  const sources = new Map<SourceId, ResolvedSource>();
  for (const source of review.sources) {
    const head: HeadRef = { kind: "source", sourceId: source.id };
    sources.set(source.id, { source, bound: sourceWriterBound(source), head: { head, writers: nodeIds.writers(head), source: nodeIds.source(head) } });
  }

  const listed = new Map<ToolKey, { tool: ListedTool; origin: "snapshot" | "declared" }>();
  for (const list of toolLists) {
    for (const tool of list.tools) {
      const key = toolKey(list.serverId, tool.name);
      if (!listed.has(key)) listed.set(key, { tool, origin: list.origin });
    }
  }
  const assessments = new Map<ToolKey, ToolAssessment>();
  for (const a of review.tools) assessments.set(toolKey(a.serverId, a.tool), a);

  const keys = new Set<ToolKey>(listed.keys());
  for (const k of assessments.keys()) keys.add(k);
  // Each agent reference's key is built once, here, and reused for the agent below.
  const agentKeys = review.agents.map((agent) => {
    const own = new Set<ToolKey>();
    for (const ref of agent.tools) own.add(toolKey(ref.serverId, ref.tool));
    for (const k of own) keys.add(k);
    return own;
  });

  const tools = new Map<ToolKey, ResolvedTool>();
  const toolOrder = [...keys].sort(byString);
  // Tools with the same suggestion and confirmation share one resolution (read-only).
  const roleCache = newRoleCache();
  for (let index = 0; index < toolOrder.length; index++) {
    const key = toolOrder[index]!;
    const at = key.indexOf("/");
    const serverId = key.slice(0, at) as ServerId;
    const name = key.slice(at + 1);
    const entry = listed.get(key);
    const assessment = assessments.get(key) ?? null;
    const input: ListedTool = entry?.tool ?? { name, description: "" };
    const roles = resolveRoles(input, assessment, roleCache);
    const sourceIds = !assessment || assessment.sourceIds.length === 0 ? NO_SOURCES : uniqueSorted(assessment.sourceIds);
    const known = sourceIds.length === 0 ? NO_SOURCES : sourceIds.filter((s) => sources.has(s));
    let headNodes = NO_HEADS;
    if (known.length > 0) {
      headNodes = [];
      for (const s of known) {
        const r = sources.get(s);
        if (r?.bound.reachesOutsideBoundary) headNodes.push(r.head);
      }
    } else if (roles.roles.includes("returns_untrusted_text")) {
      const head: HeadRef = { kind: "unmapped", tool: key };
      headNodes = [{ head, writers: nodeIds.writers(head), source: nodeIds.source(head) }];
    }
    const origin = roles.origin;
    tools.set(key, {
      key,
      index,
      serverId,
      name,
      description: input.description,
      presence: entry ? "listed" : "not_listed",
      listOrigin: entry?.origin ?? null,
      annotations: roles.suggestion.annotations,
      roles,
      sourceIds: known,
      untrustedHeads: headNodes.length === 0 ? NO_HEAD_REFS : headNodes.map((h) => h.head),
      headNodes,
      returningNodeId: nodeIds.returning(key),
      sinkNodeId: nodeIds.sink(key),
      evidence: roles.reasons.map((r) => ({ tool: key, role: r.role, origin })),
      sinkRoles: roleSet(roles.mask & SENSITIVE_SINK_MASK),
      readsPrivateData: (roles.mask & READS_PRIVATE_DATA_MASK) !== 0,
      unknownSourceIds: known.length === sourceIds.length ? NO_SOURCES : sourceIds.filter((s) => !sources.has(s)),
    });
  }

  const agents: ResolvedAgent[] = review.agents.map((agent, i) => {
    const keys = [...(agentKeys[i] ?? [])].sort(byString);
    const held: ResolvedTool[] = [];
    for (const k of keys) {
      const t = tools.get(k);
      if (t) held.push(t);
    }
    return {
      id: agent.id,
      name: agent.name,
      agent,
      tools: keys,
      held,
      returning: held.filter((t) => t.untrustedHeads.length > 0),
      sinks: held.filter((t) => t.sinkRoles.length > 0),
    };
  });

  return { review, toolLists: [...toolLists], tools, toolOrder, sources, agents };
}

/** Tools in an agent that return text writers outside the boundary can author. */
export function agentReturningTools(_model: AnalysisModel, agent: ResolvedAgent): ResolvedTool[] {
  return agent.returning;
}

/** Tools in an agent that are sensitive sinks (writes, deploys or destroys, reaches the network or shares). */
export function agentSinkTools(_model: AnalysisModel, agent: ResolvedAgent): ResolvedTool[] {
  return agent.sinks;
}

/** Whether an agent holds both a tool returning untrusted text and a sensitive sink: the union property makes that a path. */
export function agentHoldsBoth(agent: ResolvedAgent): boolean {
  return agent.returning.length > 0 && agent.sinks.length > 0;
}
