"use client";
/**
 * The graph with its companions: legend, group controls, the path list (buttons) and the selected
 * path's findings. Presentational: it takes the analysis the route returned and keeps only view
 * state (collapsed groups, selected path, selected node).
 */
import dynamic from "next/dynamic";
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type KeyboardEvent,
  type ReactNode,
} from "react";
import type { PathView } from "@/lib/analysis/analyze";
import type { NodeId, PathId } from "@/lib/model/ids";
import type { GraphSectionData, PathDetail, ToolDetail } from "@/lib/graph/section";
import { SourceSinkGraph } from "./graph";
import {
  allGroups,
  COLUMNS,
  defaultCollapsed,
  layoutGraph,
  SELF_PATH_MARK,
  type GroupKey,
} from "./layout";
import { shownName } from "@/lib/model/prose";
import { SINK_GROUP_LABEL, type SinkGroupRole } from "@/lib/graph/sink-groups";
import { measureText } from "./measure";
import { isSelfPath, orderPaths, selfPaths, toolName, type GraphNames } from "./view-model";
import { groupPaths, PATH_GROUPS_ABOVE, type PathGroup } from "@/lib/graph/path-groups";
import { TrifectaLegs } from "./trifecta-legs";
import "./graph.css";

/** A selected path's findings: its code loads when a reviewer first selects a path. */
const PathFindings = dynamic(() => import("./path-findings"), {
  loading: () => (
    <p className="muted small" aria-busy="true">
      Loading the findings of this path…
    </p>
  ),
});

/** An agent's self-paths, explained: its code loads when a reviewer first selects that row. */
const SelfPathDetails = dynamic(() => import("./path-findings").then((m) => m.SelfPathDetails));

/**
 * The table view of the paths: its code loads when a reviewer opens the table (it starts open only
 * when few paths are listed).
 */
const PathsTable = dynamic(() => import("./paths-table").then((m) => m.PathsTable), {
  loading: () => (
    <p className="muted small" aria-busy="true">
      Loading the table of paths…
    </p>
  ),
});

/** Paths listed beside the graph before "Show all". */
export const PATH_BUTTONS_SHOWN = 50;

/**
 * Where the graph gets what it shows only when a reviewer opens it: a tool's role reasons (its
 * node's tooltip and description) and a path's findings. The review page fetches them from the
 * graph details route; the share view reads them from the analysis it already holds.
 */
export type GraphDetails = {
  /** Names the analysis these details belong to (review and revision), for caching. */
  key: readonly unknown[];
  tool: (key: string) => Promise<ToolDetail | null>;
  path: (pathId: string) => Promise<PathDetail | null>;
};

function Legend() {
  return (
    <div className="rr-graph-legend" aria-hidden="true">
      <span>
        <svg width="28" height="8">
          <path d="M0,4H28" stroke="#7b8594" strokeWidth="1.6" />
        </svg>
        on a path
      </span>
      <span>
        <svg width="28" height="8">
          <path d="M0,4H28" stroke="#d9dde3" strokeDasharray="3 3" />
        </svg>
        on no path
      </span>
      <span>
        <svg width="28" height="8">
          <path d="M0,4H28" stroke="#2457c5" strokeWidth="2.6" />
        </svg>
        selected
      </span>
      <span>
        <svg width="40" height="14">
          <path d="M0,7H22" stroke="#1f7a3f" strokeDasharray="4 3" strokeWidth="1.6" />
          <path d="M29,0L23,14M35,0L29,14" stroke="#1f7a3f" strokeWidth="2" />
        </svg>
        cut by separation
      </span>
      <span>
        <span className="badge badge-ok">✓</span> holds{" "}
        <span className="badge badge-danger">✕</span> fails{" "}
        <span className="badge badge-neutral">–</span> absent
      </span>
    </div>
  );
}

/**
 * Renders its children right after its first render, in a background render: what sits below the
 * graph (the path list and table here, agent verdicts and controls in the section) comes after the
 * graph has had its frame, instead of holding it back with about a thousand elements the reader
 * scrolls to later (with them in the same pass the 500-node bench graph painted about 10% later).
 */
export function AfterTheGraph({ children }: { children: ReactNode }) {
  return useDeferredValue(true, false) ? children : null;
}

/** An agent's name at the graph's agent font (bold 12 px), to size the agent column to it. */
const measureAgent = (label: string) => measureText(label, 12, 600);

