"use client";
/**
 * The graph, its paths and the controls table of a shared review. The graph components take name
 * lookups as functions, which cannot cross from the server page, so this leaf builds them from plain maps.
 */
import { useId, useMemo, useState } from "react";
import { NoPathsCallout, ResidueCallout } from "@/components/graph/analysis-callouts";
import { AgentSessionsTable } from "@/components/graph/agent-sessions-table";
import { ControlsTable } from "@/components/graph/controls-table";
import { GraphView, type GraphDetails } from "@/components/graph/graph-view";
import type { GraphNames } from "@/components/graph/view-model";
import type { Analysis } from "@/lib/analysis/analyze";
import { graphSectionData, pathDetail, toolDetail } from "@/lib/graph/view";

export function ShareAnalysis(props: {
  analysis: Analysis;
  servers: Record<string, string>;
  agents: Record<string, string>;
}) {
  const { analysis, servers, agents } = props;
  const names = useMemo<GraphNames>(
    () => ({ server: (id) => servers[id] ?? id, agent: (id) => agents[id] ?? id }),
    [servers, agents],
  );
  // The share view holds its whole (frozen) analysis, so the graph's view and details come from it.
  const [whole, setWhole] = useState(false);
  const view = useMemo(
    () => graphSectionData(analysis, whole ? "whole" : "focus"),
    [analysis, whole],
  );
  const instance = useId();
  const details = useMemo<GraphDetails>(
    () => ({
      key: ["share", instance],
      tool: (key) => Promise.resolve(toolDetail(analysis, key)),
      path: (pathId) => Promise.resolve(pathDetail(analysis, pathId)),
    }),
    [analysis, instance],
  );
  const residue = analysis.controls.residue;
  return (
    <>
      <section className="card stack" aria-labelledby="share-graph-heading">
        <h2 id="share-graph-heading" style={{ margin: 0 }}>
          Source-to-sink graph and paths
        </h2>
        <ResidueCallout residue={residue} testId="share-residue" />
        {analysis.paths.total === 0 ? (
          <NoPathsCallout analysis={analysis} />
        ) : (
          <p style={{ margin: 0 }} data-testid="share-path-summary">
            <strong>{analysis.paths.total}</strong> path{analysis.paths.total === 1 ? "" : "s"} from
            text writable outside the boundary to a sensitive sink.
          </p>
        )}
        {analysis.graph.nodes.length > 0 && (
          <GraphView
            analysis={view}
            names={names}
            details={details}
            whole={whole}
            onWholeChange={setWhole}
          />
        )}
      </section>
      {view.agents.length > 0 && (
        <section className="card stack" aria-labelledby="share-sessions-heading">
          <h2 id="share-sessions-heading" style={{ margin: 0 }}>
            Agent sessions
          </h2>
          <AgentSessionsTable agents={view.agents} separation={view.controls.separation} />
        </section>
      )}
      <section className="card stack" aria-labelledby="share-controls-heading">
        <h2 id="share-controls-heading" style={{ margin: 0 }}>
          Controls: what each stops, what each leaves
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          Only tool-set separation cuts the source-to-sink path; the others narrow what sits at
          either end of it.
        </p>
        <ControlsTable analysis={view} names={names} />
      </section>
    </>
  );
}
