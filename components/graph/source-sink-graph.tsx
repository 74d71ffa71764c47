"use client";
/**
 * The source-to-sink graph, drawn with d3-selection into one SVG. Loaded only in the browser (see
 * graph.tsx). React owns the state (selection, roving focus, collapsed groups); d3 joins the layout
 * into the SVG by key, so focused elements survive updates. Where controls go: placement.ts.
 * Every server-authored string goes in through `.text()` or an attribute, never as markup.
 *
 * Keyboard: one node holds tabindex 0 (roving); arrows move within a column (up/down) and along
 * edges to the next column (left/right), Home/End jump within a column, Enter or Space selects a
 * node (or opens/closes a server group), Escape clears the selection.
 */
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { select } from "d3-selection";
import { useEffect, useMemo, useRef, useState } from "react";
import { shownName } from "@/lib/model/prose";
import type { GraphSectionData, ToolDetail } from "@/lib/graph/section";
import { SINK_GROUP_LABEL } from "@/lib/graph/sink-groups";
import { trifectaLegViews, type TrifectaLegView } from "@/lib/graph/trifecta";
import type { GraphDetails } from "./graph-view";
import { fitText } from "./fit-text";
import { groupCount, groupName, nodeLabels } from "./node-labels";
import {
  neighbour,
  SELF_PATH_MARK,
  type GraphLayout,
  type GroupRole,
  type LayoutEdge,
  type LayoutNode,
} from "./layout";
import { measureByKey } from "./measure";
import { curve, pillWidth, PILL_H, placeControls, type Cut, type Marker } from "./placement";
import { roleReasons, type GraphNames } from "./view-model";
import "./graph.css";

export type { GraphNames };

type Analysis = GraphSectionData;

export type SourceSinkGraphProps = {
  analysis: Analysis;
  /** Where a tool's role reasons come from when its node is focused or hovered. */
  details: GraphDetails;
  layout: GraphLayout;
  /** Visible node and edge keys to highlight (a selected path or node), or null. */
  highlight: { nodes: ReadonlySet<string>; edges: ReadonlySet<string> } | null;
  selectedKey: string | null;
  onSelectNode: (key: string | null) => void;
  onToggleGroup: (key: string) => void;
  names: GraphNames;
};

type Tip = { x: number; y: number; lines: string[] } | null;

/** What a group's members are, in its tooltip and accessible name. */
const GROUP_MEMBERS: Record<GroupRole, string> = {
  returning: "returning tools",
  sink: "sensitive sinks",
  unmapped: "unmapped sources (tools returning text from no mapped source)",
};

/**
 * Labels already fitted, by font, width and text: a large review repeats labels and redraws on
 * every selection. Cleared when it grows past TRUNCATED_CACHE_MAX, so server-authored labels
 * cannot grow it without bound.
 */
const truncated = new Map<string, string>();
const TRUNCATED_CACHE_MAX = 20_000;

/** Fit `text` into `px` at a graph font (see measure.ts), with an ellipsis when cut. */
function fitCached(text: string, px: number, font: string): string {
  const cacheKey = `${font} ${px}\n${text}`;
  const cached = truncated.get(cacheKey);
  if (cached !== undefined) return cached;
  const out = fitText(text, px, (t) => measureByKey(t, font));
  if (truncated.size >= TRUNCATED_CACHE_MAX) truncated.clear();
  truncated.set(cacheKey, out);
  return out;
}

/** The visible label of every node, unique within its column, at the graph's fonts. */
const visibleLabels = (analysis: Analysis, layout: GraphLayout, names: GraphNames) =>
  nodeLabels(analysis, layout, names, measureByKey, fitCached);

/** The servers whose live surface differs from a blocking pin, with what changed. */
const blockedServers = (analysis: Pick<Analysis, "toolLists">): ReadonlyMap<string, string> =>
  new Map(
    analysis.toolLists.flatMap((l) =>
      l.blocked ? [[l.serverId as string, l.blocked.reason] as const] : [],
    ),
  );

