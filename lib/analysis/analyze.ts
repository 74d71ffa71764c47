/**
 * The source-to-sink analysis of a review: a pure, deterministic, JSON-serialisable function of the
 * review and the tool lists. A path is source → returning tool → agent → sensitive sink, where the
 * source's writers reach outside the boundary and both tools sit in the same agent session, from
 * whichever servers (the union property: text returned by any tool reaches every tool in the
 * session). The writer bound is the path's head, because who may write is what the path carries.
 *
 * Paths are counted exactly and listed up to a named bound: the product source × returning tool ×
 * sink grows multiplicatively per agent, so the listing stops at `MAX_PATHS_LISTED` (and a per-agent
 * share) and reports the truncation as a value. Findings are aggregated per agent, never per path.
 *
 * Roles: a confirmed assessment is authoritative, otherwise the suggestion is used, and every place
 * the analysis relied on an unconfirmed suggestion is recorded in `reliance` and on the findings.
 */
import { appOnlyToolFindings, cspDomainFindings } from "@/lib/analysis/apps-findings";
import { sharedCacheAnalysisFindings } from "@/lib/analysis/credential-findings";
import { headerFindings } from "@/lib/analysis/header-findings";
import type { AgentId, ServerId, SourceId } from "@/lib/ids";
import { TOOL_ROLES, type InputSource, type Review, type ToolRole } from "@/lib/review/schema";
import type { ClaimConflict, RoleReason } from "@/lib/roles/suggest";
import type { UsageFact, WriterBound } from "@/lib/sources/writer-bound";
import type { EffectiveAnnotations } from "@/lib/tools/annotations";
import type { ControlPosition } from "@/lib/controls/catalog";
import { evaluateControls, type ControlsEvaluation } from "@/lib/controls/index";
import { CONTROLS, evaluationsOf, type ControlRegistry } from "@/lib/controls/registry";
import type { ControlEvaluationBase, ControlScope, ControlStatus } from "@/lib/controls/types";
import { sortFindings, why, type Finding } from "@/lib/model/findings";
import { MAX_NAMES_IN_PROSE, namesInProse, shownName } from "@/lib/model/prose";
import {
  edgeId,
  findingId,
  nodeIds,
  pathId,
  splitToolKey,
  type EdgeId,
  type ItemKind,
  type HeadRef,
  type NodeId,
  type PathId,
  type ToolKey,
} from "@/lib/model/ids";
import type { ServerToolList } from "@/lib/model/input";
import {
  READS_PRIVATE_DATA_MASK,
  RETURNS_UNTRUSTED_TEXT_MASK,
  SENSITIVE_SINK_MASK,
  agentHoldsBoth,
  agentReturningTools,
  agentSinkTools,
  buildModel,
  collectEvidence,
  serverName,
  type AnalysisModel,
  type HeadNodes,
  type ResolvedAgent,
  type ResolvedTool,
} from "@/lib/model/model";
import { roleMask } from "@/lib/roles/suggest";
import { ANALYSIS_VERSION } from "./version";
import {
  mentionFindings,
  promptViews,
  shadowingFindings,
  type PromptView,
} from "./surface-findings";

export { ANALYSIS_VERSION };

/** Most paths listed in one analysis; the count is always exact. */
export const MAX_PATHS_LISTED = 1000;
/** Most paths listed per agent, so one agent cannot crowd the others out of the listing. */
export const MAX_PATHS_LISTED_PER_AGENT = 200;

export type GraphNode =
  | {
      id: NodeId;
      kind: "writers";
      label: string;
      head: HeadRef;
      bound: WriterBound | null;
      reachesOutsideBoundary: boolean;
      minAccountsAnAttackNeeds: number;
      usage: UsageFact | null;
    }
  | {
      id: NodeId;
      kind: "source";
      label: string;
      head: HeadRef;
      sourceKind: string;
      reachesOutsideBoundary: boolean;
    }
  | {
      id: NodeId;
      kind: "returning";
      label: string;
      tool: ToolKey;
      serverId: ServerId;
      group: ServerId;
      rolesOrigin: "confirmed" | "suggested";
      item?: "resource" | "resource_template";
      /** MCP Apps: only the server's UI calls it, never the model (drawn marked). */
      isAppOnly?: true;
    }
  | { id: NodeId; kind: "agent"; label: string; agentId: AgentId }
  | {
      id: NodeId;
      kind: "sink";
      label: string;
      tool: ToolKey;
      serverId: ServerId;
      group: ServerId;
      sinkRoles: ToolRole[];
      rolesOrigin: "confirmed" | "suggested";
      /** MCP Apps: only the server's UI calls it, never the model (drawn marked). */
      isAppOnly?: true;
    };

export type GraphEdge = {
  id: EdgeId;
  from: NodeId;
  to: NodeId;
  kind: "writes_into" | "returned_by" | "held_by" | "holds";
  /** On some source-to-sink path. */
  onPath: boolean;
};

export type PathHead = {
  nodeId: NodeId;
  head: HeadRef;
  label: string;
  bound: WriterBound | null;
  boundLabel: string;
};

