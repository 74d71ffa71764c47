"use client";
/**
 * The Graph section: the residue statement, the source-to-sink graph with its paths and findings,
 * per-agent verdicts with the split action, and every control where it sits. Everything shown is
 * what the graph view route returned for the current revision (`lib/graph/view.ts`: the default
 * view, or the whole graph after "Show all"; a tool's reasons and a path's findings when opened);
 * the split applies the lib's `applySplit` (loaded on the click) to the review and saves it as a new revision, after
 * which the view refetches.
 */
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { analysisKeys } from "@/components/query-keys";
import {
  graphDetailsFetchers,
  graphOptions,
  type ReviewGraph,
} from "@/components/review/analysis-queries";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { NoPathsCallout, ResidueCallout } from "@/components/graph/analysis-callouts";
import { ControlsTable } from "@/components/graph/controls-table";
import { preloadSourceSinkGraph } from "@/components/graph/graph";
import { AfterTheGraph, GraphView, type GraphDetails } from "@/components/graph/graph-view";
import { AgentSessionsTable } from "@/components/graph/agent-sessions-table";
import type { GraphNames } from "@/components/graph/view-model";
import { RevealedText } from "@/components/surface/revealed-text";
import type { GraphAgent } from "@/lib/graph/section";
import type { Review } from "@/lib/review/schema";
import type { ReviewHead } from "@/lib/reviews/api";

// The graph's drawing code is a chunk of its own: fetch it as soon as this section's code runs in
// the browser, beside the graph view's data, instead of after the section hydrated (on the
// 5,000-tool review that fetch started about a second after navigation, after the data was in).
if (typeof window !== "undefined") preloadSourceSinkGraph();

/** The split preview's form: its code loads when a reviewer first asks for a split. */
const SplitPreviewForm = dynamic(() => import("@/components/review/split-preview-form"), {
  loading: () => (
    <p className="muted small" aria-busy="true">
      Loading the split preview…
    </p>
  ),
});

function Skeleton() {
  return (
    <section className="card stack" aria-busy="true" aria-label="Loading the analysis">
      <div className="skeleton" style={{ height: "1.4rem", width: "40%" }} />
      <div className="skeleton" style={{ height: "3rem" }} />
      <div className="skeleton" style={{ height: "20rem" }} />
    </section>
  );
}

/** "4 servers from declared tools, 1 from its latest inspection". */
function toolListSummary(analysis: ReviewGraph): string {
  const declared = analysis.toolLists.filter((l) => l.origin === "declared").length;
  const snapshot = analysis.toolLists.length - declared;
  const parts = [
    declared > 0 ? `${declared} server${declared === 1 ? "" : "s"} from declared tools` : "",
    snapshot > 0 ? `${snapshot} from ${snapshot === 1 ? "its" : "their"} latest inspection` : "",
  ].filter(Boolean);
  return parts.length > 0 ? `tools: ${parts.join(", ")}` : "no servers";
}

function AgentVerdicts(props: { analysis: ReviewGraph; editor: ReviewEditor }) {
  const { analysis, editor } = props;
  const [message, setMessage] = useState<{ kind: "ok" | "error"; text: string } | null>(null);
  // Set while the document loads for a split, before the save itself marks the editor busy.
  const [splitting, setSplitting] = useState(false);
  // The split being previewed (the names the two agents will take), and the one that can be undone.
  const [preview, setPreview] = useState<{
    agentId: string;
    reference: string;
    deploy: string;
  } | null>(null);
  const [undo, setUndo] = useState<{
    before: Pick<Review, "agents" | "controls">;
    name: string;
  } | null>(null);

  const split = async (agent: GraphAgent, names: { reference: string; deploy: string }) => {
    setSplitting(true);
    try {
      await splitAgent(agent, names);
    } finally {
      setSplitting(false);
    }
  };

  /** Puts the agents and controls back as they were before the split, as a new revision. */
  const undoSplit = async () => {
    if (!undo) return;
    const { undoSplitAndSave } = await import("@/components/review/split-action");
    const message = await undoSplitAndSave(editor, undo);
    setUndo(null);
    setMessage(message);
  };

  const splitAgent = async (agent: GraphAgent, names: { reference: string; deploy: string }) => {
    // The split's code (the separation control's, with the role inference behind it) is loaded
    // when a reviewer splits, not with the section.
    const { applySplitAndSave } = await import("@/components/review/split-action");
    const outcome = await applySplitAndSave(analysis, editor, agent, names);
    if (outcome.saved !== undefined) setPreview(null);
    if (outcome.undo) setUndo(outcome.undo);
    if (outcome.message) setMessage(outcome.message);
  };

  return (
    <section className="card stack" aria-labelledby="verdicts-heading">
      <h2 id="verdicts-heading" style={{ margin: 0 }}>
        Agent sessions
      </h2>
      {analysis.agents.length === 0 ? (
        <p className="muted" style={{ margin: 0 }}>
          No agent is registered. Add one in Agents &amp; tool sets.
        </p>
      ) : (
        <AgentSessionsTable
          agents={analysis.agents}
          separation={analysis.controls.separation}
          renderSplit={(a, plan) => {
            const deployWord = plan.deploy.name.endsWith("(deploy)") ? "deploy" : "actions";
            return (
              <>
                {preview?.agentId === a.agentId ? (
                  <SplitPreviewForm
                    agentName={a.name}
                    deployWord={deployWord}
                    names={preview}
                    onChange={(names) => setPreview({ ...preview, ...names })}
                    onSubmit={() => void split(a, preview) /* outcome shown in the message below */}
                    onCancel={() => setPreview(null)}
                    disabled={editor.isSaving || splitting}
                  />
                ) : (
                  <button
                    type="button"
                    className="btn btn-primary"
                    onClick={() =>
                      setPreview({
                        agentId: a.agentId,
                        reference: plan.reference.name,
                        deploy: plan.deploy.name,
                      })
                    }
                    disabled={editor.isSaving || splitting}
                  >
                    Split {a.name} into a reference agent and a {deployWord} agent…
                  </button>
                )}
              </>
            );
          }}
        />
      )}
      {message && (
        <div
          className={`callout ${message.kind === "ok" ? "ok" : "danger"}`}
          role="status"
          data-testid="split-message"
        >
          {message.text}
          {undo && message.kind === "ok" && (
            <>
              {" "}
              <button
                type="button"
                className="btn"
                onClick={() => void undoSplit() /* outcome shown in this message */}
                disabled={editor.isSaving}
              >
                Undo the split
              </button>
            </>
          )}
        </div>
      )}
    </section>
  );
}