/** The server a node or group stands for, if any. */
const nodeServer = (n: LayoutNode): string | null =>
  n.group
    ? n.group.serverId
    : n.node && (n.node.kind === "returning" || n.node.kind === "sink")
      ? n.node.serverId
      : null;

/** A vertical stretch of the canvas, in its coordinates. */
type Band = { top: number; bottom: number };

/** How far beyond the scroll box's visible rows the first draw reaches, in px. */
const BAND_MARGIN = 200;

/**
 * What the first draw puts in: the rows of the canvas the graph's scroll box shows, and
 * BAND_MARGIN above and below. On the 5,000-tool review the canvas is about 4,300 px tall in a
 * 560 px box, and creating, styling and laying out all of its ~8,000 elements before anything was
 * on screen took most of the section's time to first paint; the rest is drawn in the task after
 * that paint. Null when the canvas fits the band (or has no scroll box): it is all drawn at once.
 */
function firstBand(svg: SVGSVGElement, height: number): Band | null {
  const box = svg.closest(".rr-graph-scroll");
  if (!box || box.clientHeight === 0) return null;
  const band = {
    top: box.scrollTop - BAND_MARGIN,
    bottom: box.scrollTop + box.clientHeight + BAND_MARGIN,
  };
  return band.top <= 0 && band.bottom >= height ? null : band;
}

/** Whether [top, bottom] meets the band (no band: everything does). */
const meets = (band: Band | null, top: number, bottom: number) =>
  band === null || (bottom >= band.top && top <= band.bottom);

/** Height of a trifecta leg mark; it straddles the bottom border of the agent's session. */
const LEG_H = 12;
const LEG_CHAR_W = 5.6;
const legWidth = (label: string) => Math.round(label.length * LEG_CHAR_W + 10);

/** One drawn leg of the lethal trifecta, under its agent's node. */
type LegMark = TrifectaLegView & {
  mark: string;
  agentKey: string;
  x: number;
  y: number;
  w: number;
};

/**
 * The trifecta's legs of every drawn agent that holds at least one, side by side on the bottom
 * border of its session (the separation marker sits on the top one). Held legs are filled, the
 * others dashed, so an agent where all three are filled holds the lethal trifecta.
 */
function legMarks(analysis: Analysis, layout: GraphLayout): LegMark[] {
  const out: LegMark[] = [];
  for (const a of analysis.agents) {
    const n = layout.byKey.get(`agent:${a.agentId}`);
    if (!n || n.kind !== "agent") continue;
    const views = trifectaLegViews(a.trifecta);
    if (!views.some((v) => v.present)) continue;
    let x = n.x;
    for (const v of views) {
      const w = legWidth(v.short);
      out.push({ ...v, mark: `${n.key}:${v.key}`, agentKey: n.key, x, y: n.y + n.h + 1, w });
      x += w + 3;
    }
  }
  return out;
}

/** A tool's details: undefined while not fetched, null when the analysis has no such tool. */
type ToolLookup = (key: string) => ToolDetail | null | undefined;

function nodeLines(
  analysis: Analysis,
  n: LayoutNode,
  names: GraphNames,
  toolOf: ToolLookup,
): string[] {
  const server = nodeServer(n);
  const blocked = server === null ? undefined : blockedServers(analysis).get(server);
  const lines = nodeLinesOf(analysis, n, names, toolOf);
  return blocked === undefined
    ? lines
    : [
        ...lines,
        `BLOCKED: ${shownName(names.server(server!))} differs from its pin (${blocked}); no approval can rest on it until it is re-pinned with a reason`,
      ];
}

