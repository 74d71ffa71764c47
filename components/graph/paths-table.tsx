"use client";
/** The accessible table view of the same paths the graph draws, one row per listed path. */
import { useState } from "react";
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
            {rows.map((p) => {
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
                    <span className="small muted">
                      {p.sinkRoles.join(", ").replaceAll("_", " ")}
                    </span>
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
            })}
          </tbody>
        </table>
      </div>
      {(listed.length > PATH_ROWS_SHOWN || analysis.paths.truncated) && (
        <div className="row small muted">
          {analysis.paths.truncated && (
            <span>
              The analysis lists {listed.length} of {analysis.paths.total} paths (limit{" "}
              {analysis.paths.limit}, {analysis.paths.perAgentLimit} per agent); the count is exact.
            </span>
          )}
          {listed.length > PATH_ROWS_SHOWN && (
            <button type="button" className="btn" onClick={() => setAll((v) => !v)}>
              {all ? `Show the first ${PATH_ROWS_SHOWN}` : `Show all ${listed.length} rows`}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