export function GraphSection({
  id,
  editor,
  head,
  revision,
}: {
  id: string;
  editor: ReviewEditor;
  /** Names for the servers and agents the graph labels. */
  head: Pick<ReviewHead, "servers" | "agents">;
  revision: number;
}) {
  // `?graph=all` opens the whole graph (a link to share, and the bench's 500-node draw).
  const searchParams = useSearchParams();
  const [whole, setWhole] = useState(() => searchParams.get("graph") === "all");
  const query = useQuery(graphOptions(id, revision, whole ? "whole" : "focus"));
  // Keyed on the revision drawn (the previous one stays on screen while a save lands).
  const drawn = query.data?.revision ?? revision;
  const details = useMemo<GraphDetails>(
    () => ({ key: analysisKeys.graphDetails(id, drawn), ...graphDetailsFetchers(id) }),
    [id, drawn],
  );
  const names = useMemo<GraphNames>(() => {
    const servers = new Map(head.servers.map((s) => [s.id, s.name]));
    const agents = new Map(head.agents.map((a) => [a.id, a.name]));
    return { server: (sid) => servers.get(sid) ?? sid, agent: (aid) => agents.get(aid) ?? aid };
  }, [head.servers, head.agents]);

  if (query.isPending) return <Skeleton />;
  if (query.isError) {
    return (
      <section className="card stack" role="alert" aria-labelledby="graph-error-heading">
        <h2 id="graph-error-heading" style={{ margin: 0 }}>
          Could not load the analysis
        </h2>
        <p className="muted" style={{ margin: 0 }}>
          {query.error.message}
        </p>
        <div>
          <button
            type="button"
            className="btn"
            onClick={() => void query.refetch() /* errors show in this same panel */}
          >
            Try again
          </button>
        </div>
      </section>
    );
  }
  const analysis = query.data;
  const updating = query.isPlaceholderData || analysis.revision !== revision;
  const residue = analysis.controls.residue;
  const agentsOnPaths = analysis.agents.filter((a) => a.pathCount > 0).length;

  return (
    <>
      <section
        className="card stack"
        aria-labelledby="section-heading"
        data-revision={analysis.revision}
        data-testid="graph-section"
      >
        <div className="row" style={{ justifyContent: "space-between" }}>
          <h2 id="section-heading" style={{ margin: 0 }}>
            Source-to-sink graph
          </h2>
          <div className="row small muted">
            {updating ? (
              <span className="badge badge-accent" role="status">
                updating to revision {revision}…
              </span>
            ) : (
              <span>analysis of revision {analysis.revision}</span>
            )}
            <span
              title={analysis.toolLists
                .map((l) => `${names.server(l.serverId)}: ${l.toolCount} ${l.origin} tools`)
                .join("\n")}
            >
              {toolListSummary(analysis)}
            </span>
          </div>
        </div>
        {analysis.toolLists
          .filter((l) => l.blocked)
          .map((l) => (
            <div
              key={l.serverId}
              className="callout danger"
              role="alert"
              data-testid={`graph-blocked-${l.serverId}`}
            >
              <strong>BLOCKED</strong> <RevealedText text={names.server(l.serverId)} />:{" "}
              <RevealedText text={l.blocked?.reason ?? ""} />. Its tools are drawn outlined in red;
              no approval can rest on it until a reviewer re-pins it with a reason.
            </div>
          ))}
        <ResidueCallout residue={residue} testId="residue" textTestId="residue-text" />
        {analysis.paths.total === 0 ? (
          <NoPathsCallout analysis={analysis} testId="no-paths" />
        ) : (
          <p style={{ margin: 0 }} data-testid="path-summary">
            <strong>{analysis.paths.total}</strong> path{analysis.paths.total === 1 ? "" : "s"} from
            text writable outside the boundary to a sensitive sink, in {agentsOnPaths} agent session
            {agentsOnPaths === 1 ? "" : "s"}.
          </p>
        )}
        {analysis.graph.nodes.length === 0 ? (
          <div className="empty">
            <h3>Nothing to draw yet</h3>
            <p>Add sources, map them to tools and place tools in agents to see the graph.</p>
          </div>
        ) : (
          <GraphView
            key={`${analysis.reviewId}`}
            analysis={analysis}
            names={names}
            details={details}
            whole={whole}
            onWholeChange={setWhole}
          />
        )}
      </section>
      <AfterTheGraph>
        <AgentVerdicts analysis={analysis} editor={editor} />
        <section className="card stack" aria-labelledby="controls-heading">
          <h2 id="controls-heading" style={{ margin: 0 }}>
            Controls where they sit
          </h2>
          <p className="small muted" style={{ margin: 0 }}>
            Only tool-set separation cuts the source-to-sink path; the others narrow what sits at
            either end of it.
          </p>
          <ControlsTable analysis={analysis} names={names} />
        </section>
      </AfterTheGraph>
    </>
  );
}