function nodeLinesOf(
  analysis: Analysis,
  n: LayoutNode,
  names: GraphNames,
  toolOf: ToolLookup,
): string[] {
  const node = n.node;
  if (n.group) {
    const toggle = n.group.collapsed
      ? "Collapsed; Enter expands the group"
      : "Enter collapses the group";
    if (n.group.role === "unmapped") {
      const count = n.group.count === 1 ? "1 tool returns" : `${n.group.count} tools return`;
      return [
        `${names.server(n.group.serverId)}: ${count} text from no mapped source`,
        "Writers unknown, so counted as outside the boundary; map the sources in the tool assessment",
        toggle,
      ];
    }
    return [
      `${groupName(n.group, names)}: ${n.group.count} ${GROUP_MEMBERS[n.group.role]}`,
      toggle,
    ];
  }
  if (!node) return [];
  switch (node.kind) {
    case "writers": {
      const source = analysis.sources.find((s) => s.writersNodeId === node.id);
      return [
        `Writers: ${shownName(node.label)}`,
        node.reachesOutsideBoundary ? "Reaches outside the boundary" : "Inside the boundary",
        `The smallest number of accounts an attack needs: ${node.minAccountsAnAttackNeeds}`,
        ...(source?.reasons ?? []),
        ...(node.usage ? [`Usage fact, not part of the bound: ${node.usage.label}`] : []),
      ];
    }
    case "source":
      return [
        shownName(node.label),
        `Kind: ${node.sourceKind.replaceAll("_", " ")}`,
        node.reachesOutsideBoundary
          ? "Writable from outside the boundary"
          : "Writable from inside only",
      ];
    case "returning":
    case "sink": {
      const tool = toolOf(node.tool);
      // Every reason of every role, not only the first: this is what the reviewer weighs.
      const reasons = tool ? roleReasons(tool) : [];
      return [
        `${shownName(node.label)} (${shownName(names.server(node.serverId))})`,
        ...(node.isAppOnly
          ? [
              "App-only (MCP Apps): the server's UI calls it without the model; held like any tool in the set",
            ]
          : []),
        tool === undefined
          ? `Roles: loading their reasons… (${node.rolesOrigin})`
          : `Roles: ${tool && tool.roles.length > 0 ? tool.roles.map((r) => r.replaceAll("_", " ")).join(", ") : "none"} (${node.rolesOrigin})`,
        ...reasons.map((r) => `${r.role.replaceAll("_", " ")}: ${r.reasons.join("; ")}`),
        ...(n.selfPath
          ? [
              `${SELF_PATH_MARK} Self-path: it also returns untrusted text in a session that holds it, so its own output can reach it again`,
            ]
          : []),
      ];
    }
    case "agent": {
      const a = analysis.agents.find((x) => x.agentId === node.agentId);
      return [
        shownName(node.label),
        a ? `${a.pathCount} path${a.pathCount === 1 ? "" : "s"} to a sensitive sink` : "",
      ];
    }
  }
}

/**
 * A node's accessible name: it contains the words the node shows, in order (a voice-control user
 * says what they see; axe's label-content-name-mismatch), then the full text. A group starts with
 * its visible name and count; a node whose label was cut or shortened adds "shown as …".
 */
function ariaLabel(
  n: LayoutNode,
  names: GraphNames,
  visible: string,
  blocked: ReadonlyMap<string, string>,
): string {
  const server = nodeServer(n);
  const mark = server !== null && blocked.has(server) ? ", server BLOCKED" : "";
  const appOnly = isAppOnlyNode(n) ? ", app-only: the server's UI calls it without the model" : "";
  return ariaLabelOf(n, names, visible) + appOnly + mark;
}

/** Drawn after an app-only tool's name (MCP Apps: only the server's UI calls it). */
const APP_ONLY_MARK = "[app-only]";

function isAppOnlyNode(n: LayoutNode): boolean {
  const node = n.node;
  return (node?.kind === "returning" || node?.kind === "sink") && node.isAppOnly === true;
}

