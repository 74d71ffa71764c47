/**
 * The text each graph node shows: its label fitted to its box, unique within its column
 * (labels.ts), with what tells it apart when two nodes would read the same. Pure: widths come from
 * `measure` (a canvas in the browser, see measure.ts; any function in a test).
 */
import type { GraphSectionData } from "@/lib/graph/section";
import { SINK_GROUP_LABEL } from "@/lib/graph/sink-groups";
import { splitToolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import { distinctLabels, type LabelRequest } from "./labels";
import { SELF_PATH_MARK, type GraphLayout, type GroupRole, type LayoutNode } from "./layout";
import type { GraphNames } from "./view-model";

/** The noun after a group's count on its node ("50 tools"); "unmapped" is not pluralised. */
export const GROUP_COUNT_NOUN: Record<GroupRole, string> = {
  returning: "tool",
  sink: "sink",
  unmapped: "unmapped",
};

/** A font key for `measure`: weight and size ("600 12"), as measure.ts reads it. */
export const fontKey = (size: number, weight: number) => `${weight} ${size}`;

/** What follows a group's name on its node: "12 of 201 tools" in the default view, "50 tools" when all are drawn. */
export function groupCount(g: NonNullable<LayoutNode["group"]>): string {
  const plural = g.total === 1 || g.role === "unmapped" ? "" : "s";
  return `  ${g.count === g.total ? g.count : `${g.count} of ${g.total}`} ${GROUP_COUNT_NOUN[g.role]}${plural}`;
}

/** A group's name: its server's, and for a sink group what its sinks do ("GitHub · writes"). */
export function groupName(g: NonNullable<LayoutNode["group"]>, names: GraphNames): string {
  const server = shownName(names.server(g.serverId));
  return g.sinkRole ? `${server} · ${SINK_GROUP_LABEL[g.sinkRole]}` : server;
}

/** A node's label with what tells it apart from a node of the same label: its server, its source, its tool. */
export function qualifiedLabel(
  analysis: Pick<GraphSectionData, "sources">,
  n: LayoutNode,
  names: GraphNames,
): string | undefined {
  const node = n.node;
  if (n.key.startsWith("writers-of:"))
    return `unknown writers of ${shownName(names.server(n.key.slice("writers-of:group:unmapped:".length)))}`;
  if (!node) return undefined;
  switch (node.kind) {
    case "returning":
    case "sink":
      return `${n.selfPath ? `${SELF_PATH_MARK} ` : ""}${shownName(names.server(node.serverId))}/${shownName(splitToolKey(node.tool).tool)}`;
    case "source":
      return node.head.kind === "unmapped"
        ? `returned by ${shownName(names.server(splitToolKey(node.head.tool).serverId))}/${shownName(splitToolKey(node.head.tool).tool)}`
        : `${n.label} (${node.sourceKind.replaceAll("_", " ")})`;
    case "writers": {
      if (node.head.kind === "unmapped")
        return `unknown writers of ${shownName(splitToolKey(node.head.tool).tool)}`;
      const source = analysis.sources.find((x) => x.writersNodeId === node.id);
      return source ? `${n.label} → ${shownName(source.name)}` : undefined;
    }
    case "agent":
      return `${n.label} (${node.agentId})`;
  }
}

/** The visible label of every node, unique within its column (labels.ts). */
export function nodeLabels(
  analysis: Pick<GraphSectionData, "sources">,
  layout: GraphLayout,
  names: GraphNames,
  measure: (text: string, font: string) => number,
  fit?: (text: string, px: number, font: string) => string,
): Map<string, string> {
  const requests: LabelRequest[] = layout.nodes.map((n) => {
    if (n.group) {
      const name = groupName(n.group, names);
      return {
        key: n.key,
        column: n.column,
        text: name,
        qualified: `${name} (${n.group.serverId})`,
        after: groupCount(n.group),
        px: n.w - 66,
        font: fontKey(11.5, 600),
      };
    }
    const bold =
      n.kind === "agent" ||
      n.kind === "sink" ||
      (n.node?.kind === "writers" && n.node.reachesOutsideBoundary);
    return {
      key: n.key,
      column: n.column,
      text: n.label,
      qualified: qualifiedLabel(analysis, n, names),
      px: n.w - 14,
      font: fontKey(n.kind === "writers" ? 11.5 : 12, bold ? 600 : 400),
    };
  });
  return distinctLabels(requests, measure, fit);
}
