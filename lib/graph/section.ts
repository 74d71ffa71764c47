/**
 * What the Graph section receives: the analysis cut to what it shows, as plain data. The whole
 * analysis of the 5,000-tool bench review is 13–20 MB of JSON (every tool's role reasons, every
 * finding, every control's node list), and the section painted seconds after it arrived; this view
 * is the default graph (the nodes on paths to sensitive sinks, `focusView`) or, on "Show all", the
 * whole graph, with the listed paths, per-agent verdicts and the controls where they sit, and
 * nothing the section does not draw. A tool's role reasons and a path's findings are fetched when a
 * reviewer opens them (`ToolDetail`, `PathDetail`). `lib/graph/view.ts` builds it from one
 * `Analysis` (for the route, the share view and the tests, so they cannot disagree).
 *
 * Everything the graph needs of the control registry (names, which control can cut the path, where
 * each is drawn, each agent session's mark) is resolved there and sent as data: this module and the
 * browser's graph code import no control module, so the Graph section does not load the controls'
 * evaluation code (the egress policy parser alone is a YAML parser and an IP library).
 *
 * On the wire edges are index pairs into the node list and paths carry no edge ids (each is its
 * consecutive node ids joined by `->`, as in `lib/analysis/ids.ts`); `decodeGraphSection`
 * restores both, so components read the analysis's own node, edge and path types.
 */
import type {
  AgentAnalysis,
  Analysis,
  GraphEdge,
  GraphNode,
  PathView,
  SourceView,
  ToolView,
} from "@/lib/analysis/analyze";
import type { ControlCatalogEntry } from "@/lib/controls/catalog";
import type { AgentSeparation } from "@/lib/controls/separation";
import type {
  ControlEvaluationBase,
  ControlGraphPlacement,
  ControlStatus,
} from "@/lib/controls/types";
import type { AgentId } from "@/lib/ids";
import type { Finding } from "@/lib/model/findings";
import type { EdgeId, NodeId } from "@/lib/model/ids";
import type { ToolRole } from "@/lib/review/schema";
import type { GraphTrifectaLeg } from "./trifecta";

/** `focus`: the nodes on paths to sensitive sinks (the default view); `whole`: every node. */
export type GraphScope = "focus" | "whole";

/**
 * The sinks the graph opens on. Every sink the analysis names is a sensitive sink (it writes,
 * deploys or destroys, or reaches the network or shares), but on a real 200-tool server most
 * `writes` are suggestions fired by a word of a description, and a graph of 190 sinks is not read.
 * So the default view keeps the sinks that act beyond the session or cannot be undone: those that
 * deploy or destroy, reach the network or share, and the `writes` the reviewer confirmed. Suggested
 * writes stay one action away (the whole graph), and in the path list and table.
 */
export const FOCUS_SINK_ROLES: readonly ToolRole[] = ["deploys_or_destroys", "network_or_shares"];

type SinkLike = { sinkRoles: readonly ToolRole[]; rolesOrigin: "confirmed" | "suggested" };
export const isFocusSink = (s: SinkLike): boolean =>
  s.sinkRoles.some((r) => FOCUS_SINK_ROLES.includes(r)) ||
  (s.rolesOrigin === "confirmed" && s.sinkRoles.includes("writes"));

export type FocusView = {
  /** Graph nodes on a path to a sink the default view keeps. */
  nodes: Set<NodeId>;
  /** `sensitive`: paths to the sinks `isFocusSink` keeps; `paths`: no path reaches one, so every path's nodes. */
  basis: "sensitive" | "paths";
};

/**
 * What the graph shows before "Show all": the nodes on paths to the sinks `isFocusSink` keeps, or,
 * when no path reaches one, the nodes on any path; null when there is no path (everything shows).
 * From the graph's edges, not the listed paths (the listing is bounded): by the union property a
 * returning tool on a path in a session reaches every sink of that session on a path.
 */