function ariaLabelOf(n: LayoutNode, names: GraphNames, visible: string): string {
  if (n.group) {
    const g = n.group;
    const drawn = g.count === g.total ? "" : `, ${g.count} drawn of ${g.total}`;
    const what = g.sinkRole ? ` that ${SINK_GROUP_LABEL[g.sinkRole]}` : "";
    return `${visible}${groupCount(g)}: ${GROUP_MEMBERS[g.role]}${what} of ${shownName(names.server(g.serverId))}${drawn}, ${g.collapsed ? "collapsed" : "expanded"}`;
  }
  const node = n.node;
  if (!node) return n.label;
  const kind = {
    writers: "Writers",
    source: "Source",
    returning: "Returning tool",
    agent: "Agent",
    sink: "Sink",
  }[node.kind];
  const extra =
    node.kind === "writers" && node.reachesOutsideBoundary
      ? ", outside the boundary"
      : node.kind === "returning" || node.kind === "sink"
        ? ` on ${shownName(names.server(node.serverId))}`
        : "";
  const self = n.selfPath ? ", on a self-path: its own output can reach it" : "";
  const plain = n.selfPath ? n.label.slice(SELF_PATH_MARK.length + 1) : n.label;
  const shownAs = visible === n.label ? "" : `, shown as ${visible}`;
  return `${kind}: ${plain}${extra}${n.onPath ? ", on a path" : ""}${self}${shownAs}`;
}

const toolQueryKey = (details: GraphDetails, key: string) => [...details.key, "tool", key];

function cachedTool(
  client: QueryClient,
  details: GraphDetails,
  key: string,
): ToolDetail | null | undefined {
  return client.getQueryData<ToolDetail | null>(toolQueryKey(details, key));
}

function fetchTool(client: QueryClient, details: GraphDetails, key: string) {
  return client.fetchQuery({
    queryKey: toolQueryKey(details, key),
    queryFn: () => details.tool(key),
    staleTime: Infinity,
  });
}

