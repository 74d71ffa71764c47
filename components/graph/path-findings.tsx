"use client";
/**
 * The findings of the path a reviewer selected in the graph's path list, and an agent's self-paths
 * explained: shown only after a click,
 * so its code is a chunk of its own, loaded on that click and not with the Graph section
 * (graph-view.tsx imports it with next/dynamic).
 */
import { useQuery } from "@tanstack/react-query";
import type { PathView } from "@/lib/analysis/analyze";
import type { ToolKey } from "@/lib/model/ids";
import type { GraphSectionData } from "@/lib/graph/section";
import type { GraphDetails } from "./graph-view";
import { SELF_PATH_MARK } from "./layout";
import { controlOf, pathLabel, STATUS_BADGE, STATUS_LABEL, toolName } from "./view-model";

export default function PathFindings(props: {
  analysis: GraphSectionData;
  path: PathView;
  details: GraphDetails;
}) {
  const { analysis, path, details } = props;
  const query = useQuery({
    queryKey: [...details.key, "path", path.id],
    queryFn: () => details.path(path.id),
    staleTime: Infinity,
  });
  const onPath = query.data?.onPath ?? [];
  const atNodes = query.data?.atNodes ?? [];
  const controlsOnPath =
    analysis.agents.find((a) => a.agentId === path.agentId)?.controlsOnPath ?? [];
  const list = (title: string, items: typeof onPath) =>
    items.length > 0 && (
      <div className="stack" style={{ gap: "0.5rem" }}>
        <h4
          className="small muted"
          style={{ margin: 0, textTransform: "uppercase", letterSpacing: "0.03em" }}
        >
          {title}
        </h4>
        {items.map((f) => (
          <div key={f.id} className={`rr-finding sev-${f.severity}`} data-finding-id={f.id}>
            <h4>
              <span
                className={`badge ${f.severity === "critical" || f.severity === "high" ? "badge-danger" : f.severity === "medium" ? "badge-warn" : "badge-neutral"}`}
              >
                {f.severity}
              </span>{" "}
              {f.title}
            </h4>
            <p>
              <span className="muted">Why: </span>
              {f.why.summary}
              {f.why.reliesOnSuggestions && (
                <span className="badge badge-warn" style={{ marginLeft: 6 }}>
                  rests on a suggested role
                </span>
              )}
            </p>
          </div>
        ))}
      </div>
    );
  return (
    <div className="stack" data-testid="path-details" aria-live="polite">
      <div>
        <h3 style={{ marginBottom: "0.2rem" }}>{pathLabel(analysis, path)}</h3>
        <p className="small" style={{ margin: 0 }}>
          Writers:{" "}
          <span
            className={`bound${path.head.bound && path.head.bound.kind !== "counted" ? " open" : ""}`}
          >
            {path.head.boundLabel}
          </span>
          {" · "}sink roles: {path.sinkRoles.join(", ").replaceAll("_", " ")}
          {path.reliesOnSuggestions && " · relies on a suggested role"}
        </p>
      </div>
      {controlsOnPath.length > 0 && (
        <div className="row" style={{ gap: "0.3rem" }}>
          {controlsOnPath.map((c) => (
            <span
              key={`${c.controlId}:${c.sitsAt}`}
              className={`badge ${STATUS_BADGE[c.status]}`}
              title={c.summary}
            >
              {controlOf(analysis, c.controlId).name}: {STATUS_LABEL[c.status]} (
              {c.effect === "cuts" ? "would cut the path" : "narrows an end"})
            </span>
          ))}
        </div>
      )}
      {query.isPending ? (
        <p className="muted small" aria-busy="true">
          Loading the findings of this path…
        </p>
      ) : query.isError ? (
        <p className="small" role="alert">
          Could not load the findings of this path: {query.error.message}
        </p>
      ) : (
        <>
          {list("Findings on this path", onPath)}
          {list("Findings at its nodes", atNodes)}
          {query.data === null ? (
            <p className="muted small">This path is not in the revision the analysis now has.</p>
          ) : (
            onPath.length + atNodes.length === 0 && (
              <p className="muted small">No findings name this path or its nodes.</p>
            )
          )}
        </>
      )}
    </div>
  );
}

/** The self-paths row a reviewer selected: why each tool can steer its own next call. */
export function SelfPathDetails(props: { agentName: string; tools: readonly ToolKey[] }) {
  return (
    <div className="stack" data-testid="path-details" aria-live="polite">
      <h3 style={{ marginBottom: 0 }}>
        {SELF_PATH_MARK} Self-paths in {props.agentName}
      </h3>
      <p className="small" style={{ margin: 0 }}>
        Each of these tools returns text writable from outside the boundary and is itself a
        sensitive sink, so the text one call returns can steer the next call of the same tool. The
        graph draws each once as a sink marked {SELF_PATH_MARK}.
      </p>
      <p className="small" style={{ margin: 0 }}>
        {props.tools.map(toolName).join(", ")}
      </p>
    </div>
  );
}