export type PathView = {
  id: PathId;
  agentId: AgentId;
  head: PathHead;
  returningTool: ToolKey;
  sink: ToolKey;
  sinkRoles: ToolRole[];
  nodeIds: NodeId[];
  edgeIds: EdgeId[];
  reliesOnSuggestions: boolean;
};

export type Leg = { present: boolean; tools: ToolKey[] };

export type ControlOnPath = {
  /** A registry id (lib/controls/registry.ts). */
  controlId: string;
  sitsAt: ControlPosition;
  status: ControlStatus;
  scope: ControlScope;
  effect: "cuts" | "narrows";
  summary: string;
};

export type AgentAnalysis = {
  agentId: AgentId;
  name: string;
  nodeId: NodeId;
  tools: ToolKey[];
  /** Held tools absent from their server's tool list. */
  notListed: ToolKey[];
  returningTools: ToolKey[];
  sinkTools: ToolKey[];
  holdsBoth: boolean;
  pathCount: number;
  /** Distinct path heads, by node id. */
  heads: NodeId[];
  trifecta: { met: boolean; untrustedInput: Leg; privateData: Leg; outboundCommunication: Leg };
  ruleOfTwo: {
    untrustedInput: Leg;
    sensitiveDataOrSystems: Leg;
    stateChange: Leg;
    outboundCommunication: Leg;
    count: number;
    violated: boolean;
  };
  controlsOnPath: ControlOnPath[];
  reliesOnSuggestions: boolean;
};

export type SourceView = {
  id: SourceId;
  name: string;
  kind: string;
  nodeId: NodeId;
  writersNodeId: NodeId;
  bound: WriterBound;
  reachesOutsideBoundary: boolean;
  reasons: string[];
  minAccountsAnAttackNeeds: number;
  usage: UsageFact | null;
};

export type ToolView = {
  key: ToolKey;
  /** A tool, or a resource or resource template (`name` is then its URI or URI template). */
  item: ItemKind;
  serverId: ServerId;
  name: string;
  presence: "listed" | "not_listed";
  listOrigin: "snapshot" | "declared" | null;
  roles: ToolRole[];
  /** Confirmed roles carry no other reason than the confirmation; a suggested tool's reasons are `suggestedRoles`. */
  rolesOrigin: "confirmed" | "suggested";
  suggestedRoles: RoleReason[];
  /** The suggestion's confidence (0..1, its least certain decision), its name's verb, and the annotation claims contradicting the name. */
  suggestionConfidence: number;
  verb: string | null;
  conflicts: ClaimConflict[];
  annotations: EffectiveAnnotations;
  sourceIds: SourceId[];
  returnsUntrustedText: boolean;
  sinkRoles: ToolRole[];
};

export type RelianceEntry = {
  tool: ToolKey;
  agents: AgentId[];
  roles: ToolRole[];
  usedAs: string[];
};

export type Analysis = {
  version: typeof ANALYSIS_VERSION;
  toolLists: {
    serverId: ServerId;
    origin: "snapshot" | "declared";
    toolCount: number;
    blocked: { reason: string; pinnedSurfaceSha256: string } | null;
  }[];
  sources: SourceView[];
  tools: ToolView[];
  graph: { nodes: GraphNode[]; edges: GraphEdge[] };
  agents: AgentAnalysis[];
  paths: {
    total: number;
    listed: PathView[];
    truncated: boolean;
    limit: number;
    perAgentLimit: number;
  };
  /** The controls with their own findings; every control finding is also in `findings`, which is not repeated here. */
  controls: Omit<ControlsEvaluation, "findings">;
  reliance: RelianceEntry[];
  /** Every server's prompts, with their arguments, the resources their text names and the agents that can use them. */
  prompts: PromptView[];
  findings: Finding[];
};

const UNBOUNDED: ReadonlySet<WriterBound["kind"]> = new Set([
  "everyone_with_an_email_address",
  "anyone_with_a_web_server",
]);

function headView(model: AnalysisModel, h: HeadNodes): PathHead {
  const head = h.head;
  if (head.kind === "source") {
    const s = model.sources.get(head.sourceId);
    return {
      nodeId: h.source,
      head,
      label: s?.source.name ?? head.sourceId,
      bound: s?.bound.bound ?? null,
      boundLabel: s?.bound.bound.label ?? "unknown",
    };
  }
  // The head names its tool by name, as the graph's node does: the key is an id, not prose.
  return {
    nodeId: h.source,
    head,
    label: `unmapped text returned by ${shownName(splitToolKey(head.tool).tool)}`,
    bound: null,
    boundLabel: "unknown writers (no source mapped)",
  };
}

const OUTBOUND = roleMask(["network_or_shares"]);
const SENSITIVE = roleMask(["reads_private_data", "deploys_or_destroys"]);
/**
 * State change is `writes` or `deploys_or_destroys`, but the Rule of Two's evidence collects only
 * `writes` from the state-change tools: every `deploys_or_destroys` entry is already in it from
 * the sensitive tools, and each (tool, role) is cited once.
 */
const WRITES = roleMask(["writes"]);
const ALL_ROLES = roleMask(TOOL_ROLES);

/**
 * What the analysis used a tool's suggested roles for, sorted; the same in every agent that holds
 * it. Tools with the same facts (sink roles, returning, reads private data) share one array.
 */