export function focusView(analysis: Pick<Analysis, "graph">): FocusView | null {
  const { nodes, edges } = analysis.graph;
  const onPathInto = new Set<NodeId>();
  for (const e of edges) if (e.onPath && e.kind === "holds") onPathInto.add(e.to);
  const sinksOnPath = nodes.filter((n) => n.kind === "sink" && onPathInto.has(n.id));
  if (sinksOnPath.length === 0) return null;
  const focused = sinksOnPath.filter((n) => n.kind === "sink" && isFocusSink(n));
  const basis = focused.length > 0 ? "sensitive" : "paths";
  const keep = new Set<NodeId>((focused.length > 0 ? focused : sinksOnPath).map((n) => n.id));
  // Walk the on-path edges backwards, one column at a time: sinks → agents → returning tools → sources → writers.
  for (const kind of ["holds", "held_by", "returned_by", "writes_into"] as const) {
    for (const e of edges) if (e.onPath && e.kind === kind && keep.has(e.to)) keep.add(e.from);
  }
  return { nodes: keep, basis };
}

/** A control evaluation as the graph and the controls table draw it: its own findings are in the tool's or path's details. */
export type GraphControl = Omit<ControlEvaluationBase, "findings">;

/** What the graph shows of a registry control's definition. */
export type GraphControlEntry = Pick<ControlCatalogEntry, "id" | "name" | "canCutPath"> & {
  /** Where the graph draws it (`ControlGraphPlacement`). */
  drawnOn: ControlGraphPlacement["kind"];
};

/** A control drawn on each agent session: its mark at one session, with the sentences in words. */
export type GraphSessionMark = {
  controlId: string;
  agentId: AgentId;
  status: ControlStatus;
  cutsPath: boolean;
  summary: string;
  /** Why the control cuts the path at this session, when it does. */
  cut: string | null;
};

/** An agent as the verdicts table, the path details and the graph's agent nodes show it. */
export type GraphAgent = Pick<
  AgentAnalysis,
  | "agentId"
  | "name"
  | "nodeId"
  | "returningTools"
  | "sinkTools"
  | "holdsBoth"
  | "pathCount"
  | "controlsOnPath"
  | "reliesOnSuggestions"
> & {
  toolCount: number;
  /** The legs with the tools that make each (the first TRIFECTA_LEG_TOOLS_MAX), for the graph's leg marks. */
  trifecta: {
    met: boolean;
    untrustedInput: GraphTrifectaLeg;
    privateData: GraphTrifectaLeg;
    outboundCommunication: GraphTrifectaLeg;
  };
  ruleOfTwo: {
    untrustedInput: { present: boolean };
    sensitiveDataOrSystems: { present: boolean };
    stateChange: { present: boolean };
    outboundCommunication: { present: boolean };
    count: number;
    violated: boolean;
  };
};

export type GraphSectionData = {
  version: Analysis["version"];
  scope: GraphScope;
  /** Nodes in the whole graph, and in the default view (null when there is no path, so the view is the whole graph). */
  wholeNodeCount: number;
  focus: { basis: FocusView["basis"]; nodeCount: number } | null;
  /** Members of each server group (`group:<role>:<serverId>`, components/graph/layout.ts) in the whole graph. */
  groupTotals: Record<string, number>;
  toolLists: Analysis["toolLists"];
  /** Each source's writer-bound reasons, for its writers node. */
  sources: Pick<SourceView, "id" | "name" | "writersNodeId" | "reasons">[];
  /** Whether each sink of a listed path was confirmed or suggested (the path list's order). */
  tools: Pick<ToolView, "key" | "rolesOrigin">[];
  /** The nodes of `scope`, and the edges between them. */
  graph: { nodes: GraphNode[]; edges: GraphEdge[] };
  agents: GraphAgent[];
  paths: Analysis["paths"];
  controls: {
    /** The registry's controls, in its order. */
    catalog: GraphControlEntry[];
    /** Every evaluation, configured then absent, grouped by control in registry order: the controls table's rows. */
    evaluations: GraphControl[];
    /** The marks of the controls drawn on agent sessions, control by control. */
    sessionMarks: GraphSessionMark[];
    /** Per agent: whether it holds both, its returning tools, and the split that would cut its paths. */
    separation: {
      inPlace: boolean;
      agents: Pick<AgentSeparation, "agentId" | "holdsBoth" | "returningTools" | "split">[];
    };
    statementsOfIntent: Analysis["controls"]["statementsOfIntent"];
    residue: Analysis["controls"]["residue"];
  };
};

