"use client";
/** The accessible table view of the same paths the graph draws, one row per listed path. */
import { Fragment, useMemo, useState } from "react";
import { groupPaths, PATH_GROUPS_ABOVE, type PathGroup } from "@/lib/graph/path-groups";
import type { ReactNode } from "react";
import type { PathView } from "@/lib/analysis/analyze";
import type { GraphSectionData } from "@/lib/graph/section";
import type { PathId } from "@/lib/model/ids";
import { SELF_PATH_MARK } from "./layout";
import {
  agentName,
  controlOf,
  isSelfPath,
  STATUS_BADGE,
  STATUS_LABEL,
  toolName,
} from "./view-model";

/** A source × sink group's row, and its paths' rows while it is open. */
function GroupRows(props: {
  group: PathGroup<PathView>;
  open: boolean;
  onToggle: (open: boolean) => void;
  agentName: (id: string) => string;
  pathRow: (p: PathView) => ReactNode;
}) {
  const { group: g, open } = props;
  // The accessible name starts with the words the button shows ("Show 4", "Hide").
  const ends = `paths from ${g.first.head.label} to ${toolName(g.first.sink)}`;
  return (
    <Fragment>
      <tr data-path-group={g.key} className="rr-path-group-row">
        <td>{g.first.head.label}</td>
        <td className="small muted">{g.first.head.boundLabel}</td>
        <td className="small">
          {g.returningTools.length} tool{g.returningTools.length === 1 ? "" : "s"}
        </td>
        <td>{g.agents.map(props.agentName).join(", ")}</td>
        <td>
          <code>{toolName(g.first.sink)}</code>
        </td>
        <td className="small muted">{g.paths.length} paths</td>
        <td>
          <button
            type="button"
            className="btn btn-ghost small"
            aria-expanded={open}
            aria-label={
              open ? `Hide the ${g.paths.length} ${ends}` : `Show ${g.paths.length} ${ends}`
            }
            onClick={() => props.onToggle(!open)}
          >
            {open ? "Hide" : `Show ${g.paths.length}`}
          </button>
        </td>
      </tr>
      {open && g.paths.map(props.pathRow)}
    </Fragment>
  );
}

/** Rows shown before "Show all". */
export const PATH_ROWS_SHOWN = 200;

/** `paths`: the listed paths in reading order (orderPaths), cross-tool paths to sensitive sinks first. */
export function PathsTable(props: {
  analysis: GraphSectionData;
  paths: readonly PathView[];
  selected: PathId | null;
  onSelect: (id: PathId) => void;
}) {
  const { analysis } = props;
  const [all, setAll] = useState(false);
  const listed = props.paths;
  const [openGroups, setOpenGroups] = useState<ReadonlySet<string>>(new Set());
  // Many paths are listed by head source × sink, a group row opening to its paths.
  const groups = useMemo(
    () => (listed.length > PATH_GROUPS_ABOVE ? groupPaths(listed) : null),
    [listed],
  );
  const pathRow = (p: PathView) => {
    const agent = analysis.agents.find((a) => a.agentId === p.agentId);
    const open = p.head.bound !== null && p.head.bound.kind !== "counted";
    return (
      <tr
        key={p.id}
        data-path-id={p.id}
        aria-selected={props.selected === p.id}
        style={props.selected === p.id ? { background: "var(--accent-soft)" } : undefined}
      >
        <td>{p.head.label}</td>
        <td className={`bound${open ? " open" : ""}`}>{p.head.boundLabel}</td>
        <td>
          <code>{toolName(p.returningTool)}</code>
        </td>
        <td>{agentName(analysis, p.agentId)}</td>
        <td>
          <code>{toolName(p.sink)}</code>
          {isSelfPath(p) && (
            <span className="badge badge-neutral" style={{ marginLeft: 4 }}>
              {SELF_PATH_MARK} self-path: the returning tool itself
            </span>
          )}{" "}
          <span className="small muted">{p.sinkRoles.join(", ").replaceAll("_", " ")}</span>
        </td>
        <td>
          <div className="row" style={{ gap: "0.25rem" }}>
            {(agent?.controlsOnPath ?? []).map((c) => (
              <span
                key={`${c.controlId}:${c.sitsAt}`}
                className={`badge ${STATUS_BADGE[c.status]}`}
                title={c.summary}
              >
                {controlOf(analysis, c.controlId).name}: {STATUS_LABEL[c.status]},{" "}
                {c.effect === "cuts" ? "would cut" : "narrows"}
              </span>
            ))}
          </div>
        </td>
        <td>
          <button
            type="button"
            className="btn btn-ghost small"
            onClick={() => props.onSelect(p.id)}
            aria-label={`Show path ${p.id} in the graph`}
          >
            Show
          </button>
        </td>
      </tr>
    );
  };

  const rows: readonly PathView[] = all ? listed : listed.slice(0, PATH_ROWS_SHOWN);
  if (listed.length === 0)
    return (
      <p className="muted small" style={{ margin: 0 }}>
        No paths to list.
      </p>
    );
  return (
    <div className="stack">
      <div style={{ overflowX: "auto" }}>
        <table className="data" data-testid="paths-table">
          <caption className="sr-only">
            Source-to-sink paths: head source and writer bound, returning tool, agent, sink,
            controls on the path
          </caption>
          <thead>
            <tr>
              <th scope="col">Head source</th>
              <th scope="col">Writer bound</th>
              <th scope="col">Returning tool</th>
              <th scope="col">Agent</th>
              <th scope="col">Sink</th>
              <th scope="col">Controls on the path</th>
              <th scope="col">
                <span className="sr-only">Show in graph</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {groups
              ? groups.map((g) =>
                  g.paths.length === 1 ? (
                    pathRow(g.first)
                  ) : (
                    <GroupRows
                      key={g.key}
                      group={g}
                      open={openGroups.has(g.key) || g.paths.some((p) => p.id === props.selected)}
                      onToggle={(open) =>
                        setOpenGroups((prev) => {
                          const next = new Set(prev);
                          if (open) next.add(g.key);
                          else next.delete(g.key);
                          return next;
                        })
                      }
                      agentName={(id) => agentName(analysis, id)}
                      pathRow={pathRow}
                    />
                  ),
                )
              : rows.map(pathRow)}
          </tbody>
        </table>
      </div>
      {((!groups && listed.length > PATH_ROWS_SHOWN) || analysis.paths.truncated) && (
        <div className="row small muted">
          {analysis.paths.truncated && (
            <span>
              The analysis lists {listed.length} of {analysis.paths.total} paths (limit{" "}
              {analysis.paths.limit}, {analysis.paths.perAgentLimit} per agent); the count is exact.
            </span>
          )}
          {!groups && listed.length > PATH_ROWS_SHOWN && (
            <button type="button" className="btn" onClick={() => setAll((v) => !v)}>
              {all ? `Show the first ${PATH_ROWS_SHOWN}` : `Show all ${listed.length} rows`}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
