/**
 * Layout of the source-to-sink graph: pure geometry over the analysis the server returned (no
 * analysis is recomputed here). Five columns, writers → sources → returning tools → agents → sinks;
 * returning tools and sinks are grouped by server, and so are the unmapped heads (the text of a
 * returning tool with no source mapped: one per such tool, so a server not yet assessed has as many
 * as it has tools). A collapsed group is one node standing for its members. Rows are fixed-height
 * so 200+ tools stay legible in a scroll container; agents and sinks sit at the barycentre of what
 * feeds them, pushed apart so they never overlap.
 */
import type { Analysis, GraphEdge, GraphNode } from "@/lib/analysis/analyze";
import { splitToolKey, type EdgeId, type NodeId } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import {
  SINK_GROUP_ROLES,
  sinkGroupId,
  sinkGroupRole,
  type SinkGroupRole,
} from "@/lib/graph/sink-groups";
import { selfPaths } from "./view-model";

export const COLUMNS = [
  { id: "writers", label: "Writers (bound)", width: 224 },
  { id: "sources", label: "Sources", width: 176 },
  { id: "returning", label: "Returning tools", width: 166 },
  { id: "agents", label: "Agent sessions", width: 150 },
  { id: "sinks", label: "Sensitive sinks", width: 144 },
] as const;
export type ColumnIndex = 0 | 1 | 2 | 3 | 4;

/** Gaps after each column; the last is wider to hold the approval marker on the sink call. */
export const COLUMN_GAPS = [52, 52, 52, 84] as const;
/** The agent column grows to fit its longest name up to this width, so an agent's name is not cut while there is room. */
export const AGENT_COLUMN_MAX = 280;
/** The sinks column grows to fit its longest label (a sink, or a group's name and count) up to this width. */
export const SINK_COLUMN_MAX = 260;
/** Room beside an agent's name inside its node (the label's inset and the session boundary). */
const AGENT_LABEL_PAD = 16;
/** Drawn before the sink label of a tool on a self-path. */
export const SELF_PATH_MARK = "↺";
export const ROW = 30;
export const NODE_H = 22;
export const GROUP_GAP = 12;
export const PAD_TOP = 14;
/** An agent's row: its node inside a session boundary with the separation marker on its border. */
export const AGENT_BLOCK = 50;
/** Groups with more members than this start collapsed. */
export const COLLAPSE_ABOVE = 12;
/** Columns are centred on each other only while the graph fits in about one screen; taller graphs start at the top. */
export const CENTRE_BELOW = 480;

/** `unmapped`: the unmapped heads of a server's tools, in the sources column (their writers beside them while expanded). */
export type GroupRole = "returning" | "sink" | "unmapped";
export type GroupKey = `group:${GroupRole}:${string}`;
export const groupKey = (role: GroupRole, serverId: string): GroupKey =>
  `group:${role}:${serverId}`;

export type LayoutNode = {
  /** The visible id: a graph node id, or a group key for a group header or a collapsed group. */
  key: string;
  kind: GraphNode["kind"] | "group";
  column: ColumnIndex;
  x: number;
  y: number;
  w: number;
  h: number;
  label: string;
  /** Graph nodes this visible node stands for (one, or a collapsed group's members). */
  members: NodeId[];
  node: GraphNode | null;
  /** `count`: members drawn in this view; `total`: members in the whole graph. */
  group: {
    role: GroupRole;
    serverId: string;
    count: number;
    total: number;
    collapsed: boolean;
    /** A sink group's role: the sinks of a server are grouped by what they do (lib/graph/sink-groups.ts). */
    sinkRole?: SinkGroupRole;
  } | null;
  onPath: boolean;
  /** A sink whose tool is also a returning tool on a path in a session holding it: its own output reaches it (drawn with SELF_PATH_MARK). */
  selfPath: boolean;
};

export type GroupBox = {
  key: GroupKey;
  role: GroupRole;
  serverId: string;
  x: number;
  y: number;
  w: number;
  h: number;
  collapsed: boolean;
  sinkRole?: SinkGroupRole;
};

/** The key of the visible edge between two visible nodes. */
export const visibleEdgeKey = (from: string, to: string): string => `${from}->${to}`;