function usedAs(b: AnalysisBuild, t: ResolvedTool): string[] {
  const key =
    (t.roles.mask & SENSITIVE_SINK_MASK) |
    (t.headNodes.length > 0 ? 1 << 8 : 0) |
    (t.readsPrivateData ? 1 << 9 : 0);
  let out = b.usedAs.get(key);
  if (out) return out;
  out = [];
  b.usedAs.set(key, out);
  // Pushed in sorted order: "reads …" < "returns …" < "sensitive …".
  if (t.readsPrivateData) out.push("reads private data");
  if (t.headNodes.length > 0) out.push("returns untrusted text");
  if (t.sinkRoles.length > 0) out.push(`sensitive sink (${t.sinkRoles.join(", ")})`);
  if (out.length === 0) out.push("neither a returning tool nor a sink");
  return out;
}

/** The keys of the tools in `lists`, each once, in first-seen order. */
function distinctKeys(...lists: (readonly ResolvedTool[])[]): ToolKey[] {
  const seen = new Set<ResolvedTool>();
  const out: ToolKey[] = [];
  for (const list of lists) {
    for (const t of list) {
      if (seen.has(t)) continue;
      seen.add(t);
      out.push(t.key);
    }
  }
  return out;
}

const leg = (tools: ResolvedTool[]): Leg => ({
  present: tools.length > 0,
  tools: tools.map((t) => t.key),
});

/** The Rule of Two's four properties, in the order findings name them. */
const RULE_OF_TWO_LEGS = [
  "untrustedInput",
  "sensitiveDataOrSystems",
  "stateChange",
  "outboundCommunication",
] as const;
/** The properties as a sentence says them. */
const RULE_OF_TWO_WORDS: Record<(typeof RULE_OF_TWO_LEGS)[number], string> = {
  untrustedInput: "untrusted input",
  sensitiveDataOrSystems: "sensitive data or systems",
  stateChange: "state change",
  outboundCommunication: "outbound communication",
};

/**
 * "untrusted input: get_issue (Support portal), search_pages (Wiki); private data: read_env":
 * the tools standing on each leg, by name, a returning tool with the sources its text comes from.
 */
function legsInProse(
  b: AnalysisBuild,
  legs: readonly (readonly [string, readonly ResolvedTool[]])[],
): string {
  let out = "";
  for (const [label, tools] of legs) {
    const names: string[] = [];
    const shown = Math.min(tools.length, MAX_NAMES_IN_PROSE);
    for (let i = 0; i < shown; i++) {
      const t = tools[i]!;
      const heads = label === "untrusted input" ? t.headNodes.map((h) => hview(b, h).label) : [];
      names.push(
        heads.length > 0 && t.sourceIds.length > 0
          ? `${shownName(t.name)} (${namesInProse(heads, 3)})`
          : shownName(t.name),
      );
    }
    out += `${out ? "; " : ""}${label}: ${names.join(", ")}${tools.length > shown ? ` and ${tools.length - shown} more` : ""}`;
  }
  return out;
}

/**
 * What an analysis accumulates while it runs. The steps below are module-level functions that take
 * it as an argument, not closures inside analyzeReview, so each step states what it reads and
 * writes; the per-agent loop is the cost `npm run bench -- analysis` measures.
 */
type AnalysisBuild = {
  model: AnalysisModel;
  registry: ControlRegistry;
  controls: ControlsEvaluation;
  findings: Finding[];
  nodes: GraphNode[];
  /**
   * Every edge is made once (each has a distinct pair of ends by construction: ids are unique per
   * collection), and the edges a path crosses are kept by reference where they are made, so marking
   * a path and listing its edge ids never looks an edge up by its ends.
   */
  edges: GraphEdge[];
  /** The writers → source edge of each path head. */
  writesInto: Map<HeadNodes, GraphEdge>;
  /** Per tool (by `ResolvedTool.index`), its source → tool edges in `headNodes` order. */
  returnedBy: GraphEdge[][];
  /** One PathHead per head node, shared by every path and summary that shows it. */
  headViews: Map<NodeId, PathHead>;
  sinkNodes: Set<ToolKey>;
  /** Per tool relied on: the agents, in agent order (each agent visits its held tools once), and what for. */
  relied: Map<ToolKey, { agents: AgentId[]; usedAs: string[] }>;
  usedAs: Map<number, string[]>;
  paths: PathView[];
  total: number;
};

function addEdge(
  b: AnalysisBuild,
  from: NodeId,
  to: NodeId,
  kind: GraphEdge["kind"],
  onPath = false,
): GraphEdge {
  const edge: GraphEdge = { id: edgeId(from, to), from, to, kind, onPath };
  b.edges.push(edge);
  return edge;
}

function hview(b: AnalysisBuild, h: HeadNodes): PathHead {
  let v = b.headViews.get(h.source);
  if (!v) b.headViews.set(h.source, (v = headView(b.model, h)));
  return v;
}

/** Every tool whose suggested roles the analysis relied on, in tool-key order (toolsInOrder is sorted already). */
function relianceEntries(b: AnalysisBuild): RelianceEntry[] {
  const out: RelianceEntry[] = [];
  const all = b.model.toolsInOrder;
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    const e = b.relied.get(t.key);
    if (e) out.push({ tool: t.key, agents: e.agents, roles: t.roles.roles, usedAs: e.usedAs });
  }
  return out;
}

