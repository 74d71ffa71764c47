/**
 * What the Graph section receives: the analysis cut to what it shows. The whole analysis of the
 * 5,000-tool bench review is 13–20 MB of JSON (every tool's role reasons, every finding, every
 * control's node list), and the section painted seconds after it arrived; this view is the
 * default graph (the nodes on paths to sensitive sinks, `focusView`) or, on "Show all", the whole
 * graph, with the listed paths, per-agent verdicts and the controls where they sit, and nothing
 * the section does not draw. A tool's role reasons and a path's findings are fetched when a
 * reviewer opens them (`toolDetail`, `pathDetail`). Pure: the route, the share view and the tests
 * build it from one `Analysis`, so they cannot disagree with the analysis route.
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
import type { Finding } from "@/lib/model/findings";
import type { EdgeId, NodeId, ToolKey } from "@/lib/model/ids";
import type { ControlEvaluationBase } from "@/lib/controls/types";
import { controlDefinition } from "@/lib/controls/registry";
import type { AgentSeparation } from "@/lib/controls/separation";
import type { ToolRole } from "@/lib/review/schema";

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

/** A control as the graph and the controls table draw it: its own findings are in the tool's or path's details. */
export type GraphControl = Omit<ControlEvaluationBase, "findings">;

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
  trifecta: {
    met: boolean;
    untrustedInput: { present: boolean };
    privateData: { present: boolean };
    outboundCommunication: { present: boolean };
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
    credentials: GraphControl[];
    egress: GraphControl[];
    approvals: GraphControl[];
    absent: GraphControl[];
    /** Per agent: whether it holds both, its returning tools, and the split that would cut its paths. */
    separation: GraphControl & {
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

/** The group key a node is drawn in (as components/graph/layout.ts groups them), or null. */
function groupOf(n: GraphNode): string | null {
  if (n.kind === "returning" || n.kind === "sink") return `group:${n.kind}:${n.group}`;
  if (n.kind === "source" && n.head.kind === "unmapped") {
    const slash = n.head.tool.indexOf("/");
    return `group:unmapped:${n.head.tool.slice(0, slash)}`;
  }
  return null;
}

/**
 * Only what the graph draws of a control: its node list (`attachesTo`) is kept where its registry
 * definition draws on the listed nodes (`sink_call`, each agent → sink call); a control drawn on its
 * server's group or on each agent's session is placed from its scope alone.
 */
function graphControl(c: ControlEvaluationBase): GraphControl {
  const { findings: _findings, attachesTo, ...rest } = c;
  const drawsOnNodes = controlDefinition(c.controlId)?.graph?.kind === "sink_call";
  return { ...rest, attachesTo: drawsOnNodes ? attachesTo : [] };
}

const leg = (l: { present: boolean }) => ({ present: l.present });

/** The Graph section's view of an analysis: the default view's nodes, or the whole graph. */
export function graphSectionData(analysis: Analysis, scope: GraphScope): GraphSectionData {
  const focus = focusView(analysis);
  const keep = scope === "focus" && focus ? focus.nodes : null;
  const nodes = keep ? analysis.graph.nodes.filter((n) => keep.has(n.id)) : analysis.graph.nodes;
  const edges = keep
    ? analysis.graph.edges.filter((e) => keep.has(e.from) && keep.has(e.to))
    : analysis.graph.edges;
  const groupTotals: Record<string, number> = {};
  for (const n of analysis.graph.nodes) {
    const k = groupOf(n);
    if (k) groupTotals[k] = (groupTotals[k] ?? 0) + 1;
  }
  const sinks = new Set<ToolKey>(analysis.paths.listed.map((p) => p.sink));
  const c = analysis.controls;
  return {
    version: analysis.version,
    scope: keep ? "focus" : "whole",
    wholeNodeCount: analysis.graph.nodes.length,
    focus: focus ? { basis: focus.basis, nodeCount: focus.nodes.size } : null,
    groupTotals,
    toolLists: analysis.toolLists,
    sources: analysis.sources.map((s) => ({
      id: s.id,
      name: s.name,
      writersNodeId: s.writersNodeId,
      reasons: s.reasons,
    })),
    tools: analysis.tools
      .filter((t) => sinks.has(t.key))
      .map((t) => ({ key: t.key, rolesOrigin: t.rolesOrigin })),
    graph: { nodes, edges },
    agents: analysis.agents.map((a) => ({
      agentId: a.agentId,
      name: a.name,
      nodeId: a.nodeId,
      toolCount: a.tools.length,
      returningTools: a.returningTools,
      sinkTools: a.sinkTools,
      holdsBoth: a.holdsBoth,
      pathCount: a.pathCount,
      trifecta: {
        met: a.trifecta.met,
        untrustedInput: leg(a.trifecta.untrustedInput),
        privateData: leg(a.trifecta.privateData),
        outboundCommunication: leg(a.trifecta.outboundCommunication),
      },
      ruleOfTwo: {
        untrustedInput: leg(a.ruleOfTwo.untrustedInput),
        sensitiveDataOrSystems: leg(a.ruleOfTwo.sensitiveDataOrSystems),
        stateChange: leg(a.ruleOfTwo.stateChange),
        outboundCommunication: leg(a.ruleOfTwo.outboundCommunication),
        count: a.ruleOfTwo.count,
        violated: a.ruleOfTwo.violated,
      },
      controlsOnPath: a.controlsOnPath,
      reliesOnSuggestions: a.reliesOnSuggestions,
    })),
    paths: analysis.paths,
    controls: {
      credentials: c.credentials.map(graphControl),
      egress: c.egress.map(graphControl),
      approvals: c.approvals.map(graphControl),
      absent: c.absent.map(graphControl),
      separation: {
        ...graphControl(c.separation),
        inPlace: c.separation.inPlace,
        agents: c.separation.agents.map((a) => ({
          agentId: a.agentId,
          holdsBoth: a.holdsBoth,
          returningTools: a.returningTools,
          split: a.split,
        })),
      },
      statementsOfIntent: c.statementsOfIntent,
      residue: c.residue,
    },
  };
}

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

export function toolDetail(analysis: Pick<Analysis, "tools">, key: string): ToolDetail | null {
  const t = analysis.tools.find((x) => x.key === key);
  return t
    ? { key: t.key, roles: t.roles, rolesOrigin: t.rolesOrigin, suggestedRoles: t.suggestedRoles }
    : null;
}

/** The findings about a path: those naming it, then those about a node on it that name no path. */
export type PathDetail = { pathId: string; onPath: Finding[]; atNodes: Finding[] };

export function pathDetail(
  analysis: Pick<Analysis, "findings" | "paths">,
  pathId: string,
): PathDetail | null {
  const p = analysis.paths.listed.find((x) => x.id === pathId);
  if (!p) return null;
  const nodes = new Set<string>(p.nodeIds);
  return {
    pathId,
    onPath: analysis.findings.filter((f) => f.pathIds.includes(p.id)),
    atNodes: analysis.findings.filter(
      (f) => f.pathIds.length === 0 && f.nodeIds.some((n) => nodes.has(n)),
    ),
  };
}