export type LayoutEdge = {
  key: string;
  from: string;
  to: string;
  kind: GraphEdge["kind"];
  onPath: boolean;
  members: EdgeId[];
};

export type GraphLayout = {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  groups: GroupBox[];
  width: number;
  height: number;
  /** Graph node id → the visible node standing for it. */
  rep: Map<NodeId, string>;
  /** Visible node keys per column, top to bottom. */
  columns: string[][];
  byKey: Map<string, LayoutNode>;
  /** Graph edge id → visible edge key. */
  edgeRep: Map<EdgeId, string>;
  /** Left edge and width of each column (the agent column is sized to its names). */
  columnXs: number[];
  columnWidths: number[];
};

export type LayoutOptions = {
  serverOrder?: readonly string[];
  /** Draw only these graph nodes (and the edges between them); groups count their drawn members against their total. */
  only?: ReadonlySet<NodeId>;
  /** The width of an agent's label as drawn; the agent column grows to the widest, up to AGENT_COLUMN_MAX. */
  measureAgent?: (label: string) => number;
  /**
   * The room a sink's label needs (its text and the node's insets), or a sink group's header given
   * its server id, role and member count; the sinks column grows to the widest, up to SINK_COLUMN_MAX.
   */
  measureSink?: (
    label: string,
    group?: { serverId: string; role: SinkGroupRole; count: number },
  ) => number;
  /** Members of each group in the whole graph, when `full` holds only part of it (the server's default view). */
  groupTotals?: Readonly<Record<string, number>>;
};

const DEFAULT_WIDTHS: readonly number[] = COLUMNS.map((c) => c.width);

export function columnX(c: ColumnIndex, widths: readonly number[] = DEFAULT_WIDTHS): number {
  let x = 4;
  for (let i = 0; i < c; i++) x += widths[i]! + COLUMN_GAPS[i]!;
  return x;
}
export const GRAPH_WIDTH = columnX(4) + COLUMNS[4].width + 4;

const COLUMN_OF: Record<GraphNode["kind"], ColumnIndex> = {
  writers: 0,
  source: 1,
  returning: 2,
  agent: 3,
  sink: 4,
};

/** The group a node belongs to, if any: its server's tools, its server's sinks of one role, or its server's unmapped heads. */
export function groupOf(n: GraphNode): GroupKey | null {
  if (n.kind === "sink") return groupKey("sink", sinkGroupId(n.group, sinkGroupRole(n.sinkRoles)));
  if (n.kind === "returning") return groupKey(n.kind, n.group);
  if (n.kind === "source" && n.head.kind === "unmapped")
    return groupKey("unmapped", splitToolKey(n.head.tool).serverId);
  return null;
}