/** One agent session: its nodes and edges, paths (counted, and listed up to the bounds), findings and verdicts. */
function analyzeAgent(b: AnalysisBuild, agent: ResolvedAgent, agentIndex: number): AgentAnalysis {
  const { model, controls, nodes, findings, sinkNodes, relied, paths } = b;
  const aid = nodeIds.agent(agent.id);
  nodes.push({ id: aid, kind: "agent", label: agent.name, agentId: agent.id });
  const held = agent.held;
  const returning = agentReturningTools(model, agent);
  const sinks = agentSinkTools(model, agent);
  // A returning tool's edge into the agent, and the agent's edge to a sink, are on a path exactly
  // when the agent holds both kinds of tool. `heldBy` lines up with `returning` (the held tools with
  // untrusted heads, in held order) and `holds` with `sinks`.
  const holdsBoth = agentHoldsBoth(agent);
  const heldBy: GraphEdge[] = [];
  for (let i = 0; i < held.length; i++) {
    const t = held[i]!;
    if (t.headNodes.length > 0)
      heldBy.push(addEdge(b, t.returningNodeId, aid, "held_by", holdsBoth));
    else if (t.sourceIds.length > 0) addEdge(b, t.returningNodeId, aid, "held_by");
  }
  const holds: GraphEdge[] = [];
  for (let i = 0; i < sinks.length; i++) {
    const s = sinks[i]!;
    if (!sinkNodes.has(s.key)) {
      sinkNodes.add(s.key);
      nodes.push({
        id: s.sinkNodeId,
        kind: "sink",
        label: shownName(s.name),
        tool: s.key,
        serverId: s.serverId,
        group: s.serverId,
        sinkRoles: s.sinkRoles,
        rolesOrigin: s.roles.origin,
        ...(s.isAppOnly ? { isAppOnly: true as const } : {}),
      });
    }
    holds.push(addEdge(b, aid, s.sinkNodeId, "holds", holdsBoth));
  }

  // Reliance on unconfirmed suggestions: every held tool whose roles are a suggestion, including
  // a suggestion that a tool is *not* a sink, since the conclusion rests on it either way.
  for (let i = 0; i < held.length; i++) {
    const t = held[i]!;
    if (t.roles.origin !== "suggested") continue;
    const entry = relied.get(t.key);
    if (entry) entry.agents.push(agent.id);
    else relied.set(t.key, { agents: [agent.id], usedAs: usedAs(b, t) });
  }

  // Distinct heads in first-seen order: arrays for the order, a Set for membership (this runs per
  // returning tool of every agent, the analysis's innermost loop).
  const headIds: NodeId[] = [];
  const headViews: PathHead[] = [];
  const seenHeads = new Set<NodeId>();
  let count = 0;
  let listedHere = 0;
  const pathIdsHere: PathId[] = [];
  for (let i = 0; i < returning.length; i++) {
    const headNodes = returning[i]!.headNodes;
    for (let k = 0; k < headNodes.length; k++) {
      const h = headNodes[k]!;
      if (seenHeads.has(h.source)) continue;
      seenHeads.add(h.source);
      headIds.push(h.source);
      headViews.push(hview(b, h));
    }
  }
  // The edges from heads to returning tools are shared by every agent holding the tool: marked per
  // hop here, and paths counted by product, so the cost is linear in heads + sinks; only the listed
  // paths (at most the named bound) are materialised.
  if (holdsBoth) {
    for (let i = 0; i < returning.length; i++) {
      const r = returning[i]!;
      count += r.headNodes.length * sinks.length;
      const into = b.returnedBy[r.index]!;
      for (let k = 0; k < r.headNodes.length; k++) {
        b.writesInto.get(r.headNodes[k]!)!.onPath = true;
        into[k]!.onPath = true;
      }
    }
  }
  listing: for (let ri = 0; ri < returning.length; ri++) {
    const r = returning[ri]!;
    const into = b.returnedBy[r.index]!;
    for (let k = 0; k < r.headNodes.length; k++) {
      const hn = r.headNodes[k]!;
      const hv = hview(b, hn);
      const firstEdges = [b.writesInto.get(hn)!.id, into[k]!.id, heldBy[ri]!.id];
      for (let si = 0; si < sinks.length; si++) {
        if (listedHere >= MAX_PATHS_LISTED_PER_AGENT || paths.length >= MAX_PATHS_LISTED)
          break listing;
        const s = sinks[si]!;
        const id = pathId(agent.id, hn.head, r.key, s.key);
        paths.push({
          id,
          agentId: agent.id,
          head: hv,
          returningTool: r.key,
          sink: s.key,
          sinkRoles: s.sinkRoles,
          nodeIds: [hn.writers, hn.source, r.returningNodeId, aid, s.sinkNodeId],
          edgeIds: firstEdges.concat(holds[si]!.id),
          reliesOnSuggestions: r.roles.origin === "suggested" || s.roles.origin === "suggested",
        });
        pathIdsHere.push(id);
        listedHere++;
      }
    }
  }
  b.total += count;

  const privateData = held.filter((t) => t.readsPrivateData);
  const outbound = held.filter((t) => t.sinkRoles.includes("network_or_shares"));
  const stateChange = held.filter(
    (t) => t.sinkRoles.includes("writes") || t.sinkRoles.includes("deploys_or_destroys"),
  );
  const sensitive = held.filter(
    (t) => t.readsPrivateData || t.sinkRoles.includes("deploys_or_destroys"),
  );
  const trifectaMet = returning.length > 0 && privateData.length > 0 && outbound.length > 0;
  const rule = {
    untrustedInput: leg(returning),
    sensitiveDataOrSystems: leg(sensitive),
    stateChange: leg(stateChange),
    outboundCommunication: leg(outbound),
  };
  const ruleCount = [
    rule.untrustedInput,
    rule.sensitiveDataOrSystems,
    rule.stateChange,
    rule.outboundCommunication,
  ].filter((l) => l.present).length;
  const reliesOnSuggestions = held.some((t) => t.roles.origin === "suggested");
  const sourceIdsOnPath = agent.pathSources;
  const returnEvidence = agent.returnEvidence;
  // Built by appending rather than map-then-join: this runs once per agent, and appending measured
  // faster on the bench's 5,000-tool review (`npm run bench -- analysis`).
  let returnSummary = "";
  const shown = Math.min(returning.length, MAX_NAMES_IN_PROSE);
  for (let i = 0; i < shown; i++) {
    const r = returning[i]!;
    const heads: string[] = [];
    for (const h of r.headNodes) {
      const v = hview(b, h);
      heads.push(`${v.label} (writers: ${v.boundLabel})`);
    }
    returnSummary += `${i > 0 ? "; " : ""}${shownName(r.name)} returns text from ${namesInProse(heads)}`;
  }
  if (returning.length > shown)
    returnSummary += `; and ${returning.length - shown} more returning tools`;

  if (count > 0) {
    const unbounded = headViews.some((h) => h.bound !== null && UNBOUNDED.has(h.bound.kind));
    findings.push({
      id: findingId("path.to_sensitive_sink", agent.id),
      kind: "path.to_sensitive_sink",
      severity: unbounded ? "critical" : "high",
      title: `${count} path${count === 1 ? "" : "s"} from untrusted text to ${namesInProse(sinks.map((s) => s.name))} in ${agent.name}`,
      controlId: null,
      subject: { agentId: agent.id },
      why: why(
        `${returnSummary}; in the same session ${namesInProse(sinks.map((s) => `${shownName(s.name)} (${s.sinkRoles.join(", ")})`))} can be called with that text (union property)`,
        {
          roles: agent.pathEvidence,
          tools: agent.pathTools,
          sources: sourceIdsOnPath,
          config: [{ path: `agents.${agentIndex}.tools`, value: agent.tools.join(", ") }],
        },
      ),
      nodeIds: headIds.concat(
        returning.map((r) => r.returningNodeId),
        aid,
        sinks.map((s) => s.sinkNodeId),
      ),
      pathIds: pathIdsHere,
    });
  }
  if (trifectaMet) {
    findings.push({
      id: findingId("agent.lethal_trifecta", agent.id),
      kind: "agent.lethal_trifecta",
      severity: "critical",
      title: `${agent.name} holds the lethal trifecta`,
      controlId: null,
      subject: { agentId: agent.id },
      why: why(
        `untrusted input, private data and outbound communication in one session: ${legsInProse(b, [
          ["untrusted input", returning],
          ["private data", privateData],
          ["outbound communication", outbound],
        ])}`,
        {
          roles: collectEvidence(
            collectEvidence(returnEvidence.slice(), privateData, READS_PRIVATE_DATA_MASK),
            outbound,
            OUTBOUND,
          ),
          tools: distinctKeys(returning, privateData, outbound),
          sources: sourceIdsOnPath,
        },
      ),
      nodeIds: [aid],
      pathIds: [],
    });
  }
  if (ruleCount > 2) {
    const legTools = {
      untrustedInput: returning,
      sensitiveDataOrSystems: sensitive,
      stateChange,
      outboundCommunication: outbound,
    };
    const present = RULE_OF_TWO_LEGS.filter((k) => rule[k].present).map(
      (k): [string, ResolvedTool[]] => [RULE_OF_TWO_WORDS[k], legTools[k]],
    );
    findings.push({
      id: findingId("agent.rule_of_two", agent.id),
      kind: "agent.rule_of_two",
      severity: "high",
      title: `${agent.name} breaks the Rule of Two (${ruleCount} of 4)`,
      controlId: null,
      subject: { agentId: agent.id },
      why: why(
        `at most two of untrusted input, sensitive data or systems, state change and outbound communication; this agent has ${ruleCount}: ${legsInProse(b, present)}`,
        {
          roles: collectEvidence(
            collectEvidence(
              collectEvidence(returnEvidence.slice(), sensitive, SENSITIVE),
              stateChange,
              WRITES,
            ),
            outbound,
            OUTBOUND,
          ),
          tools: distinctKeys(returning, sensitive, stateChange, outbound),
          sources: sourceIdsOnPath,
        },
      ),
      nodeIds: [aid],
      pathIds: [],
    });
  }
  const suggested = held.filter((t) => t.roles.origin === "suggested");
  if (suggested.length > 0) {
    findings.push({
      id: findingId("roles.unconfirmed", agent.id),
      kind: "roles.unconfirmed",
      severity: count > 0 || trifectaMet ? "medium" : "low",
      title: `${suggested.length} tool role${suggested.length === 1 ? "" : "s"} in ${agent.name} ${suggested.length === 1 ? "is a suggestion" : "are suggestions"}, not confirmed`,
      controlId: null,
      subject: { agentId: agent.id },
      why: why(
        "the analysis of this agent relies on suggested roles; confirm them in the tool assessment",
        {
          roles: collectEvidence([], suggested, ALL_ROLES), // one entry per suggested role, origin "suggested"
          tools: suggested.map((t) => t.key),
        },
      ),
      nodeIds: [aid],
      pathIds: [],
    });
  }
  findings.push(
    ...mentionFindings(model, agent),
    ...shadowingFindings(model, agent),
    ...headerFindings(model, agent),
    ...appOnlyToolFindings(model, agent),
  );
  const notListed = held.filter((t) => t.presence === "not_listed").map((t) => t.key);
  if (notListed.length > 0) {
    findings.push({
      id: findingId("tools.not_listed", agent.id),
      kind: "tools.not_listed",
      severity: "low",
      title: `${agent.name} holds ${notListed.length} tool${notListed.length === 1 ? "" : "s"} its server does not list`,
      controlId: null,
      subject: { agentId: agent.id },
      why: why(
        "these tools are in the agent's tool set but not in the tool list analysed (snapshot or declared); their roles come from the name alone",
        { tools: notListed },
      ),
      nodeIds: [aid],
      pathIds: [],
    });
  }

  // The controls on this agent's paths: those configured per server (on a server of its returning
  // tools) or per agent (this one), then the missing ones, then the review-wide ones, each with its
  // summary for this agent.
  const controlsOnPath: ControlOnPath[] = [];
  if (count > 0) {
    const servers = new Set(returning.map((r) => r.serverId));
    const cuts = new Set(b.registry.filter((d) => d.entry.canCutPath).map((d) => d.entry.id));
    const onPath = (e: ControlEvaluationBase, summary = e.summary): ControlOnPath => ({
      controlId: e.controlId,
      sitsAt: e.sitsAt,
      status: e.status,
      scope: e.scope,
      effect: cuts.has(e.controlId) ? "cuts" : "narrows",
      summary,
    });
    const scoped = b.registry
      .filter((d) => !d.output.single)
      .flatMap((d) => evaluationsOf(controls, d))
      .concat(controls.absent);
    for (const e of scoped) {
      if (e.scope.kind === "server" && servers.has(e.scope.serverId))
        controlsOnPath.push(onPath(e));
      if (e.scope.kind === "agent" && e.scope.agentId === agent.id) controlsOnPath.push(onPath(e));
    }
    for (const d of b.registry) {
      if (!d.output.single) continue;
      for (const e of evaluationsOf(controls, d))
        controlsOnPath.push(onPath(e, d.summaryOnPath ? d.summaryOnPath(e, agent) : e.summary));
    }
  }

  return {
    agentId: agent.id,
    name: agent.name,
    nodeId: aid,
    tools: agent.tools,
    notListed,
    returningTools: rule.untrustedInput.tools,
    sinkTools: sinks.map((s) => s.key),
    holdsBoth,
    pathCount: count,
    heads: headIds,
    // The legs both verdicts share are the same values (the JSON repeats them; memory does not).
    trifecta: {
      met: trifectaMet,
      untrustedInput: rule.untrustedInput,
      privateData: leg(privateData),
      outboundCommunication: rule.outboundCommunication,
    },
    ruleOfTwo: { ...rule, count: ruleCount, violated: ruleCount > 2 },
    controlsOnPath,
    reliesOnSuggestions,
  };
}

