/**
 * Where the graph draws each control, as pure geometry over the graph view and the layout. Each
 * control's registry definition says where (the view's `drawnOn`): on the server's returning-tools group
 * (credential, egress), on each agent session's boundary with a cut mark where it removes the path
 * (separation), on the agent → sink calls it covers (approval). Also the control lines each node's
 * tooltip adds. Marks are per visible node and edge: the members of a collapsed group share its
 * node, so they share one mark and one copy of the lines.
 */
import type { GraphSectionData } from "@/lib/graph/section";
import type { ControlStatus } from "@/lib/controls/types";
import {
  groupKey,
  groupOf,
  NODE_H,
  visibleEdgeKey,
  type GraphLayout,
  type LayoutEdge,
} from "./layout";
import {
  controlRows,
  controlTooltip,
  scopeName,
  STATUS_MARK,
  type ControlRow,
  type GraphNames,
} from "./view-model";

export const PILL_H = 15;
/** Average character width of a pill's label, in ems. */
const PILL_CHAR_WIDTH = 0.6;

export type Marker = {
  key: string;
  x: number;
  y: number;
  label: string;
  status: ControlStatus;
  tooltip: string[];
  cut: boolean;
};
export type Cut = { key: string; x: number; y: number; tooltip: string[] };

/** A control pill's width for its label (an estimate at the pill's font: the pill is drawn before text is measured). */
export const pillWidth = (label: string) => Math.round(label.length * 10 * PILL_CHAR_WIDTH + 12);

/** The edge drawn between two visible nodes (a horizontal cubic), and the point at a fraction along it. */
export function curve(
  e: LayoutEdge,
  layout: GraphLayout,
): { d: string; at: (t: number) => [number, number] } | null {
  const a = layout.byKey.get(e.from);
  const b = layout.byKey.get(e.to);
  if (!a || !b) return null;
  const x0 = a.x + a.w;
  const y0 = a.y + a.h / 2;
  const x1 = b.x;
  const y1 = b.y + b.h / 2;
  const mx = (x0 + x1) / 2;
  const at = (t: number): [number, number] => {
    const u = 1 - t;
    return [
      u * u * u * x0 + 3 * u * u * t * mx + 3 * u * t * t * mx + t * t * t * x1,
      u * u * u * y0 + 3 * u * u * t * y0 + 3 * u * t * t * y1 + t * t * t * y1,
    ];
  };
  return {
    d: y0 === y1 ? `M${x0},${y0}H${x1}` : `M${x0},${y0}C${mx},${y0} ${mx},${y1} ${x1},${y1}`,
    at,
  };
}