const EDGE_KINDS = ["writes_into", "returned_by", "held_by", "holds"] as const;

type ControlOnPath = AgentAnalysis["controlsOnPath"][number];

/**
 * The JSON the graph route sends (see the module comment). An agent's controls on path are
 * indices into `controlsOnPath`: a server's credential and egress are the same entry in every
 * agent holding its tools, 90 entries an agent on the bench review.
 */
export type GraphSectionWire = Omit<GraphSectionData, "graph" | "paths" | "agents"> & {
  graph: { nodes: GraphNode[]; edges: [from: number, to: number, kind: number, onPath: 0 | 1][] };
  paths: Omit<Analysis["paths"], "listed"> & { listed: Omit<PathView, "edgeIds">[] };
  agents: (Omit<GraphAgent, "controlsOnPath"> & { controlsOnPath: number[] })[];
  controlsOnPath: ControlOnPath[];
};

const edgeIdOf = (from: NodeId, to: NodeId) => `${from}->${to}` as EdgeId;

export function encodeGraphSection(data: GraphSectionData): GraphSectionWire {
  const index = new Map<NodeId, number>(data.graph.nodes.map((n, i) => [n.id, i]));
  const table: ControlOnPath[] = [];
  const seen = new Map<string, number>();
  const ref = (c: ControlOnPath) => {
    const k = JSON.stringify(c);
    let i = seen.get(k);
    if (i === undefined) {
      i = table.push(c) - 1;
      seen.set(k, i);
    }
    return i;
  };
  return {
    ...data,
    agents: data.agents.map((a) => ({ ...a, controlsOnPath: a.controlsOnPath.map(ref) })),
    controlsOnPath: table,
    graph: {
      nodes: data.graph.nodes,
      edges: data.graph.edges.map((e) => [
        index.get(e.from)!,
        index.get(e.to)!,
        EDGE_KINDS.indexOf(e.kind),
        e.onPath ? 1 : 0,
      ]),
    },
    paths: { ...data.paths, listed: data.paths.listed.map(({ edgeIds: _e, ...p }) => p) },
  };
}

/** The inverse of `encodeGraphSection`; throws on an edge naming a node or kind that is not there. */
export function decodeGraphSection(wire: GraphSectionWire): GraphSectionData {
  const nodes = wire.graph.nodes;
  const edges = wire.graph.edges.map(([f, t, k, onPath]): GraphEdge => {
    const from = nodes[f]?.id;
    const to = nodes[t]?.id;
    const kind = EDGE_KINDS[k];
    if (from === undefined || to === undefined || kind === undefined)
      throw new Error(`graph edge [${f}, ${t}, ${k}] names no node or kind`);
    return { id: edgeIdOf(from, to), from, to, kind, onPath: onPath === 1 };
  });
  const listed = wire.paths.listed.map((p): PathView => ({
    ...p,
    edgeIds: p.nodeIds.slice(1).map((to, i) => edgeIdOf(p.nodeIds[i]!, to)),
  }));
  const { controlsOnPath: table, ...rest } = wire;
  const agents = wire.agents.map((a) => ({
    ...a,
    controlsOnPath: a.controlsOnPath.map((i) => {
      const c = table[i];
      if (c === undefined) throw new Error(`agent ${a.agentId} names control ${i}, not sent`);
      return c;
    }),
  }));
  return { ...rest, agents, graph: { nodes, edges }, paths: { ...wire.paths, listed } };
}

/** A tool's roles with every reason behind each, for its node's tooltip and description. */
export type ToolDetail = Pick<ToolView, "key" | "roles" | "rolesOrigin" | "suggestedRoles">;

/** The findings about a path: those naming it, then those about a node on it that name no path. */
export type PathDetail = { pathId: string; onPath: Finding[]; atNodes: Finding[] };