/** A source's view, with its writers and source nodes and the edge between them. */
function addSource(b: AnalysisBuild, source: InputSource): SourceView {
  const r = b.model.sources.get(source.id)!; // every review source is in model.sources
  const head = r.head.head;
  const bound = r.bound;
  const view: SourceView = {
    id: source.id,
    name: source.name,
    kind: source.kind,
    nodeId: r.head.source,
    writersNodeId: r.head.writers,
    bound: bound.bound,
    reachesOutsideBoundary: bound.reachesOutsideBoundary,
    reasons: bound.reasons,
    minAccountsAnAttackNeeds: bound.minAccountsAnAttackNeeds,
    usage: bound.usage,
  };
  b.nodes.push({
    id: view.writersNodeId,
    kind: "writers",
    label: view.bound.label,
    head,
    bound: view.bound,
    reachesOutsideBoundary: view.reachesOutsideBoundary,
    minAccountsAnAttackNeeds: view.minAccountsAnAttackNeeds,
    usage: view.usage,
  });
  b.nodes.push({
    id: view.nodeId,
    kind: "source",
    label: source.name,
    head,
    sourceKind: source.kind,
    reachesOutsideBoundary: view.reachesOutsideBoundary,
  });
  b.writesInto.set(r.head, addEdge(b, view.writersNodeId, view.nodeId, "writes_into"));
  return view;
}

