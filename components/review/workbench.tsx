"use client";

import dynamic from "next/dynamic";
import Link from "next/link";
import { gated } from "@/components/ui/hydration-gate";
import { SaveStatus } from "@/components/ui/save-status";
import { ReviewTabs } from "@/components/review/review-tabs";
import { useReviewEditor, type ReviewEditor } from "@/components/review/use-review-editor";
import { ApiError } from "@/components/api-client";
import { sectionNeedsDocument, type ReviewSectionId } from "@/components/review/sections";

/**
 * Each section is its own chunk: the page loads the code of the section it shows (still rendered
 * on the server), not all seven with their forms, tables and the graph (issue 16: a review page
 * loaded 275 kB of gzipped JavaScript on Sources). A section's code is fetched when a tab opens it.
 * A section rendered on the server is on screen before its chunk has loaded, so each one is gated:
 * its controls are disabled until it has hydrated (components/ui/hydration-gate.tsx).
 */
const sectionLoading = () => (
  <div className="skeleton" style={{ height: "16rem" }} aria-busy="true" />
);
const SourcesSection = dynamic(
  () => import("@/components/review/sources-section").then((m) => gated(m.SourcesSection)),
  { loading: sectionLoading },
);
const ServersSection = dynamic(
  () => import("@/components/review/servers-section").then((m) => gated(m.ServersSection)),
  { loading: sectionLoading },
);
const SurfacePanel = dynamic(
  () => import("@/components/surface/surface-panel").then((m) => gated(m.SurfacePanel)),
  { loading: sectionLoading },
);
const AgentsSectionLoader = dynamic(
  () => import("@/components/review/agents-section").then((m) => gated(m.AgentsSectionLoader)),
  { loading: sectionLoading },
);
const ControlsSectionLoader = dynamic(
  () => import("@/components/review/controls-section").then((m) => gated(m.ControlsSectionLoader)),
  { loading: sectionLoading },
);
const GraphSection = dynamic(
  () => import("@/components/review/graph-section").then((m) => gated(m.GraphSection)),
  { loading: sectionLoading },
);
const SummarySection = dynamic(
  () => import("@/components/review/summary-section").then((m) => gated(m.SummarySection)),
  { loading: sectionLoading },
);
const HistorySection = dynamic(
  () => import("@/components/review/history-section").then((m) => gated(m.HistorySection)),
  { loading: sectionLoading },
);
const DecisionSection = dynamic(
  () => import("@/components/review/decision-section").then((m) => gated(m.DecisionSection)),
  { loading: sectionLoading },
);

function ConflictBanner({ editor }: { editor: ReviewEditor }) {
  if (!editor.conflict) return null;
  return (
    <div className="callout danger stack" role="alert" style={{ marginBottom: "1rem" }}>
      <div>
        <strong>
          Someone saved revision {editor.conflict.current.revision} while you were editing.
        </strong>{" "}
        Your change was not saved, and nothing was overwritten.
      </div>
      <div className="row">
        <button type="button" className="btn" onClick={editor.discardMine}>
          Load revision {editor.conflict.current.revision} and drop my change
        </button>
        <button type="button" className="btn btn-danger" onClick={editor.saveMineOnTop}>
          Save my version on top
        </button>
      </div>
    </div>
  );
}

export function ReviewWorkbench({ id, section }: { id: string; section: ReviewSectionId }) {
  const editor = useReviewEditor(id, { document: sectionNeedsDocument(section) });
  const { head, record } = editor;

  if (editor.isPending) {
    return <div className="skeleton" style={{ height: "16rem" }} aria-busy="true" />;
  }
  if (!head) {
    const notFound = editor.error instanceof ApiError && editor.error.status === 404;
    return (
      <div className="card empty" role="alert">
        <h3>{notFound ? "This review does not exist" : "Could not load this review"}</h3>
        <p>{notFound ? "It may have been deleted." : editor.error?.message}</p>
        <Link href="/">Back to reviews</Link>
      </div>
    );
  }

  return (
    <>
      <div className="page-head">
        <div>
          <p className="small muted" style={{ margin: 0 }}>
            <Link href="/" prefetch={false}>
              Reviews
            </Link>{" "}
            / revision {head.revision}
          </p>
          <h1>{head.title}</h1>
          {head.summary && (
            <p className="muted" style={{ maxWidth: "70ch" }}>
              {head.summary}
            </p>
          )}
        </div>
        <SaveStatus state={editor.shownState} />
      </div>
      <ReviewTabs id={id} current={section} />
      <ConflictBanner editor={editor} />
      {/* A section that needs the document waits for it (a tab opened from Graph or History loads it). */}
      {sectionNeedsDocument(section) &&
        !record &&
        (editor.query.isError ? (
          <div className="callout danger" role="alert">
            Could not load this review: {editor.query.error.message}
          </div>
        ) : (
          <div className="skeleton" style={{ height: "16rem" }} aria-busy="true" />
        ))}
      {section === "summary" && <SummarySection id={id} revision={head.revision} />}
      {section === "sources" && record && <SourcesSection editor={editor} review={record.review} />}
      {section === "servers" && record && (
        <ServersSection
          editor={editor}
          review={record.review}
          reviewId={id}
          revision={record.revision}
          renderSurface={(server) => (
            <SurfacePanel
              reviewId={id}
              server={server}
              revision={record.revision}
              review={record.review}
            />
          )}
        />
      )}
      {section === "agents" && record && (
        <AgentsSectionLoader
          id={id}
          revision={record.revision}
          editor={editor}
          review={record.review}
        />
      )}
      {section === "controls" && record && (
        <ControlsSectionLoader
          id={id}
          revision={record.revision}
          editor={editor}
          review={record.review}
        />
      )}
      {section === "graph" && (
        <GraphSection id={id} editor={editor} head={head} revision={head.revision} />
      )}
      {section === "history" && <HistorySection id={id} currentRevision={head.revision} />}
      {section === "decision" && record && (
        <DecisionSection id={id} review={record.review} revision={record.revision} />
      )}
    </>
  );
}