/** Groups that start collapsed: those with more than `COLLAPSE_ABOVE` members (of those drawn, with `only`). */
export function defaultCollapsed(
  analysis: Pick<Analysis, "graph">,
  only?: ReadonlySet<NodeId>,
): Set<GroupKey> {
  const counts = new Map<GroupKey, number>();
  for (const n of analysis.graph.nodes) {
    if (only && !only.has(n.id)) continue;
    const k = groupOf(n);
    if (k) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return new Set([...counts].filter(([, c]) => c > COLLAPSE_ABOVE).map(([k]) => k));
}

/** Every group key of the graph. */
export function allGroups(analysis: Pick<Analysis, "graph">): Set<GroupKey> {
  const out = new Set<GroupKey>();
  for (const n of analysis.graph.nodes) {
    const k = groupOf(n);
    if (k) out.add(k);
  }
  return out;
}

/** Appends to the list at `key`, in place: copying the list on each append was quadratic in a server's tools. */
function appendTo<K, V>(lists: Map<K, V[]>, key: K, value: V): void {
  const list = lists.get(key);
  if (list) list.push(value);
  else lists.set(key, [value]);
}

type Block = { keys: string[]; height: number; desired: number; place: (top: number) => void };

/** Stack blocks in order of desired centre, never overlapping; returns the bottom. */
function stackByDesire(blocks: Block[], top: number): number {
  const sorted = [...blocks].sort((a, b) => a.desired - b.desired);
  let cursor = top;
  for (const b of sorted) {
    const t = Math.max(cursor, b.desired - b.height / 2);
    b.place(t);
    cursor = t + b.height + GROUP_GAP;
  }
  return cursor;
}

export function layoutGraph(
  full: Pick<Analysis, "graph" | "toolLists">,
  collapsed: ReadonlySet<string>,
  options: LayoutOptions = {},
): GraphLayout {
  const { serverOrder, only, measureAgent, measureSink, groupTotals } = options;
  const analysis = only
    ? {
        ...full,
        graph: {
          nodes: full.graph.nodes.filter((n) => only.has(n.id)),
          edges: full.graph.edges.filter((e) => only.has(e.from) && only.has(e.to)),
        },
      }
    : full;
  const totals = new Map<string, number>(Object.entries(groupTotals ?? {}));
  if (!groupTotals) {
    for (const n of full.graph.nodes) {
      const k = groupOf(n);
      if (k) totals.set(k, (totals.get(k) ?? 0) + 1);
    }
  }
  const selfPathSinks = selfPaths(full).sinkNodes;
  const widths = [...DEFAULT_WIDTHS];
  if (measureAgent) {
    let widest = 0;
    for (const n of analysis.graph.nodes)
      if (n.kind === "agent") widest = Math.max(widest, measureAgent(shownName(n.label)));
    widths[3] = Math.min(
      AGENT_COLUMN_MAX,
      Math.max(widths[3]!, Math.ceil(widest + AGENT_LABEL_PAD)),
    );
  }
  const xs = ([0, 1, 2, 3, 4] as const).map((c) => columnX(c, widths));
  const placed: LayoutNode[] = [];
  const byKey = new Map<string, LayoutNode>();
  const nodes = {
    push: (n: LayoutNode) => {
      placed.push(n);
      byKey.set(n.key, n);
    },
    [Symbol.iterator]: () => placed[Symbol.iterator](),
  };
  const groups: GroupBox[] = [];
  const rep = new Map<NodeId, string>();
  const onPathNodes = new Set<NodeId>();
  for (const e of analysis.graph.edges) {
    if (e.onPath) {
      onPathNodes.add(e.from);
      onPathNodes.add(e.to);
    }
  }
  const order = serverOrder ?? analysis.toolLists.map((l) => l.serverId);
  const serverRank = (id: string) => {
    const i = order.indexOf(id);
    return i === -1 ? order.length : i;
  };

  const mk = (n: GraphNode, y: number): LayoutNode => {
    const column = COLUMN_OF[n.kind];
    // Labels are shown with hidden characters revealed: the analysis does so for tool names, and
    // this covers the reviewer's names too (sources and agents can come from an imported file).
    const selfPath = n.kind === "sink" && selfPathSinks.has(n.id);
    const label = selfPath ? `${SELF_PATH_MARK} ${shownName(n.label)}` : shownName(n.label);
    return {
      key: n.id,
      kind: n.kind,
      column,
      x: xs[column]!,
      y,
      w: widths[column]!,
      h: NODE_H,
      label,
      members: [n.id],
      node: n,
      group: null,
      onPath: onPathNodes.has(n.id),
      selfPath,
    };
  };

  // Writers and sources: one row per source, writers beside the source they write into. Mapped
  // sources first, then the unmapped heads grouped by server.
  const mappedSources: GraphNode[] = [];
  const unmappedByServer = new Map<string, GraphNode[]>();
  for (const n of analysis.graph.nodes) {
    if (n.kind !== "source") continue;
    if (n.head.kind === "source") mappedSources.push(n);
    else {
      appendTo(unmappedByServer, splitToolKey(n.head.tool).serverId, n);
    }
  }
  const writersByHead = new Map<string, GraphNode>();
  for (const n of analysis.graph.nodes)
    if (n.kind === "writers") writersByHead.set(n.id.slice("writers:".length), n);
  /** A source's row: the source, and its writers beside it. */
  const placeSourceRow = (
    source: GraphNode,
    y: number,
    labels?: { source: string; writers: string },
  ) => {
    const sourceNode = mk(source, y);
    nodes.push(labels ? { ...sourceNode, label: labels.source } : sourceNode);
    const w = writersByHead.get(source.id.slice("source:".length));
    if (w) {
      const writersNode = mk(w, y);
      nodes.push(labels ? { ...writersNode, label: labels.writers } : writersNode);
    }
  };

  // Returning tools grouped by server.
  const grouped = (kind: "returning" | "sink") => {
    const byServer = new Map<string, GraphNode[]>();
    for (const n of analysis.graph.nodes) {
      if (n.kind === kind) appendTo(byServer, n.group, n);
    }
    return [...byServer].sort(([a], [b]) => serverRank(a) - serverRank(b) || (a < b ? -1 : 1));
  };
  /** Sinks grouped by server, then by role, most severe first. */
  const sinkGroups = (): [string, SinkGroupRole, GraphNode[]][] =>
    grouped("sink").flatMap(([serverId, members]) => {
      const byRole = new Map<SinkGroupRole, GraphNode[]>();
      for (const m of members)
        if (m.kind === "sink") appendTo(byRole, sinkGroupRole(m.sinkRoles), m);
      return SINK_GROUP_ROLES.flatMap((role) => {
        const list = byRole.get(role);
        return list ? [[serverId, role, list] as [string, SinkGroupRole, GraphNode[]]] : [];
      });
    });
  const sinkGrouping = sinkGroups();
  if (measureSink) {
    let widest = 0;
    for (const [serverId, role, members] of sinkGrouping) {
      widest = Math.max(widest, measureSink("", { serverId, role, count: members.length }));
      // A collapsed group draws none of its members.
      if (collapsed.has(groupKey("sink", sinkGroupId(serverId, role)))) continue;
      for (const m of members) widest = Math.max(widest, measureSink(shownName(m.label)));
    }
    widths[4] = Math.min(SINK_COLUMN_MAX, Math.max(widths[4]!, Math.ceil(widest)));
  }
  const groupHeight = (count: number, isCollapsed: boolean) =>
    (isCollapsed ? ROW : ROW * (count + 1)) + 8;

  const placeGroup = (
    role: GroupRole,
    serverId: string,
    members: GraphNode[],
    top: number,
    sinkRole?: SinkGroupRole,
  ) => {
    const key = groupKey(role, sinkRole ? sinkGroupId(serverId, sinkRole) : serverId);
    const isCollapsed = collapsed.has(key);
    const column: ColumnIndex = role === "returning" ? 2 : 4;
    const x = xs[column]!;
    const w = widths[column]!;
    const height = groupHeight(members.length, isCollapsed);
    groups.push({
      key,
      role,
      serverId,
      x: x - 4,
      y: top,
      w: w + 8,
      h: height - 6,
      collapsed: isCollapsed,
      ...(sinkRole ? { sinkRole } : {}),
    });
    nodes.push({
      key,
      kind: "group",
      column,
      x,
      y: top + 6,
      w,
      h: NODE_H,
      label: serverId,
      members: isCollapsed ? members.map((m) => m.id) : [],
      node: null,
      group: {
        role,
        serverId,
        count: members.length,
        total: totals.get(key) ?? members.length,
        collapsed: isCollapsed,
        ...(sinkRole ? { sinkRole } : {}),
      },
      onPath: members.some((m) => onPathNodes.has(m.id)),
      selfPath: false,
    });
    members.forEach((m, i) => {
      if (isCollapsed) rep.set(m.id, key);
      else nodes.push(mk(m, top + 6 + ROW * (i + 1)));
    });
  };

  /**
   * A server's unmapped heads, in the sources column. Expanded: a header, then a row per head named
   * by its tool (the header says what they are), its writers beside it. Collapsed: the group node
   * stands for the heads, and one "unknown writers" node beside it for all their writers.
   */
  const placeUnmappedGroup = (serverId: string, members: GraphNode[], top: number) => {
    const key = groupKey("unmapped", serverId);
    const isCollapsed = collapsed.has(key);
    const x = xs[1]!;
    const w = widths[1]!;
    groups.push({
      key,
      role: "unmapped",
      serverId,
      x: x - 4,
      y: top,
      w: w + 8,
      h: groupHeight(members.length, isCollapsed) - 6,
      collapsed: isCollapsed,
    });
    nodes.push({
      key,
      kind: "group",
      column: 1,
      x,
      y: top + 6,
      w,
      h: NODE_H,
      label: serverId,
      members: isCollapsed ? members.map((m) => m.id) : [],
      node: null,
      group: {
        role: "unmapped",
        serverId,
        count: members.length,
        total: totals.get(key) ?? members.length,
        collapsed: isCollapsed,
      },
      onPath: members.some((m) => onPathNodes.has(m.id)),
      selfPath: false,
    });
    const writers = members
      .map((m) => writersByHead.get(m.id.slice("source:".length)))
      .filter((w): w is GraphNode => w !== undefined);
    if (isCollapsed && writers[0]) {
      const writersKey = `writers-of:${key}`;
      nodes.push({
        ...mk(writers[0], top + 6),
        key: writersKey,
        label: "unknown writers",
        members: writers.map((w) => w.id),
        onPath: writers.some((w) => onPathNodes.has(w.id)),
      });
      for (const w of writers) rep.set(w.id, writersKey);
    }
    members.forEach((m, i) => {
      if (isCollapsed) {
        rep.set(m.id, key);
      } else if (m.kind === "source" && m.head.kind === "unmapped") {
        placeSourceRow(m, top + 6 + ROW * (i + 1), {
          source: `returned by ${shownName(splitToolKey(m.head.tool).tool)}`,
          writers: "unknown writers",
        });
      }
    });
  };

  const returningGroups = grouped("returning");
  const unmappedGroups = [...unmappedByServer].sort(
    ([a], [b]) => serverRank(a) - serverRank(b) || (a < b ? -1 : 1),
  );
  const unmappedHeight = unmappedGroups.reduce(
    (h, [serverId, m]) =>
      h + groupHeight(m.length, collapsed.has(groupKey("unmapped", serverId))) + GROUP_GAP,
    0,
  );
  const unmappedGap = mappedSources.length > 0 && unmappedGroups.length > 0 ? GROUP_GAP : 0;
  const sourcesHeight = mappedSources.length * ROW + unmappedGap + unmappedHeight;
  const returningHeight = returningGroups.reduce(
    (h, [serverId, m]) =>
      h + groupHeight(m.length, collapsed.has(groupKey("returning", serverId))) + GROUP_GAP,
    0,
  );
  const tallest = Math.max(sourcesHeight, returningHeight);
  const centre = tallest <= CENTRE_BELOW;
  const sourcesTop = PAD_TOP + (centre ? (tallest - sourcesHeight) / 2 : 0);
  mappedSources.forEach((source, i) => placeSourceRow(source, sourcesTop + i * ROW));
  let unmappedTop = sourcesTop + mappedSources.length * ROW + unmappedGap;
  for (const [serverId, members] of unmappedGroups) {
    placeUnmappedGroup(serverId, members, unmappedTop);
    unmappedTop +=
      groupHeight(members.length, collapsed.has(groupKey("unmapped", serverId))) + GROUP_GAP;
  }
  let cursor = PAD_TOP + (centre ? (tallest - returningHeight) / 2 : 0);
  for (const [serverId, members] of returningGroups) {
    placeGroup("returning", serverId, members, cursor);
    cursor +=
      groupHeight(members.length, collapsed.has(groupKey("returning", serverId))) + GROUP_GAP;
  }
  for (const n of nodes) if (n.node && !rep.has(n.node.id)) rep.set(n.node.id, n.key);

  const centreOf = (id: NodeId): number | null => {
    const key = rep.get(id);
    const n = key ? byKey.get(key) : undefined;
    return n ? n.y + n.h / 2 : null;
  };
  const mean = (xs: (number | null)[], fallback: number) => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : fallback;
  };

  // Agents at the barycentre of the returning tools they hold.
  const agents = analysis.graph.nodes.filter((n) => n.kind === "agent");
  const intoAgent = new Map<NodeId, NodeId[]>();
  const intoSink = new Map<NodeId, NodeId[]>();
  for (const e of analysis.graph.edges) {
    if (e.kind === "held_by") appendTo(intoAgent, e.to, e.from);
    if (e.kind === "holds") appendTo(intoSink, e.to, e.from);
  }
  const bottomSoFar = Math.max(PAD_TOP + tallest, PAD_TOP);
  stackByDesire(
    agents.map((a, i) => ({
      keys: [a.id],
      height: AGENT_BLOCK,
      desired: mean((intoAgent.get(a.id) ?? []).map(centreOf), bottomSoFar + i * AGENT_BLOCK),
      place: (top: number) => {
        nodes.push(mk(a, top + AGENT_BLOCK / 2 - NODE_H / 2));
        rep.set(a.id, a.id);
      },
    })),
    PAD_TOP,
  );

  // Sink groups at the barycentre of the agents holding their members.
  stackByDesire(
    sinkGrouping.map(([serverId, role, members]) => ({
      keys: members.map((m) => m.id),
      height: groupHeight(
        members.length,
        collapsed.has(groupKey("sink", sinkGroupId(serverId, role))),
      ),
      desired: mean(
        members.flatMap((m) => (intoSink.get(m.id) ?? []).map(centreOf)),
        PAD_TOP,
      ),
      place: (top: number) => placeGroup("sink", serverId, members, top, role),
    })),
    PAD_TOP,
  );
  for (const n of nodes) if (n.node && !rep.has(n.node.id)) rep.set(n.node.id, n.key);

  // Visible edges: endpoints mapped to their visible node, merged where a group collapsed them.
  const edgeMap = new Map<string, LayoutEdge>();
  const edgeRep = new Map<EdgeId, string>();
  for (const e of analysis.graph.edges) {
    const from = rep.get(e.from);
    const to = rep.get(e.to);
    if (!from || !to) continue;
    const key = visibleEdgeKey(from, to);
    const existing = edgeMap.get(key);
    if (existing) {
      existing.onPath ||= e.onPath;
      existing.members.push(e.id);
    } else edgeMap.set(key, { key, from, to, kind: e.kind, onPath: e.onPath, members: [e.id] });
    edgeRep.set(e.id, key);
  }

  const columns: string[][] = [[], [], [], [], []];
  for (const n of [...placed].sort((a, b) => a.y - b.y)) columns[n.column]!.push(n.key);
  const height = Math.max(
    PAD_TOP * 2,
    ...placed.map((n) => n.y + n.h + PAD_TOP),
    ...groups.map((g) => g.y + g.h + PAD_TOP),
  );
  return {
    nodes: placed,
    edges: [...edgeMap.values()],
    groups,
    width: xs[4]! + widths[4]! + 4,
    height,
    rep,
    columns,
    byKey,
    edgeRep,
    columnXs: xs,
    columnWidths: widths,
  };
}

