/**
 * Read-only views over the analysis the server returned, for display: every control evaluation as
 * one flat list, where each is drawn, the findings of a path, and human labels. Nothing here
 * decides anything the analysis did not already decide.
 */
import type { Analysis, PathView } from "@/lib/analysis/analyze";
import type { Finding } from "@/lib/analysis/findings";
import { splitToolKey, type NodeId, type ToolKey } from "@/lib/analysis/ids";
import { shownName } from "@/lib/analysis/prose";
import { controlEntry, type ControlId, type ControlPosition } from "@/lib/controls/catalog";
import type { ControlScope, ControlStatus } from "@/lib/controls/types";

/** Display names of servers and agents, from the review document. */
export type GraphNames = { server: (id: string) => string; agent: (id: string) => string };

export const POSITION_LABEL: Record<ControlPosition, string> = {
  server_credential: "the server's token",
  session_boundary: "the agent session's composition",
  server_egress: "the server's outbound traffic",
  sink_call: "the sink call",
};

export const STATUS_LABEL: Record<ControlStatus, string> = { holds: "holds", fails: "fails", absent: "absent", cannot_evaluate: "cannot evaluate" };
export const STATUS_MARK: Record<ControlStatus, string> = { holds: "✓", fails: "✕", absent: "–", cannot_evaluate: "?" };
export const STATUS_BADGE: Record<ControlStatus, string> = { holds: "badge-ok", fails: "badge-danger", absent: "badge-neutral", cannot_evaluate: "badge-warn" };

export type ControlRow = {
  key: string;
  controlId: ControlId;
  name: string;
  scope: ControlScope;
  status: ControlStatus;
  sitsAt: ControlPosition;
  cutsPath: boolean;
  stops: string;
  residue: string;
  summary: string;
  attachesTo: NodeId[];
};

/** Every control evaluation of the analysis, configured or absent, in catalog order. */
export function controlRows(analysis: Pick<Analysis, "controls">): ControlRow[] {
  const c = analysis.controls;
  const all = [...c.credentials, ...c.egress, c.separation, ...c.approvals, ...c.absent];
  const rank: Record<ControlId, number> = { credential: 0, egress: 1, separation: 2, approval: 3 };
  return all
    .map((e, i) => ({
      key: `${e.controlId}:${e.scope.kind === "server" ? e.scope.serverId : e.scope.kind === "agent" ? e.scope.agentId : "review"}:${e.status}:${i}`,
      controlId: e.controlId,
      name: controlEntry(e.controlId).name,
      scope: e.scope,
      status: e.status,
      sitsAt: e.sitsAt,
      cutsPath: e.cutsPath,
      stops: e.stops,
      residue: e.residue,
      summary: e.summary,
      attachesTo: e.attachesTo,
    }))
    .sort((a, b) => rank[a.controlId] - rank[b.controlId]);
}

/** Text for a control's hover and focus tooltip: where it sits, what it stops, what it leaves. */
export function controlTooltip(row: ControlRow, scopeName: string): string[] {
  return [
    `${row.name} — ${STATUS_LABEL[row.status]} (${scopeName})`,
    row.summary,
    `Sits at: ${POSITION_LABEL[row.sitsAt]}`,
    `Stops: ${row.stops}`,
    `Leaves: ${row.residue}`,
    row.cutsPath ? "Cuts the source-to-sink path" : row.controlId === "separation" ? "Would cut the path; not in place" : "Narrows an end of the path; does not cut it",
  ];
}

/** A tool's name for display, from its key: the server's text, with hidden characters revealed. */
export const toolName = (key: ToolKey) => shownName(splitToolKey(key).tool);

export function agentName(analysis: Pick<Analysis, "agents">, agentId: string): string {
  return analysis.agents.find((a) => a.agentId === agentId)?.name ?? agentId;
}

export function scopeName(scope: ControlScope, names: { server: (id: string) => string; agent: (id: string) => string }): string {
  if (scope.kind === "server") return names.server(scope.serverId);
  if (scope.kind === "agent") return names.agent(scope.agentId);
  return "every agent session";
}

/** One line naming a path's hops. */
export function pathLabel(analysis: Pick<Analysis, "agents">, p: PathView): string {
  return `${p.head.label} → ${toolName(p.returningTool)} → ${agentName(analysis, p.agentId)} → ${toolName(p.sink)}`;
}

/** Findings about a path: those naming it, then those about a node on it that name no path. */
export function findingsForPath(analysis: Pick<Analysis, "findings">, p: PathView): { onPath: Finding[]; atNodes: Finding[] } {
  const nodes = new Set<string>(p.nodeIds);
  const onPath = analysis.findings.filter((f) => f.pathIds.includes(p.id));
  const atNodes = analysis.findings.filter((f) => f.pathIds.length === 0 && f.nodeIds.some((n) => nodes.has(n)));
  return { onPath, atNodes };
}

/** Why there are no paths, from what the analysis found. */
export function noPathReason(analysis: Pick<Analysis, "agents" | "controls" | "graph">): string {
  if (analysis.agents.length === 0) return "No agent is registered yet, so no tool shares a session with another.";
  const withReturning = analysis.agents.filter((a) => a.returningTools.length > 0);
  const withSinks = analysis.agents.filter((a) => a.sinkTools.length > 0);
  if (withReturning.length === 0)
    return "No agent holds a tool that returns text from a source writable from outside the boundary, so no untrusted text enters a session.";
  if (withSinks.length === 0) return "No agent holds a sensitive sink (a tool that writes, deploys or destroys, or reaches the network or shares).";
  return "No agent holds both a tool returning untrusted text and a sensitive sink: tool-set separation is in place, and the path is cut at each session boundary.";
}