/** Where each control is drawn, by its registry definition's placement. */
export function placeControls(
  analysis: Pick<GraphSectionData, "controls">,
  layout: GraphLayout,
  names: GraphNames,
): { markers: Marker[]; cuts: Cut[]; byNode: Map<string, string[]> } {
  const markers: Marker[] = [];
  const cuts: Cut[] = [];
  const byNode = new Map<string, string[]>();
  // A control's lines are added to a node once, however many of its members the control attaches
  // to (a collapsed group stands for all of them).
  const noted = new Set<string>();
  const note = (key: string, rowKey: string, lines: string[]) => {
    if (noted.has(`${rowKey}\n${key}`)) return;
    noted.add(`${rowKey}\n${key}`);
    const list = byNode.get(key);
    if (list) list.push(...lines);
    else byNode.set(key, [...lines]);
  };
  const edgeByKey = new Map(layout.edges.map((e) => [e.key, e]));
  const rows = controlRows(analysis);
  const serverPills = new Map<string, number>();
  const placedSessions = new Set<string>();
  const placedSinkPills = new Set<string>();
  const sinkPillsAt = new Map<string, number>();
  /** The sink group box a visible sink node is drawn in (a collapsed group's node is its own group). */
  const groupBoxes = new Map(layout.groups.map((g) => [g.key as string, g]));
  const sinkGroupOfNode = new Map<string, (typeof layout.groups)[number]>();
  for (const n of layout.nodes) {
    if (n.kind !== "sink" || n.node?.kind !== "sink") continue;
    const g = groupBoxes.get(groupOf(n.node) ?? "");
    if (g) sinkGroupOfNode.set(n.key, g);
  }
  const groupOfSink = (key: string) => groupBoxes.get(key) ?? sinkGroupOfNode.get(key) ?? null;
  const describe = (row: ControlRow) => controlTooltip(row, scopeName(row.scope, names));

  for (const row of rows) {
    const drawnOn = analysis.controls.catalog.find((c) => c.id === row.controlId)?.drawnOn;
    if (drawnOn === "server_group") {
      if (row.scope.kind !== "server") continue;
      const key = groupKey("returning", row.scope.serverId);
      const g = layout.groups.find((x) => x.key === key);
      if (!g) continue;
      const label = `${row.controlId} ${STATUS_MARK[row.status]}`;
      const offset = serverPills.get(key) ?? 0;
      serverPills.set(key, offset + pillWidth(label) + 4);
      markers.push({
        key: `${row.key}`,
        x: g.x + 8 + offset,
        y: g.y - PILL_H / 2,
        label,
        status: row.status,
        tooltip: describe(row),
        cut: false,
      });
      note(key, row.key, describe(row));
    } else if (drawnOn === "sink_call") {
      const agentId = row.scope.kind === "agent" ? row.scope.agentId : null;
      if (!agentId) continue;
      const from = layout.rep.get(`agent:${agentId}` as never);
      if (!from) continue;
      // One pill per sink group the control covers calls into, beside the group on the agent's
      // side: a pill on every agent → sink edge stacked twelve on each other where a 26-tool
      // server's sink edges meet. The group's sinks carry the control's lines in their tooltips.
      const label = `${row.controlId} ${STATUS_MARK[row.status]}`;
      for (const sink of row.attachesTo) {
        const to = layout.rep.get(sink);
        const edge = to ? edgeByKey.get(visibleEdgeKey(from, to)) : undefined;
        if (!edge || !to) continue;
        note(to, row.key, describe(row));
        const group = groupOfSink(to);
        const anchor = group ?? layout.byKey.get(to);
        if (!anchor) continue;
        const anchorKey = group ? group.key : to;
        const markerKey = `${row.key}:${anchorKey}`;
        if (placedSinkPills.has(markerKey)) continue;
        placedSinkPills.add(markerKey);
        // Pills of several agents on one group stack down its left side.
        const nth = sinkPillsAt.get(anchorKey) ?? 0;
        sinkPillsAt.set(anchorKey, nth + 1);
        markers.push({
          key: markerKey,
          x: anchor.x - pillWidth(label) - 6,
          y: anchor.y + 4 + nth * (PILL_H + 3),
          label,
          status: row.status,
          tooltip: describe(row),
          cut: false,
        });
      }
    } else if (drawnOn === "agent_sessions") {
      // One mark per agent session, from the control's own per-agent verdicts (once per control,
      // whatever number of rows it has).
      if (placedSessions.has(row.controlId)) continue;
      placedSessions.add(row.controlId);
      const sessions = analysis.controls.sessionMarks.filter((m) => m.controlId === row.controlId);
      for (const session of sessions) {
        const key = layout.rep.get(`agent:${session.agentId}` as never);
        const n = key ? layout.byKey.get(key) : undefined;
        if (!key || !n) continue;
        const perAgent: ControlRow = {
          ...row,
          status: session.status,
          cutsPath: session.cutsPath,
          summary: session.summary,
        };
        const lines = controlTooltip(perAgent, names.agent(session.agentId));
        const label = `${row.controlId} ${STATUS_MARK[session.status]}`;
        markers.push({
          key: `${row.controlId}:${session.agentId}`,
          x: n.x + 6,
          y: n.y - 6 - PILL_H / 2 - 1,
          label,
          status: session.status,
          tooltip: lines,
          cut: session.cutsPath,
        });
        note(key, `${row.controlId}:${session.agentId}`, lines);
        if (session.cutsPath && session.cut !== null)
          cuts.push({
            key: `cut:${session.agentId}`,
            x: n.x + n.w + 6,
            y: n.y + NODE_H / 2,
            tooltip: [`Cut by ${row.name.toLowerCase()}`, session.cut],
          });
      }
    }
  }
  return { markers, cuts, byNode };
}