/** A tool that returns text, as a graph node with the edges from its sources (and its unmapped head's nodes). */
function addReturningTool(b: AnalysisBuild, t: ResolvedTool): void {
  const returningId = t.returningNodeId;
  const node: GraphNode = {
    id: returningId,
    kind: "returning",
    label: shownName(t.name),
    tool: t.key,
    serverId: t.serverId,
    group: t.serverId,
    rolesOrigin: t.roles.origin,
  };
  if (t.item !== "tool") node.item = t.item;
  if (t.isAppOnly) node.isAppOnly = true;
  b.nodes.push(node);
  // The model builds headNodes in this order: known sources whose writers reach outside the
  // boundary, then the unmapped head; `intoHeads` follows it.
  const intoHeads: GraphEdge[] = [];
  for (let i = 0; i < t.sourceIds.length; i++) {
    const r = b.model.sources.get(t.sourceIds[i]!);
    if (!r) continue;
    const edge = addEdge(b, r.head.source, returningId, "returned_by");
    if (r.bound.reachesOutsideBoundary) intoHeads.push(edge);
  }
  for (let i = 0; i < t.headNodes.length; i++) {
    const hn = t.headNodes[i]!;
    const h = hn.head;
    if (h.kind !== "unmapped") continue;
    b.nodes.push({
      id: hn.writers,
      kind: "writers",
      label: "unknown writers (no source mapped)",
      head: h,
      bound: null,
      reachesOutsideBoundary: true,
      minAccountsAnAttackNeeds: 1,
      usage: null,
    });
    b.nodes.push({
      id: hn.source,
      kind: "source",
      label: `unmapped text returned by ${shownName(t.name)}`,
      head: h,
      sourceKind: "unmapped",
      reachesOutsideBoundary: true,
    });
    b.writesInto.set(hn, addEdge(b, hn.writers, hn.source, "writes_into"));
    intoHeads.push(addEdge(b, hn.source, returningId, "returned_by"));
  }
  b.returnedBy[t.index] = intoHeads;
}