export default function SourceSinkGraph(props: SourceSinkGraphProps) {
  const { analysis, layout, highlight, selectedKey, names } = props;
  const svgRef = useRef<SVGSVGElement>(null);
  const painted = useRef(false);
  /** The SVG holds a banded first draw and not yet the rest: the next full draw reorders. */
  const banded = useRef(false);
  const [active, setActive] = useState<string | null>(null);
  const [tip, setTip] = useState<Tip>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  const queryClient = useQueryClient();
  /** The node whose tooltip is open, so details that arrive later update only that one. */
  const tipFor = useRef<string | null>(null);

  const controls = useMemo(() => placeControls(analysis, layout, names), [analysis, layout, names]);
  const labels = useMemo(() => visibleLabels(analysis, layout, names), [analysis, layout, names]);
  const blocked = useMemo(() => blockedServers(analysis), [analysis]);
  const legs = useMemo(() => legMarks(analysis, layout), [analysis, layout]);
  const controlsRef = useRef(controls);
  useEffect(() => {
    controlsRef.current = controls;
  });
  const activeKey =
    active && layout.byKey.has(active)
      ? active
      : (layout.columns.find((c) => c.length > 0)?.[0] ?? null);

  useEffect(() => {
    const svgEl = svgRef.current;
    if (!svgEl) return;
    const svg = select(svgEl);
    const layer = (name: string) => {
      const existing = svg.select<SVGGElement>(`g.layer-${name}`);
      return existing.empty() ? svg.append("g").attr("class", `layer-${name}`) : existing;
    };
    const gGroups = layer("groups");
    const gEdges = layer("edges");
    const gNodes = layer("nodes");
    const gMarks = layer("marks");
    // Viewport coordinates: the tooltip is position:fixed, so the scroll container never clips it.
    const showTip = (event: MouseEvent | FocusEvent, lines: string[]) => {
      let x = 0;
      let y = 0;
      if (event instanceof MouseEvent) {
        x = event.clientX;
        y = event.clientY;
      } else if (event.target instanceof Element) {
        const r = event.target.getBoundingClientRect();
        x = r.left + r.width / 2;
        y = r.bottom;
      }
      setTip({ x, y, lines: lines.filter((l) => l.length > 0) });
    };
    const hideTip = () => {
      tipFor.current = null;
      setTip(null);
    };
    /**
     * A node's tooltip lines. A tool's role reasons are fetched the first time its node is
     * focused or hovered; the tooltip says so and is filled in (with the focused node's
     * description) when they arrive, if it is still open on that node.
     */
    const linesOf = (n: LayoutNode) => [
      ...nodeLines(latest.current.analysis, n, latest.current.names, (key) =>
        cachedTool(queryClient, latest.current.details, key),
      ),
      ...(controlsRef.current.byNode.get(n.key) ?? []),
    ];
    const open = (event: MouseEvent | FocusEvent, n: LayoutNode, target: SVGGElement) => {
      tipFor.current = n.key;
      const lines = linesOf(n);
      // The tooltip's lines as the node's description, set as it takes focus, so a screen
      // reader reads them all (every reason of every role among them), not only sighted users.
      if (event.type === "focus")
        target.setAttribute("aria-description", lines.filter((l) => l.length > 0).join(". "));
      showTip(event, lines);
      const tool =
        n.node && (n.node.kind === "returning" || n.node.kind === "sink") ? n.node.tool : null;
      if (tool === null || cachedTool(queryClient, latest.current.details, tool) !== undefined)
        return;
      void fetchTool(queryClient, latest.current.details, tool) // a failure leaves "loading"; the next open retries
        .then(() => {
          if (tipFor.current !== n.key) return;
          const filled = linesOf(n);
          if (document.activeElement === target)
            target.setAttribute("aria-description", filled.filter((l) => l.length > 0).join(". "));
          showTip(event, filled);
        })
        .catch(() => undefined);
    };

    /** Whether an edge meets the band: it spans from the higher of its two ends to the lower. */
    const edgeMeets = (band: Band, e: LayoutEdge) => {
      const a = layout.byKey.get(e.from);
      const b = layout.byKey.get(e.to);
      return !!a && !!b && meets(band, Math.min(a.y, b.y), Math.max(a.y + a.h, b.y + b.h));
    };
    /**
     * Joins the layout into the SVG: what meets `band`, or everything when it is null. `reorder`
     * after a banded draw: what it left out was appended after it, and the SVG's order is the
     * reading and stacking order, so every element is put back in layout order.
     */
    const draw = (band: Band | null, reorder: boolean) => {
      const inOrder = <S extends { order(): S }>(selection: S) =>
        reorder ? selection.order() : selection;
      // Server groups.
      const groupSel = gGroups
        .selectAll<SVGRectElement, (typeof layout.groups)[number]>("rect.group")
        .data(
          layout.groups.filter((g) => meets(band, g.y, g.y + g.h)),
          (g) => g.key,
        )
        .join("rect")
        .attr("class", (g) => `group ${g.role}${g.collapsed ? " collapsed" : ""}`)
        .attr("x", (g) => g.x)
        .attr("y", (g) => g.y)
        .attr("width", (g) => g.w)
        .attr("height", (g) => g.h)
        .attr("rx", 6);
      inOrder(groupSel);

      // Session boundaries: where tool-set separation sits.
      const sessionSel = gGroups
        .selectAll<SVGRectElement, LayoutNode>("rect.session")
        .data(
          layout.nodes.filter((n) => n.kind === "agent" && meets(band, n.y, n.y + n.h)),
          (n) => n.key,
        )
        .join("rect")
        .attr("class", (n) => {
          const a = analysis.controls.separation.agents.find((x) => `agent:${x.agentId}` === n.key);
          return `session${a?.holdsBoth ? " fails" : " holds"}`;
        })
        .attr("x", (n) => n.x - 5)
        .attr("y", (n) => n.y - 6)
        .attr("width", (n) => n.w + 10)
        .attr("height", (n) => n.h + 12)
        .attr("rx", 8);
      // A second kind in the same layer: raised, they follow every group as in a draw at once.
      if (reorder) sessionSel.raise();

      // Edges: strong on a path, muted otherwise, accent when highlighted.
      const edgeSel = gEdges
        .selectAll<SVGPathElement, LayoutEdge>("path.edge")
        .data(band ? layout.edges.filter((e) => edgeMeets(band, e)) : layout.edges, (e) => e.key)
        .join("path")
        .attr("class", (e) => {
          const hl = highlight ? (highlight.edges.has(e.key) ? " hl" : " dim") : "";
          return `edge ${e.onPath ? "on" : "off"}${hl}`;
        })
        .attr("d", (e) => curve(e, layout)?.d ?? "")
        .attr("data-edge", (e) => e.key);
      inOrder(edgeSel);

      // Nodes.
      const nodeSel = gNodes
        .selectAll<SVGGElement, LayoutNode>("g.gnode")
        .data(
          band ? layout.nodes.filter((n) => meets(band, n.y, n.y + n.h)) : layout.nodes,
          (n) => n.key,
        )
        .join((enter) => {
          const g = enter.append("g");
          g.append("rect").attr("class", "ring");
          g.append("rect").attr("class", "box");
          // Only a sink has the stripe and only a group header the ▸/▾ mark (a key never changes
          // kind), so the other nodes do not carry empty elements for the browser to style and lay out.
          g.filter((n) => n.kind === "sink")
            .append("rect")
            .attr("class", "stripe");
          g.append("text").attr("class", "label");
          g.filter((n) => n.group !== null)
            .append("text")
            .attr("class", "meta");
          g.on("click", (_event: MouseEvent, n) => {
            if (n.kind === "group") latest.current.onToggleGroup(n.key);
            else latest.current.onSelectNode(latest.current.selectedKey === n.key ? null : n.key);
            setActive(n.key);
          });
          g.on("mouseenter", function (event: MouseEvent, n) {
            open(event, n, this);
          });
          g.on("mouseleave", hideTip);
          g.on("focus", function (event: FocusEvent, n) {
            open(event, n, this);
          });
          g.on("blur", hideTip);
          return g;
        });
      nodeSel
        .attr("class", (n) => {
          const node = n.node;
          const open = node?.kind === "writers" && node.reachesOutsideBoundary ? " open" : "";
          const suggested =
            node &&
            (node.kind === "returning" || node.kind === "sink") &&
            node.rolesOrigin === "suggested"
              ? " suggested"
              : "";
          const hl = highlight ? (highlight.nodes.has(n.key) ? " hl" : " dim") : "";
          const collapsed = n.group ? (n.group.collapsed ? " collapsed" : " header") : "";
          const server = nodeServer(n);
          const isBlocked = server !== null && blocked.has(server) ? " blocked" : "";
          const appOnly = isAppOnlyNode(n) ? " app-only" : "";
          return `gnode k-${n.kind}${n.onPath ? " on" : " off"}${open}${suggested}${hl}${collapsed}${isBlocked}${appOnly}${selectedKey === n.key ? " selected" : ""}`;
        })
        .attr("transform", (n) => `translate(${n.x},${n.y})`)
        .attr("tabindex", (n) => (n.key === activeKey ? 0 : -1))
        .attr("role", "button")
        .attr("data-key", (n) => n.key)
        .attr("data-column", (n) => n.column)
        .attr("aria-label", (n) => ariaLabel(n, names, labels.get(n.key) ?? n.label, blocked))
        .attr("aria-pressed", (n) => (n.group ? null : String(selectedKey === n.key)))
        .attr("aria-expanded", (n) => (n.group ? String(!n.group.collapsed) : null));
      inOrder(nodeSel);
      nodeSel
        .select("rect.ring")
        .attr("x", -3)
        .attr("y", -3)
        .attr("width", (n) => n.w + 6)
        .attr("height", (n) => n.h + 6)
        .attr("rx", 6);
      nodeSel
        .select("rect.box")
        .attr("width", (n) => n.w)
        .attr("height", (n) => n.h)
        .attr("rx", 4);
      nodeSel
        .select("rect.stripe")
        .attr("width", 3)
        .attr("height", (n) => n.h)
        .attr("rx", 1.5);
      nodeSel
        .select("text.label")
        .attr("x", (n) => (n.group ? 16 : 8))
        .attr("y", 15)
        .text(
          (n) => (labels.get(n.key) ?? n.label) + (isAppOnlyNode(n) ? ` ${APP_ONLY_MARK}` : ""),
        );
      // A cut label's full text as the node's title, so hovering it names it whole (the tooltip
      // and the accessible name have it too). Only cut labels get one: a title per node of a
      // 5,000-tool graph is thousands of elements nobody reads.
      nodeSel.each(function (n) {
        const shown = labels.get(n.key) ?? n.label;
        const full = n.group ? `${groupName(n.group, names)}${groupCount(n.group)}` : n.label;
        let title = this.querySelector<SVGTitleElement>(":scope > title");
        if (shown === n.label || (n.group && shown === groupName(n.group, names))) {
          title?.remove();
          return;
        }
        if (!title) {
          title = document.createElementNS("http://www.w3.org/2000/svg", "title");
          this.prepend(title);
        }
        title.textContent = full;
      });
      nodeSel
        .select("text.meta")
        .attr("x", 5)
        .attr("y", 15)
        .text((n) => (n.group?.collapsed ? "▸" : "▾"));
      nodeSel
        .filter((n) => n.group !== null)
        .select("text.label")
        .append("tspan")
        .attr("class", "count")
        .text((n) => groupCount(n.group!));

      // Control markers and cut marks.
      const marks = gMarks
        .selectAll<SVGGElement, Marker>("g.marker")
        .data(
          band ? controls.markers.filter((m) => meets(band, m.y, m.y + PILL_H)) : controls.markers,
          (m) => m.key,
        )
        .join((enter) => {
          const g = enter.append("g");
          g.append("rect");
          g.append("text");
          g.append("title");
          return g;
        })
        .attr("class", (m) => `marker s-${m.status}`)
        .attr("transform", (m) => `translate(${m.x},${m.y})`)
        .attr("data-control", (m) => m.key)
        .on("mouseenter", (event: MouseEvent, m) => showTip(event, m.tooltip))
        .on("mouseleave", hideTip);
      marks
        .select("rect")
        .attr("width", (m) => pillWidth(m.label))
        .attr("height", PILL_H)
        .attr("rx", PILL_H / 2);
      marks
        .select("text")
        .attr("x", 6)
        .attr("y", 11)
        .text((m) => m.label);
      marks.select("title").text((m) => m.tooltip.join("\n"));
      inOrder(marks);

      const cutSel = gMarks
        .selectAll<SVGGElement, Cut>("g.cut")
        .data(
          band ? controls.cuts.filter((c) => meets(band, c.y - 7, c.y + 7)) : controls.cuts,
          (c) => c.key,
        )
        .join((enter) => {
          const g = enter.append("g").attr("class", "cut");
          g.append("path").attr("class", "stub");
          g.append("path").attr("class", "mark");
          g.append("text");
          g.append("title");
          return g;
        })
        .attr("transform", (c) => `translate(${c.x},${c.y})`)
        .attr("data-cut", (c) => c.key)
        .on("mouseenter", (event: MouseEvent, c) => showTip(event, c.tooltip))
        .on("mouseleave", hideTip);
      // The trifecta's legs under each agent; their words are in the list under the graph
      // (TrifectaLegs), so the marks are hidden from assistive technology, not duplicated.
      const legSel = gMarks
        .selectAll<SVGGElement, LegMark>("g.leg")
        .data(band ? legs.filter((l) => meets(band, l.y, l.y + LEG_H)) : legs, (l) => l.mark)
        .join((enter) => {
          const g = enter.append("g").attr("aria-hidden", "true");
          g.append("rect");
          g.append("text");
          g.append("title");
          return g;
        })
        .attr("class", (l) => `leg ${l.present ? "present" : "absent"}`)
        .attr("transform", (l) => `translate(${l.x},${l.y})`)
        .attr("data-leg", (l) => l.mark)
        .on("mouseenter", (event: MouseEvent, l) => showTip(event, [l.text]))
        .on("mouseleave", hideTip);
      legSel
        .select("rect")
        .attr("width", (l) => l.w)
        .attr("height", LEG_H)
        .attr("rx", 3);
      legSel
        .select("text")
        .attr("x", 5)
        .attr("y", 9)
        .text((l) => l.short);
      legSel.select("title").text((l) => l.text);
      if (reorder) legSel.raise();

      cutSel.select("path.stub").attr("d", "M0,0H30");
      cutSel.select("path.mark").attr("d", "M31,-7L25,7M37,-7L31,7");
      cutSel.select("text").attr("x", 2).attr("y", -5).text("cut");
      cutSel.select("title").text((c) => c.tooltip.join("\n"));
      if (reorder) cutSel.raise();
    };

    const band =
      painted.current || layout.nodes.length === 0 ? null : firstBand(svgEl, layout.height);
    // A full draw after a banded one (the rest, or a redraw that came first) puts the SVG in order.
    draw(band, band === null && banded.current);
    banded.current = band !== null;
    let cancelled = false;
    let rest: ReturnType<typeof setTimeout> | undefined;
    if (!painted.current && layout.nodes.length > 0) {
      painted.current = true;
      // Set on the frame after the first paint; the rest of a banded draw follows it, so what
      // is timed is what the reader first sees. A redraw before then draws and reorders it all.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          performance.mark("graph-painted");
          if (band && !cancelled)
            rest = setTimeout(() => {
              if (cancelled) return;
              draw(null, true);
              banded.current = false;
            });
        }),
      );
    }
    return () => {
      cancelled = true;
      clearTimeout(rest);
    };
  }, [
    analysis,
    layout,
    highlight,
    selectedKey,
    activeKey,
    controls,
    names,
    labels,
    legs,
    queryClient,
  ]);

  const onKeyDown = (event: React.KeyboardEvent<SVGSVGElement>) => {
    const target = (event.target as Element).closest?.("g.gnode");
    const key = target?.getAttribute("data-key");
    if (!key) return;
    const dirs: Record<string, "up" | "down" | "left" | "right" | "home" | "end"> = {
      ArrowUp: "up",
      ArrowDown: "down",
      ArrowLeft: "left",
      ArrowRight: "right",
      Home: "home",
      End: "end",
    };
    const dir = dirs[event.key];
    if (dir) {
      event.preventDefault();
      const next = neighbour(layout, key, dir);
      if (next) {
        setActive(next);
        const el = svgRef.current?.querySelector<SVGGElement>(
          `g.gnode[data-key="${CSS.escape(next)}"]`,
        );
        el?.focus();
      }
      return;
    }
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      const n = layout.byKey.get(key);
      if (n?.kind === "group") props.onToggleGroup(key);
      else props.onSelectNode(selectedKey === key ? null : key);
      return;
    }
    if (event.key === "Escape") props.onSelectNode(null);
  };

  return (
    <div className="rr-graph-canvas" style={{ width: layout.width, height: layout.height }}>
      <svg
        ref={svgRef}
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label="Source-to-sink graph"
        aria-describedby="graph-keys"
        onKeyDown={onKeyDown}
        data-testid="graph-svg"
      />
      {tip && (
        <div
          className="rr-graph-tip"
          role="tooltip"
          style={{
            left: Math.max(8, Math.min(tip.x + 12, window.innerWidth - 336)),
            top: tip.y + 12 > window.innerHeight - 160 ? undefined : tip.y + 12,
            bottom:
              tip.y + 12 > window.innerHeight - 160 ? window.innerHeight - tip.y + 12 : undefined,
          }}
        >
          {tip.lines.map((l, i) => (
            <div key={i} className={i === 0 ? "tip-title" : undefined}>
              {l}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
