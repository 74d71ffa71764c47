"use client";
/** Every control where it sits: what it stops, what it leaves, its status, whether it cuts the path. */
import type { GraphSectionData } from "@/lib/graph/section";
import {
  controlRows,
  POSITION_LABEL,
  scopeName,
  STATUS_BADGE,
  STATUS_LABEL,
  type GraphNames,
} from "./view-model";

export function ControlsTable({
  analysis,
  names,
}: {
  analysis: Pick<GraphSectionData, "controls">;
  names: GraphNames;
}) {
  const rows = controlRows(analysis);
  return (
    <div style={{ overflowX: "auto" }}>
      <table className="data" data-testid="controls-table">
        <caption className="sr-only">
          Controls: where each sits, what it stops, what it leaves, status
        </caption>
        <thead>
          <tr>
            <th scope="col">Control</th>
            <th scope="col">Where it sits</th>
            <th scope="col">What it stops</th>
            <th scope="col">What it leaves</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} data-control={r.controlId}>
              <td>
                <strong>{r.name}</strong>
                <div className="small muted">{scopeName(r.scope, names)}</div>
              </td>
              <td>{POSITION_LABEL[r.sitsAt]}</td>
              <td>{r.stops}</td>
              <td>{r.residue}</td>
              <td>
                <span className={`badge ${STATUS_BADGE[r.status]}`}>{STATUS_LABEL[r.status]}</span>
                {r.cutsPath && (
                  <span className="badge badge-ok" style={{ marginLeft: 4 }}>
                    cuts the path
                  </span>
                )}
                <div className="small muted" style={{ marginTop: 4 }}>
                  {r.summary}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {analysis.controls.statementsOfIntent.length > 0 && (
        <div className="stack" style={{ marginTop: "0.75rem" }}>
          <h3 style={{ margin: 0 }}>Statements of intent</h3>
          {analysis.controls.statementsOfIntent.map((s, i) => (
            <div key={i} className="callout small">
              <q>{s.text}</q> <span className="muted">({s.where})</span>
              <div className="muted">No position in the path: {s.reason}</div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
