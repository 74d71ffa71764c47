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
import { toolKey } from "@/lib/model/ids";
import type { Review } from "@/lib/review/schema";
import type { ReviewHead } from "@/lib/reviews/api";

// The graph's drawing code is a chunk of its own: fetch it as soon as this section's code runs in
// the browser, beside the graph view's data, instead of after the section hydrated (on the
// 5,000-tool review that fetch started about a second after navigation, after the data was in).
if (typeof window !== "undefined") preloadSourceSinkGraph();

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

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
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
    const { before, name } = undo;
    const ok = await editor.save((r) => ({
      ...r,
      agents: before.agents,
      controls: before.controls,
    }));
    setUndo(null);
    setMessage(
      ok
        ? { kind: "ok", text: `Undid the split of ${name}; saved as a new revision.` }
        : { kind: "error", text: "The undo was not saved; see the save status above." },
    );
  };

  const splitAgent = async (agent: GraphAgent, names: { reference: string; deploy: string }) => {
    const plan = analysis.controls.separation.agents.find(
      (a) => a.agentId === agent.agentId,
    )?.split;
    if (!plan) return;
    // The section paints from the review's head; the document is loaded for the split alone.
    let review: Review;
    try {
      review = (await editor.loadDocument()).review;
    } catch (error) {
      setMessage({
        kind: "error",
        text: `The review could not be loaded, so nothing was saved: ${error instanceof Error ? error.message : String(error)}`,
      });
      return;
    }
    // The split's code is the separation control's, with the role inference behind it: loaded
    // when a reviewer splits, not with the section.
    const { applySplit } = await import("@/lib/controls/split");
    const next = applySplit(review, agent.agentId);
    // The route may analyse inspected (snapshot) tools while the browser only has the review:
    // save only a split that matches the plan the server computed, so what is saved is what was shown.
    const keysOf = (id: string) =>
      (next.agents.find((a) => a.id === id)?.tools ?? []).map((t) => toolKey(t.serverId, t.tool));
    if (
      next === review ||
      !sameKeys(keysOf(plan.reference.agentId), plan.reference.tools) ||
      !sameKeys(keysOf(plan.deploy.agentId), plan.deploy.tools)
    ) {
      setMessage({
        kind: "error",
        text: `The split computed from the review differs from the analysis (its tool lists come from an inspection); nothing was saved. Split ${agent.name} by hand in Agents & tool sets.`,
      });
      return;
    }
    // The reviewer's names for the two halves (the plan's when left empty).
    const referenceName = names.reference.trim() || plan.reference.name;
    const deployName = names.deploy.trim() || plan.deploy.name;
    const named: Review = {
      ...next,
      agents: next.agents.map((a) =>
        a.id === plan.reference.agentId
          ? { ...a, name: referenceName }
          : a.id === plan.deploy.agentId
            ? { ...a, name: deployName }
            : a,
      ),
    };
    const ok = await editor.save(() => named);
    setPreview(null);
    if (ok)
      setUndo({ before: { agents: review.agents, controls: review.controls }, name: agent.name });
    setMessage(
      ok
        ? {
            kind: "ok",
            text: `Split ${agent.name} into ${referenceName} and ${deployName}; saved as a new revision.`,
          }
        : { kind: "error", text: "The split was not saved; see the save status above." },
    );
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
                  <form
                    className="stack"
                    style={{ gap: "0.35rem" }}
                    aria-label={`Split ${a.name}`}
                    onSubmit={(e) => {
                      e.preventDefault();
                      void split(a, preview); // outcome shown in the message below
                    }}
                  >
                    <label className="field">
                      <span className="label-text">Reference agent&apos;s name</span>
                      <input
                        value={preview.reference}
                        maxLength={200}
                        onChange={(e) => setPreview({ ...preview, reference: e.target.value })}
                      />
                    </label>
                    <label className="field">
                      <span className="label-text">
                        {deployWord === "deploy" ? "Deploy" : "Actions"} agent&apos;s name
                      </span>
                      <input
                        value={preview.deploy}
                        maxLength={200}
                        onChange={(e) => setPreview({ ...preview, deploy: e.target.value })}
                      />
                    </label>
                    <div className="row">
                      <button
                        type="submit"
                        className="btn btn-primary"
                        disabled={editor.isSaving || splitting}
                      >
                        Apply the split
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost"
                        onClick={() => setPreview(null)}
                      >
                        Cancel
                      </button>
                    </div>
                  </form>
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