/** The node keyboard focus moves to from `key` in direction `dir`, or null at an edge of the graph. */
export function neighbour(
  layout: GraphLayout,
  key: string,
  dir: "up" | "down" | "left" | "right" | "home" | "end",
): string | null {
  const n = layout.byKey.get(key);
  if (!n) return null;
  const col = layout.columns[n.column]!;
  const i = col.indexOf(key);
  if (dir === "up") return col[i - 1] ?? null;
  if (dir === "down") return col[i + 1] ?? null;
  if (dir === "home") return col[0] ?? null;
  if (dir === "end") return col[col.length - 1] ?? null;
  const step = dir === "right" ? 1 : -1;
  const linked = layout.edges
    .filter((e) => (dir === "right" ? e.from === key : e.to === key))
    .map((e) => (dir === "right" ? e.to : e.from));
  const cy = n.y + n.h / 2;
  const nearest = (keys: string[]) => {
    let best: string | null = null;
    let bestD = Infinity;
    for (const k of keys) {
      const m = layout.byKey.get(k);
      if (!m) continue;
      const d = Math.abs(m.y + m.h / 2 - cy) - (m.onPath ? 0.5 : 0);
      if (d < bestD) {
        bestD = d;
        best = k;
      }
    }
    return best;
  };
  if (linked.length > 0) return nearest(linked);
  for (let c = n.column + step; c >= 0 && c <= 4; c += step) {
    const keys = layout.columns[c]!;
    if (keys.length > 0) return nearest(keys);
  }
  return null;
}