/**
 * The room a sink's label or a sink group's header needs at the graph's fonts (node-labels.ts):
 * the label's inset and the node's padding, and for a group its ▸ mark and count.
 */
const sinkMeasure =
  (names: GraphNames) =>
  (label: string, group?: { serverId: string; role: SinkGroupRole; count: number }) =>
    group
      ? measureText(
          `${shownName(names.server(group.serverId))} · ${SINK_GROUP_LABEL[group.role]}`,
          11.5,
          600,
        ) + 66
      : measureText(label, 12, 600) + 16;

const noSubscription = () => () => {};
/**
 * False in a server render and while hydrating one (the share view renders the graph on the
 * server), true otherwise: text is measured and the URL read only in the browser, and a hydrating
 * render must match the server's, which had neither. A render that is not hydrating (the review
 * page draws the graph once its analysis is fetched) sees true at once, so it lays out once.
 */
const useInBrowser = () =>
  useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );

/**
 * `analysis` holds the nodes to draw (the default view, or the whole graph once `whole` is asked
 * for and has arrived); `onWholeChange` asks the owner for the other one ("Show all N").
 */
export function GraphView(props: {
  analysis: GraphSectionData;
  names: GraphNames;
  details: GraphDetails;
  whole: boolean;
  onWholeChange: (whole: boolean) => void;
}) {
  const { analysis, names, details, whole, onWholeChange } = props;
  const inBrowser = useInBrowser();
  const focus = analysis.focus;
  const drawnWhole = analysis.scope === "whole";
  const [collapsed, setCollapsed] = useState<Set<string>>(() => defaultCollapsed(analysis));
  // A new scope arrived (the whole graph after "Show all", or back): its groups start as the
  // default collapses them, and a node selected in the other view may not be drawn.
  // Unless the reviewer opened or closed groups while it was on its way.
  const [collapsedScope, setCollapsedScope] = useState(analysis.scope);
  const [resetOnArrival, setResetOnArrival] = useState(false);
  if (collapsedScope !== analysis.scope) {
    setCollapsedScope(analysis.scope);
    if (resetOnArrival) setCollapsed(defaultCollapsed(analysis));
    setResetOnArrival(false);
  }
  const changeCollapsed = (next: Set<string> | ((prev: Set<string>) => Set<string>)) => {
    setResetOnArrival(false);
    setCollapsed(next);
  };
  const [selectedPath, setSelectedPath] = useState<PathId | null>(null);
  const [selectedSelf, setSelectedSelf] = useState<NodeId | null>(null);
  const [selectedNode, setSelectedNode] = useState<string | null>(null);
  const [showAllPaths, setShowAllPaths] = useState(false);
  const [tableOpen, setTableOpen] = useState(analysis.paths.listed.length <= 40);

  const layout = useMemo(
    () =>
      layoutGraph(analysis, collapsed, {
        measureAgent: inBrowser ? measureAgent : undefined,
        measureSink: inBrowser ? sinkMeasure(names) : undefined,
        groupTotals: analysis.groupTotals,
      }),
    [analysis, collapsed, inBrowser, names],
  );
  const ordered = useMemo(() => orderPaths(analysis), [analysis]);

  // What of the graph its box hides, below and to the right: a visible cue says so while there
  // is any (a clipped sinks column read as the whole graph). Measured after each layout and scroll.
  const scrollRef = useRef<HTMLDivElement>(null);
  // Whether anything is hidden, not by how much: a state that changed with every scrolled pixel
  // would render the whole section on each scroll event.
  const [overflow, setOverflow] = useState({ below: false, right: false, sinksBelow: 0 });
  const measureOverflow = useCallback(() => {
    const box = scrollRef.current;
    if (!box) return;
    const below = box.scrollHeight - box.clientHeight - box.scrollTop > 2;
    const right = box.scrollWidth - box.clientWidth - box.scrollLeft > 2;
    // Rows of the canvas under the box's bottom edge (the column header sits above the canvas).
    const header = box.scrollHeight - layout.height;
    const bottom = box.scrollTop + box.clientHeight - header;
    let sinksBelow = 0;
    if (below)
      for (const key of layout.columns[4] ?? []) {
        const n = layout.byKey.get(key);
        if (n && n.y + n.h > bottom) sinksBelow += n.group?.collapsed ? n.group.count : 1;
      }
    setOverflow((prev) =>
      prev.below === below && prev.right === right && prev.sinksBelow === sinksBelow
        ? prev
        : { below, right, sinksBelow },
    );
  }, [layout]);
  useEffect(() => {
    measureOverflow();
    const box = scrollRef.current;
    if (!box || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measureOverflow);
    observer.observe(box);
    return () => observer.disconnect();
  }, [measureOverflow]);
  const selfTools = useMemo(() => selfPaths(analysis).byAgent, [analysis]);
  const path = selectedPath
    ? (analysis.paths.listed.find((p) => p.id === selectedPath) ?? null)
    : null;

  const throughNode = useMemo(
    () =>
      selectedNode
        ? ordered.filter((p) => p.nodeIds.some((n) => layout.rep.get(n) === selectedNode))
        : ordered,
    [ordered, layout, selectedNode],
  );
  // Self-paths are folded into one row per agent, after the cross-tool paths.
  const crossPaths = useMemo(() => throughNode.filter((p) => !isSelfPath(p)), [throughNode]);
  const selfRows = useMemo(() => {
    const byAgent = new Map<string, PathView[]>();
    for (const p of throughNode) {
      if (!isSelfPath(p)) continue;
      const list = byAgent.get(p.agentId);
      if (list) list.push(p);
      else byAgent.set(p.agentId, [p]);
    }
    return [...byAgent].map(([agentId, paths]) => {
      const agentNode =
        paths[0]!.nodeIds.find((n) => n.startsWith("agent:")) ?? (`agent:${agentId}` as NodeId);
      const tools = selfTools.get(agentNode) ?? [...new Set(paths.map((p) => p.sink))];
      return { agentId, agentNode, paths, tools };
    });
  }, [throughNode, selfTools]);
  const selfRow = selectedSelf
    ? (selfRows.find((r) => r.agentNode === selectedSelf) ?? null)
    : null;

  const highlight = useMemo(() => {
    const chosen = path ? [path] : selfRow ? selfRow.paths : selectedNode ? throughNode : null;
    if (!chosen) return null;
    const nodes = new Set<string>();
    const edges = new Set<string>();
    if (selectedNode) nodes.add(selectedNode);
    for (const p of chosen) {
      for (const n of p.nodeIds) {
        const k = layout.rep.get(n);
        if (k) nodes.add(k);
      }
      for (const e of p.edgeIds) {
        const k = layout.edgeRep.get(e);
        if (k) edges.add(k);
      }
    }
    if (selectedNode && chosen.length === 0)
      for (const e of layout.edges)
        if (e.from === selectedNode || e.to === selectedNode) edges.add(e.key);
    return { nodes, edges };
  }, [path, selfRow, selectedNode, throughNode, layout]);

  const toggleGroup = (key: string) =>
    changeCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const groups = useMemo(() => allGroups(analysis), [analysis]);

  const shown = showAllPaths ? crossPaths : crossPaths.slice(0, PATH_BUTTONS_SHOWN);
  // Many paths are listed by head source × sink, each group opened on demand (lib/graph/path-groups.ts).
  const grouped = crossPaths.length > PATH_GROUPS_ABOVE;
  const pathGroups = useMemo(() => (grouped ? groupPaths(crossPaths) : []), [grouped, crossPaths]);
  const shownGroups = showAllPaths ? pathGroups : pathGroups.slice(0, PATH_BUTTONS_SHOWN);
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set());
  // The group of the selected path is open, so the selection is always in view in the list.
  const isOpen = (g: PathGroup<PathView>) =>
    openGroups.has(g.key) || (selectedPath !== null && g.paths.some((p) => p.id === selectedPath));
  const toggleGroupOpen = (key: string, open: boolean) =>
    setOpenGroups((prev) => {
      const next = new Set(prev);
      if (open) next.add(key);
      else next.delete(key);
      return next;
    });
  const showWhole = (next: boolean) => {
    onWholeChange(next);
    setResetOnArrival(true);
    setSelectedNode(null);
  };
  const selectPath = (id: PathId | null) => {
    setSelectedPath(id);
    setSelectedSelf(null);
  };
  const onListKey = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const buttons = [
      ...event.currentTarget.querySelectorAll<HTMLButtonElement>(
        "button.rr-path-btn, button.rr-path-group",
      ),
    ];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const next = buttons[i + (event.key === "ArrowDown" ? 1 : -1)];
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };
  const selectedNodeLabel = selectedNode ? layout.byKey.get(selectedNode)?.label : null;
  const pathButton = (p: PathView) => (
    <button
      type="button"
      className="rr-path-btn"
      aria-pressed={selectedPath === p.id}
      data-path-id={p.id}
      onClick={() => selectPath(selectedPath === p.id ? null : p.id)}
    >
      <span className="hops">
        {p.head.label} → <code>{toolName(p.returningTool)}</code> → {names.agent(p.agentId)} →{" "}
        <code>{toolName(p.sink)}</code>
      </span>
      <br />
      <span className={`bound${p.head.bound && p.head.bound.kind !== "counted" ? " open" : ""}`}>
        writers: {p.head.boundLabel}
      </span>
    </button>
  );

  return (
    <div className="stack">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <Legend />
        <div className="row">
          <button
            type="button"
            className="btn"
            onClick={() => changeCollapsed(new Set())}
            disabled={collapsed.size === 0}
          >
            Expand all groups
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => changeCollapsed(new Set<GroupKey>(groups))}
            disabled={collapsed.size === groups.size}
          >
            Collapse all groups
          </button>
        </div>
      </div>
      {focus && focus.nodeCount < analysis.wholeNodeCount && (
        <div className="row small" data-testid="graph-view-scope">
          <span>
            {drawnWhole
              ? `The whole graph: all ${analysis.wholeNodeCount} nodes.`
              : focus.basis === "sensitive"
                ? `Showing the ${focus.nodeCount} nodes on paths to sensitive sinks (deploy or destroy, reach the network or share, confirmed writes); ${analysis.wholeNodeCount - focus.nodeCount} more are on paths to suggested writes or on no path.`
                : `Showing the ${focus.nodeCount} nodes on a path; ${analysis.wholeNodeCount - focus.nodeCount} more are on no path.`}
            {whole !== drawnWhole && (
              <span className="muted" role="status">
                {" "}
                Loading…
              </span>
            )}
          </span>
          <button
            type="button"
            className="btn"
            aria-pressed={whole}
            onClick={() => showWhole(!whole)}
          >
            {whole
              ? focus.basis === "sensitive"
                ? "Show only paths to sensitive sinks"
                : "Show only nodes on a path"
              : `Show all ${analysis.wholeNodeCount}`}
          </button>
        </div>
      )}
      <p id="graph-keys" className="small muted" style={{ margin: 0 }}>
        Tab into the graph, then use the arrow keys to move between nodes (left and right follow the
        edges), Enter to select a node or open a server group, Escape to clear. Hover or focus a
        node or a control for what it stops and what it leaves.
      </p>
      <div className="rr-graph-frame">
        <div
          className="rr-graph-scroll"
          data-testid="graph-scroll"
          ref={scrollRef}
          onScroll={measureOverflow}
        >
          <div className="rr-graph-cols" style={{ width: layout.width }} aria-hidden="true">
            {COLUMNS.map((c, i) => (
              <span key={c.id} style={{ left: layout.columnXs[i] }}>
                {c.label}
              </span>
            ))}
          </div>
          <SourceSinkGraph
            analysis={analysis}
            layout={layout}
            highlight={highlight}
            selectedKey={selectedNode}
            onSelectNode={(key) => {
              setSelectedNode(key);
              selectPath(null);
            }}
            onToggleGroup={toggleGroup}
            names={names}
            details={details}
          />
        </div>
        {overflow.below && (
          <div className="rr-scroll-cue below" data-testid="graph-scroll-cue">
            ↓{" "}
            {overflow.sinksBelow > 0
              ? `${overflow.sinksBelow} more sink${overflow.sinksBelow === 1 ? "" : "s"} below`
              : "More below"}
            : scroll the graph
          </div>
        )}
        {overflow.right && !overflow.below && (
          <div className="rr-scroll-cue right" data-testid="graph-scroll-cue">
            More to the right: scroll the graph →
          </div>
        )}
      </div>
      <TrifectaLegs agents={analysis.agents} agentName={names.agent} />

      <AfterTheGraph>
        <div className="rr-paths">
          <div className="stack" style={{ gap: "0.5rem" }}>
            <div className="row" style={{ justifyContent: "space-between" }}>
              <h3 style={{ margin: 0 }} id="path-list-heading">
                {selectedNode
                  ? `Paths through ${selectedNodeLabel ?? selectedNode} (${throughNode.length})`
                  : `Paths (${analysis.paths.total})`}
              </h3>
              {selectedNode && (
                <button
                  type="button"
                  className="btn btn-ghost small"
                  onClick={() => setSelectedNode(null)}
                >
                  Show all paths
                </button>
              )}
            </div>
            {throughNode.length === 0 ? (
              <p className="muted small" style={{ margin: 0 }}>
                {selectedNode
                  ? "No listed path runs through this node."
                  : "No source-to-sink paths."}
              </p>
            ) : (
              <ul
                className="rr-path-list"
                aria-labelledby="path-list-heading"
                onKeyDown={onListKey}
              >
                {grouped
                  ? shownGroups.map((g) =>
                      g.paths.length === 1 ? (
                        <li key={g.key}>{pathButton(g.first)}</li>
                      ) : (
                        <li key={g.key} className="rr-path-group-item">
                          <button
                            type="button"
                            className="rr-path-group"
                            aria-expanded={isOpen(g)}
                            data-path-group={g.key}
                            onClick={() => toggleGroupOpen(g.key, !isOpen(g))}
                          >
                            <span className="hops">
                              {isOpen(g) ? "▾" : "▸"} {g.first.head.label} → … →{" "}
                              <code>{toolName(g.first.sink)}</code>
                            </span>
                            <br />
                            <span className="small">
                              {g.paths.length} paths through {g.returningTools.length} returning
                              tool{g.returningTools.length === 1 ? "" : "s"} in{" "}
                              {g.agents.map((a) => names.agent(a)).join(", ")}
                            </span>
                          </button>
                          {isOpen(g) && (
                            <ul className="rr-path-list rr-path-sublist">
                              {g.paths.map((p) => (
                                <li key={p.id}>{pathButton(p)}</li>
                              ))}
                            </ul>
                          )}
                        </li>
                      ),
                    )
                  : shown.map((p) => <li key={p.id}>{pathButton(p)}</li>)}
                {selfRows.map((r) => (
                  <li key={`self:${r.agentId}`}>
                    <button
                      type="button"
                      className="rr-path-btn rr-self-paths"
                      aria-pressed={selectedSelf === r.agentNode}
                      data-self-paths={r.agentId}
                      onClick={() => {
                        setSelectedPath(null);
                        setSelectedSelf(selectedSelf === r.agentNode ? null : r.agentNode);
                      }}
                    >
                      <span className="hops">
                        {SELF_PATH_MARK} Self-paths in {names.agent(r.agentId)}: {r.tools.length}{" "}
                        tool{r.tools.length === 1 ? "" : "s"} return
                        {r.tools.length === 1 ? "s" : ""} untrusted text and{" "}
                        {r.tools.length === 1 ? "is a sink" : "are sinks"} too
                      </span>
                      <br />
                      <span className="small">
                        {r.tools.slice(0, 6).map(toolName).join(", ")}
                        {r.tools.length > 6 ? `, and ${r.tools.length - 6} more` : ""} (
                        {r.paths.length} listed path{r.paths.length === 1 ? "" : "s"})
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {(grouped ? pathGroups.length : crossPaths.length) > PATH_BUTTONS_SHOWN && (
              <button type="button" className="btn" onClick={() => setShowAllPaths((v) => !v)}>
                {showAllPaths
                  ? `Show the first ${PATH_BUTTONS_SHOWN}`
                  : `Show all ${grouped ? `${pathGroups.length} groups` : crossPaths.length}`}
              </button>
            )}
          </div>
          <div>
            {path ? (
              <PathFindings analysis={analysis} path={path} details={details} />
            ) : selfRow ? (
              <SelfPathDetails agentName={names.agent(selfRow.agentId)} tools={selfRow.tools} />
            ) : (
              <p className="muted small">
                Select a path (click it, or focus it and press Enter) to highlight it in the graph
                and read its findings with their reasons.
              </p>
            )}
          </div>
        </div>

        <details open={tableOpen} onToggle={(e) => setTableOpen(e.currentTarget.open)}>
          <summary className="small" style={{ cursor: "pointer" }}>
            <strong>Table view of the paths</strong>
          </summary>
          <div style={{ marginTop: "0.5rem" }}>
            {tableOpen && (
              <PathsTable
                analysis={analysis}
                paths={ordered}
                selected={selectedPath}
                onSelect={(id) => selectPath(id)}
              />
            )}
          </div>
        </details>
      </AfterTheGraph>
    </div>
  );
}