const ITEM_WORDS: Record<ItemKind, [string, string]> = {
  tool: ["tool", "tools"],
  resource: ["resource", "resources"],
  resource_template: ["resource template", "resource templates"],
};

/** "3 tools and 1 resource": a count of items by kind, tools first. */
function itemsInProse(items: readonly ResolvedTool[]): string {
  const counts: Record<ItemKind, number> = { tool: 0, resource: 0, resource_template: 0 };
  for (const t of items) counts[t.item]++;
  const parts = (Object.keys(counts) as ItemKind[])
    .filter((k) => counts[k] > 0)
    .map((k) => `${counts[k]} ${ITEM_WORDS[k][counts[k] === 1 ? 0 : 1]}`);
  return parts.length <= 1
    ? (parts[0] ?? "0 tools")
    : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** One finding per server, not per tool: the reviewer's action (map the sources) is per server. */
function unmappedSourceFindings(b: AnalysisBuild): void {
  const all = b.model.toolsInOrder;
  const unmappedByServer = new Map<ServerId, ResolvedTool[]>();
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    // An unmapped head exists only when no source is mapped, so it is then the only head.
    if (t.headNodes.length === 0 || t.headNodes[0]!.head.kind !== "unmapped") continue;
    const list = unmappedByServer.get(t.serverId);
    if (list) list.push(t);
    else unmappedByServer.set(t.serverId, [t]);
  }
  unmappedByServer.forEach((list, serverId) => {
    b.findings.push({
      id: findingId("tools.unmapped_sources", serverId),
      kind: "tools.unmapped_sources",
      severity: "medium",
      title: `${itemsInProse(list)} of ${shownName(serverName(b.model, serverId))} return${list.length === 1 ? "s" : ""} text from no mapped source`,
      controlId: null,
      subject: { serverId },
      why: why(
        `these return text but no source is mapped to them, so their writers are unknown and treated as outside the boundary; map their sources: ${namesInProse(list.map((t) => t.name))}`,
        {
          roles: collectEvidence([], list, RETURNS_UNTRUSTED_TEXT_MASK),
          tools: list.map((t) => t.key),
        },
      ),
      nodeIds: list.map((t) => t.returningNodeId),
      pathIds: [],
    });
  });
}

/**
 * One finding per annotation claim that contradicts its tool's name (`readOnlyHint: true` on
 * `delete_branch`): a client that trusts the claim (auto-approving read-only tools, say) is misled,
 * whatever the reviewer confirms, so confirmed tools are reported too. The role kept is the safer
 * reading's (see lib/roles/infer.ts).
 */
