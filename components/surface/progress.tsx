"use client";

import { exitAdvice, firstErrorLine } from "@/lib/mcp/exit-hint";
import { RevealedText } from "@/components/surface/revealed-text";
import type { InspectError, InspectProgress } from "@/lib/mcp/types";
import type { SurfaceList } from "@/lib/surface/types";

const LIST_NAME: Record<SurfaceList, string> = {
  tools: "tools",
  resources: "resources",
  resourceTemplates: "resource templates",
  prompts: "prompts",
};

function describe(e: InspectProgress) {
  switch (e.type) {
    case "connecting":
      return (
        <>
          Connecting over {e.transport}: <RevealedText text={e.target} className="mono small" />
        </>
      );
    case "fallback":
      return (
        <>
          Falling back from {e.from} to {e.to}: <RevealedText text={e.reason} />
        </>
      );
    case "initialized":
      return (
        <>
          Initialized:{" "}
          <RevealedText text={`${e.serverName} ${e.serverVersion}`} className="mono small" />,
          protocol {e.protocolVersion}
        </>
      );
    case "listing":
      return (
        <>
          Listing {LIST_NAME[e.list]}: page {e.page}
          {e.items > 0 ? ` (${e.items} received so far)` : ""}
        </>
      );
    case "list_changed":
      return <>The server changed its {LIST_NAME[e.list]} list: listing it again</>;
    case "settled":
      return (
        <>
          Settled: {e.counts.tools} tools, {e.counts.resources} resources,{" "}
          {e.counts.resourceTemplates} templates, {e.counts.prompts} prompts; {e.rejects} rejected,{" "}
          {e.relists} re-lists
        </>
      );
    case "error":
      return <>Stopped: {formatInspectError(e.error)}</>;
  }
}

export function formatInspectError(error: InspectError): string {
  return error.limit
    ? `limit ${error.limit} tripped: ${error.message}`
    : `${error.code.replace(/_/g, " ")}: ${error.message}`;
}

/** The live progress of an inspection, one line per event. */
export function ProgressList({
  events,
  isRunning,
}: {
  events: readonly InspectProgress[];
  isRunning: boolean;
}) {
  return (
    <ol className="progress-list" aria-label="Inspection progress" aria-live="polite">
      {events.map((e, i) => (
        <li
          key={i}
          className={e.type === "error" ? "is-error" : e.type === "settled" ? "is-done" : undefined}
        >
          {describe(e)}
        </li>
      ))}
      {isRunning && <li className="is-running">Working…</li>}
    </ol>
  );
}

/** A failed inspection: the limit that tripped (or what went wrong), and the server's last stderr lines. */
export function InspectErrorCallout({ error, when }: { error: InspectError; when?: string }) {
  return (
    <div
      className="callout danger stack"
      role="alert"
      data-testid="inspect-error"
      style={{ gap: "0.35rem" }}
    >
      <div>
        <strong>
          {error.limit
            ? `Inspection stopped: limit ${error.limit} tripped.`
            : error.code === "aborted"
              ? "Inspection cancelled."
              : "Inspection failed."}
        </strong>
        {when && <span className="small muted"> {when}</span>}
      </div>
      <div>
        <RevealedText text={error.message} />
      </div>
      {error.limit && (
        <div className="small">
          Raise {error.limit} under &ldquo;Limits for this inspection&rdquo; and inspect again if
          the server is legitimately slow or large.
        </div>
      )}
      {(error.exitCode !== undefined && error.exitCode !== null) || error.signal ? (
        <>
          <div className="small mono">
            exit {String(error.exitCode ?? "—")} {error.signal ? `signal ${error.signal}` : ""}
          </div>
          {firstErrorLine(error.stderrTail) && (
            <div data-testid="inspect-exit-line">
              It said:{" "}
              <RevealedText text={firstErrorLine(error.stderrTail) ?? ""} className="mono" />
            </div>
          )}
          <div className="small" data-testid="inspect-exit-advice">
            {exitAdvice(firstErrorLine(error.stderrTail))}
          </div>
        </>
      ) : null}
      {error.stderrTail?.trim() && (
        <details>
          <summary className="small">Server stderr (last lines)</summary>
          <pre className="server-text stderr">
            <RevealedText text={error.stderrTail} />
          </pre>
        </details>
      )}
    </div>
  );
}
