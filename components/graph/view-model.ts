/**
 * Read-only views over the analysis the server returned, for display: every control evaluation as
 * one flat list, where each is drawn, the order of paths, and human labels. Nothing here
 * decides anything the analysis did not already decide.
 */
import type { Analysis, PathView, ToolView } from "@/lib/analysis/analyze";
import type { ControlPosition } from "@/lib/controls/catalog";
import type { ControlScope, ControlStatus } from "@/lib/controls/types";
import { isFocusSink, type GraphControlEntry, type GraphSectionData } from "@/lib/graph/section";
import { splitToolKey, type NodeId, type ToolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import type { ToolRole } from "@/lib/review/schema";

/** Display names of servers and agents, from the review document. */
export type GraphNames = { server: (id: string) => string; agent: (id: string) => string };

export const POSITION_LABEL: Record<ControlPosition, string> = {
  server_credential: "the server's token",
  session_boundary: "the agent session's composition",
  server_egress: "the server's outbound traffic",
  sink_call: "the sink call",
};

export const STATUS_LABEL: Record<ControlStatus, string> = {
  holds: "holds",
  fails: "fails",
  absent: "absent",
  cannot_evaluate: "cannot evaluate",
};
export const STATUS_MARK: Record<ControlStatus, string> = {
  holds: "✓",
  fails: "✕",
  absent: "–",
  cannot_evaluate: "?",
};
export const STATUS_BADGE: Record<ControlStatus, string> = {
  holds: "badge-ok",
  fails: "badge-danger",
  absent: "badge-neutral",
  cannot_evaluate: "badge-warn",
};

export type ControlRow = {
  key: string;
  /** A registry id. */
  controlId: string;
  name: string;
  /** Whether the control, configured where it is missing, would cut the path. */
  canCutPath: boolean;
  scope: ControlScope;
  status: ControlStatus;
  sitsAt: ControlPosition;
  cutsPath: boolean;
  stops: string;
  residue: string;
  summary: string;
  attachesTo: NodeId[];
};

/** A control's entry in the catalog the graph view carries. */
export function controlOf(
  analysis: Pick<GraphSectionData, "controls">,
  controlId: string,
): GraphControlEntry {
  const entry = analysis.controls.catalog.find((c) => c.id === controlId);
  // The server sends an entry for every control it evaluated; an id without one is a broken response.
  if (!entry)
    throw new Error(`the graph view names control ${controlId} and sends no entry for it`);
  return entry;
}

/** Every control evaluation of the analysis, configured or absent, in registry order (as sent). */
export function controlRows(analysis: Pick<GraphSectionData, "controls">): ControlRow[] {
  return analysis.controls.evaluations.map((e, i) => {
    const entry = controlOf(analysis, e.controlId);
    return {
      key: `${e.controlId}:${e.scope.kind === "server" ? e.scope.serverId : e.scope.kind === "agent" ? e.scope.agentId : "review"}:${e.status}:${i}`,
      controlId: e.controlId,
      name: entry.name,
      canCutPath: entry.canCutPath,
      scope: e.scope,
      status: e.status,
      sitsAt: e.sitsAt,
      cutsPath: e.cutsPath,
      stops: e.stops,
      residue: e.residue,
      summary: e.summary,
      attachesTo: e.attachesTo,
    };
  });
}

/** Text for a control's hover and focus tooltip: where it sits, what it stops, what it leaves. */
export function controlTooltip(row: ControlRow, scopeName: string): string[] {
  return [
    `${row.name} — ${STATUS_LABEL[row.status]} (${scopeName})`,
    row.summary,
    `Sits at: ${POSITION_LABEL[row.sitsAt]}`,
    `Stops: ${row.stops}`,
    `Leaves: ${row.residue}`,
    row.cutsPath
      ? "Cuts the source-to-sink path"
      : row.canCutPath
        ? "Would cut the path; not in place"
        : "Narrows an end of the path; does not cut it",
  ];
}

/** A tool's name for display, from its key: the server's text, with hidden characters revealed. */
export const toolName = (key: ToolKey) => shownName(splitToolKey(key).tool);

export function agentName(
  analysis: { agents: readonly { agentId: string; name: string }[] },
  agentId: string,
): string {
  return analysis.agents.find((a) => a.agentId === agentId)?.name ?? agentId;
}

export function scopeName(
  scope: ControlScope,
  names: { server: (id: string) => string; agent: (id: string) => string },
): string {
  if (scope.kind === "server") return names.server(scope.serverId);
  if (scope.kind === "agent") return names.agent(scope.agentId);
  return "every agent session";
}

/** One line naming a path's hops. */
export function pathLabel(
  analysis: { agents: readonly { agentId: string; name: string }[] },
  p: PathView,
): string {
  return `${p.head.label} → ${toolName(p.returningTool)} → ${agentName(analysis, p.agentId)} → ${toolName(p.sink)}`;
}

/** Why there are no paths, from what the analysis found. */
export function noPathReason(analysis: {
  agents: readonly { returningTools: readonly unknown[]; sinkTools: readonly unknown[] }[];
}): string {
  if (analysis.agents.length === 0)
    return "No agent is registered yet, so no tool shares a session with another.";
  const withReturning = analysis.agents.filter((a) => a.returningTools.length > 0);
  const withSinks = analysis.agents.filter((a) => a.sinkTools.length > 0);
  if (withReturning.length === 0)
    return "No agent holds a tool that returns text from a source writable from outside the boundary, so no untrusted text enters a session.";
  if (withSinks.length === 0)
    return "No agent holds a sensitive sink (a tool that writes, deploys or destroys, or reaches the network or shares).";
  return "No agent holds both a tool returning untrusted text and a sensitive sink: tool-set separation is in place, and the path is cut at each session boundary.";
}

// What the graph opens on is decided with the data the server sends it (lib/graph/view.ts).
export { FOCUS_SINK_ROLES, focusView, isFocusSink, type FocusView } from "@/lib/graph/section";

/** A path whose returning tool is its sink: the tool's own output reaches it again in the session. */
export const isSelfPath = (p: Pick<PathView, "returningTool" | "sink">): boolean =>
  p.returningTool === p.sink;

/**
 * Per agent, the tools on a self-path (returning untrusted text into a session that holds them as
 * a sink, so that text can come back to them), and their sink nodes. From the on-path edges: a
 * returning tool held on a path and its sink node reached on a path in the same agent.
 */
export function selfPaths(analysis: Pick<Analysis, "graph">): {
  byAgent: Map<NodeId, ToolKey[]>;
  sinkNodes: Set<NodeId>;
} {
  const returningOf = new Map<NodeId, ToolKey>();
  const sinkOf = new Map<ToolKey, NodeId>();
  for (const n of analysis.graph.nodes) {
    if (n.kind === "returning") returningOf.set(n.id, n.tool);
    else if (n.kind === "sink") sinkOf.set(n.tool, n.id);
  }
  const reached = new Set<string>();
  for (const e of analysis.graph.edges)
    if (e.onPath && e.kind === "holds") reached.add(`${e.from}\n${e.to}`);
  const byAgent = new Map<NodeId, ToolKey[]>();
  const sinkNodes = new Set<NodeId>();
  for (const e of analysis.graph.edges) {
    if (!e.onPath || e.kind !== "held_by") continue;
    const tool = returningOf.get(e.from);
    const sink = tool === undefined ? undefined : sinkOf.get(tool);
    if (tool === undefined || sink === undefined || !reached.has(`${e.to}\n${sink}`)) continue;
    const list = byAgent.get(e.to);
    if (list) list.push(tool);
    else byAgent.set(e.to, [tool]);
    sinkNodes.add(sink);
  }
  return { byAgent, sinkNodes };
}

/**
 * The listed paths in reading order: real cross-tool paths to the sinks the default view keeps
 * (`isFocusSink`), then cross-tool paths to the other sinks, then self-paths (which the path list
 * folds into one row per agent). The analysis's order is kept within each rank.
 */
export function orderPaths(analysis: Pick<GraphSectionData, "paths" | "tools">): PathView[] {
  const origin = new Map(analysis.tools.map((t) => [t.key, t.rolesOrigin]));
  const rank = (p: PathView) =>
    isSelfPath(p)
      ? 2
      : isFocusSink({ sinkRoles: p.sinkRoles, rolesOrigin: origin.get(p.sink) ?? "suggested" })
        ? 0
        : 1;
  const ranked = analysis.paths.listed.map((p, i) => ({ p, r: rank(p), i }));
  ranked.sort((a, b) => a.r - b.r || a.i - b.i);
  return ranked.map((x) => x.p);
}

/** Every reason behind each role a tool has, in role order: the reviewer's confirmation, or each signal the suggestion weighed. */
export function roleReasons(
  tool: Pick<ToolView, "roles" | "rolesOrigin" | "suggestedRoles">,
): { role: ToolRole; reasons: string[] }[] {
  const suggested = new Map(tool.suggestedRoles.map((r) => [r.role, r.reasons]));
  return tool.roles.map((role) => ({
    role,
    reasons:
      tool.rolesOrigin === "confirmed"
        ? ["confirmed by the reviewer"]
        : (suggested.get(role) ?? []),
  }));
}