function conflictFindings(b: AnalysisBuild): void {
  const serverNames = new Map<string, string>(b.model.review.servers.map((s) => [s.id, s.name]));
  let drawn: Set<string> | null = null;
  for (const t of b.model.toolsInOrder) {
    const conflicts = t.roles.suggestion.conflicts;
    if (conflicts.length === 0 || t.presence !== "listed") continue;
    const server = shownName(serverNames.get(t.serverId) ?? t.serverId);
    const tool = shownName(t.name);
    drawn ??= new Set(b.nodes.map((n) => n.id));
    const nodeIds = [t.returningNodeId, t.sinkNodeId].filter((id) => drawn!.has(id));
    for (const c of conflicts) {
      b.findings.push({
        id: findingId("tools.annotation_contradicts_name", t.key, c.hint),
        kind: "tools.annotation_contradicts_name",
        severity: "medium",
        title: `${server} claims ${c.hint}: ${c.claimed} for ${tool}, which its name contradicts`,
        controlId: null,
        subject: { serverId: t.serverId, tool: t.key },
        why: why(
          `${server} declares ${c.hint}: ${c.claimed} on ${tool}, but ${c.nameReading}; annotations are the server's claims, so the safer reading is kept, and a client that trusts the claim is misled`,
          {
            tools: [t.key],
            roles: t.evidence,
          },
        ),
        nodeIds,
        pathIds: [],
      });
    }
  }
}

const toolView = (t: ResolvedTool): ToolView => ({
  key: t.key,
  item: t.item,
  serverId: t.serverId,
  name: t.name,
  presence: t.presence,
  listOrigin: t.listOrigin,
  roles: t.roles.roles,
  rolesOrigin: t.roles.origin,
  suggestedRoles: t.roles.suggestion.roles,
  suggestionConfidence: t.roles.suggestion.confidence,
  verb: t.roles.suggestion.verb,
  conflicts: t.roles.suggestion.conflicts,
  annotations: t.annotations,
  sourceIds: t.sourceIds,
  returnsUntrustedText: t.headNodes.length > 0,
  sinkRoles: t.sinkRoles,
});

/**
 * Analyse a review. `toolLists` gives, per server, the tools to analyse (see `toolListsFromReview`).
 * Pure and deterministic: the same input yields the same JSON, ids included.
 *
 * The work is done in small functions called per source, tool and agent rather than in loops here:
 * this runs once per analysis, so a loop in it would run unoptimised, or optimised mid-loop and
 * thrown out when later code is reached without type feedback, for the first several analyses.
 */
export function analyzeReview(
  review: Review,
  toolLists: readonly ServerToolList[],
  /** The controls to evaluate: the registry, or a test's registry extending it. */
  registry: ControlRegistry = CONTROLS,
): Analysis {
  const model = buildModel(review, toolLists);
  // Safe: a registry given here extends the built-in one (tests add controls), so its
  // evaluation has every field the built-in type names.
  const controls = evaluateControls(model, registry) as unknown as ControlsEvaluation;
  // Graph: writers → sources → returning tools → agents → sinks. Node ids are built once per tool
  // and head (in the model): at scale, string building dominated the run time.
  const b: AnalysisBuild = {
    model,
    registry,
    controls,
    findings: [...controls.findings],
    nodes: [],
    edges: [],
    writesInto: new Map(),
    returnedBy: new Array<GraphEdge[]>(model.toolsInOrder.length),
    headViews: new Map(),
    sinkNodes: new Set(),
    relied: new Map(),
    usedAs: new Map(),
    paths: [],
    total: 0,
  };
  const sources = review.sources.map((source) => addSource(b, source));
  model.toolsInOrder.forEach((t) => {
    if (t.sourceIds.length > 0 || t.headNodes.length > 0) addReturningTool(b, t);
  });
  const agents: AgentAnalysis[] = model.agents.map((agent, agentIndex) =>
    analyzeAgent(b, agent, agentIndex),
  );
  unmappedSourceFindings(b);
  conflictFindings(b);
  b.findings.push(...cspDomainFindings(model, toolLists));
  b.findings.push(...sharedCacheAnalysisFindings(model, toolLists));
  for (const l of toolLists) {
    if (!l.blocked) continue;
    b.findings.push({
      id: findingId("server.blocked", l.serverId),
      kind: "server.blocked",
      severity: "high",
      title: `${shownName(serverName(model, l.serverId))} is blocked: its live surface differs from its pin`,
      controlId: null,
      subject: { serverId: l.serverId },
      why: why(
        `${l.blocked.reason}; no approval of it is recorded until a reviewer re-pins it with a reason`,
        {
          config: [
            {
              path: `servers.${review.servers.findIndex((s) => s.id === l.serverId)}.pin.surfaceSha256`,
              value: l.blocked.pinnedSurfaceSha256,
            },
          ],
        },
      ),
      nodeIds: [],
      pathIds: [],
    });
  }

  const { findings: _inFindings, ...controlsView } = controls;
  return {
    version: ANALYSIS_VERSION,
    toolLists: toolLists.map((l) => ({
      serverId: l.serverId,
      origin: l.origin,
      toolCount: l.tools.length,
      blocked: l.blocked ?? null,
    })),
    sources,
    tools: model.toolsInOrder.map(toolView),
    graph: { nodes: b.nodes, edges: b.edges },
    agents,
    paths: {
      total: b.total,
      listed: b.paths,
      truncated: b.paths.length < b.total,
      limit: MAX_PATHS_LISTED,
      perAgentLimit: MAX_PATHS_LISTED_PER_AGENT,
    },
    controls: controlsView,
    reliance: relianceEntries(b),
    prompts: promptViews(model, toolLists),
    findings: sortFindings(b.findings),
  };
}
