"use client";

/**
 * The Controls section: the composed residue, then every control of the registry, laid out by what
 * it is about (review-wide controls, then one card per server with its server-scoped controls, then
 * agent-scoped controls with a section per agent). What is a control's own (its details and form)
 * comes from the UI map in controls-ui.tsx; nothing here names a control.
 */
import { useQuery } from "@tanstack/react-query";
import { Fragment } from "react";
import { analysisOptions } from "@/components/review/analysis-queries";
import { StatementsForm } from "@/components/review/controls-forms";
import {
  CONTROL_UI,
  defaultDetails,
  type ControlUi,
  type ControlUiProps,
} from "@/components/review/controls-ui";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { POSITION_LABEL } from "@/components/graph/view-model";
import type { Analysis } from "@/lib/analysis/analyze";
import type { Finding } from "@/lib/model/findings";
import { CONTROLS, evaluationsOf, type ControlId } from "@/lib/controls/registry";
import type {
  AnyControlDefinition,
  ControlEvaluationBase,
  ControlStatus,
} from "@/lib/controls/types";
import type { Agent, RelayServer, Review } from "@/lib/review/schema";

const STATUS_BADGE: Record<ControlStatus, { className: string; label: string }> = {
  holds: { className: "badge badge-ok", label: "holds" },
  fails: { className: "badge badge-danger", label: "fails" },
  absent: { className: "badge badge-warn", label: "absent" },
  cannot_evaluate: { className: "badge badge-danger", label: "cannot evaluate" },
};

function StatusBadge({ status }: { status: ControlStatus }) {
  const b = STATUS_BADGE[status];
  return <span className={b.className}>{b.label}</span>;
}

function FindingList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0, gap: "0.4rem" }}>
      {findings.map((f) => (
        <li
          key={f.id}
          className={`callout ${f.severity === "critical" || f.severity === "high" ? "danger" : "warn"}`}
        >
          <strong>{f.title}</strong> <span className="badge badge-neutral">{f.severity}</span>
          <div className="small">{f.why.summary}</div>
          {f.why.reliesOnSuggestions && (
            <div className="small muted">Relies on an unconfirmed role suggestion.</div>
          )}
        </li>
      ))}
    </ul>
  );
}

function StopsLeaves({ stops, residue, cuts }: { stops: string; residue: string; cuts: boolean }) {
  return (
    <dl className="kv small">
      <dt>Stops</dt>
      <dd>{stops}</dd>
      <dt>Leaves</dt>
      <dd>{residue}</dd>
      <dt>Path</dt>
      <dd>
        {cuts ? (
          <strong>cuts the source-to-sink path</strong>
        ) : (
          "narrows an end of the path; does not cut it"
        )}
      </dd>
    </dl>
  );
}

/** One control at one scope: its status, where it sits, its own details, what it stops and leaves, findings, form. */
function ControlAtScope(props: {
  definition: AnyControlDefinition;
  analysis: Analysis | null;
  editor: ReviewEditor;
  review: Review;
  server?: RelayServer;
  agent?: Agent;
  /** Whether "Stops / Leaves" is shown here (a per-agent section shows it once, on its card). */
  showStops: boolean;
}) {
  const { definition, analysis, editor, review, server, agent } = props;
  const { entry } = definition;
  const ui: ControlUi = CONTROL_UI[entry.id as ControlId];
  const inScope = (e: ControlEvaluationBase) =>
    server
      ? e.scope.kind === "server" && e.scope.serverId === server.id
      : agent
        ? e.scope.kind === "agent" && e.scope.agentId === agent.id
        : e.scope.kind === "review";
  const evaluation = analysis
    ? (evaluationsOf(analysis.controls, definition).find(inScope) ?? null)
    : null;
  const absent = analysis
    ? analysis.controls.absent.filter((a) => a.controlId === entry.id && inScope(a))
    : [];
  const uiProps: ControlUiProps = {
    editor,
    review,
    evaluation,
    ...(server ? { server } : {}),
    ...(agent ? { agent } : {}),
  };
  const badge = evaluation ? (
    <StatusBadge status={evaluation.status} />
  ) : (
    absent.length > 0 && <StatusBadge status="absent" />
  );
  return (
    <>
      {props.showStops ? (
        <div className="row">
          <h4 style={{ margin: 0 }}>{entry.name}</h4>
          {badge}
          <span className="small muted">sits at {POSITION_LABEL[entry.sitsAt]}</span>
        </div>
      ) : (
        <div className="row">
          <h4 style={{ margin: 0 }}>{agent?.name}</h4>
          {badge}
        </div>
      )}
      {(ui.details ?? defaultDetails)(uiProps)}
      {props.showStops && (
        <StopsLeaves stops={entry.stops} residue={entry.residue} cuts={entry.canCutPath} />
      )}
      {ui.afterStops?.(uiProps)}
      <FindingList findings={evaluation?.findings ?? absent.flatMap((a) => a.findings)} />
      {ui.form?.(uiProps)}
      {ui.afterForm?.(uiProps)}
    </>
  );
}

/** A review-wide control's card (tool-set separation). */
function ReviewControl(props: {
  definition: AnyControlDefinition;
  analysis: Analysis | null;
  editor: ReviewEditor;
  review: Review;
}) {
  const { definition, analysis } = props;
  const { entry } = definition;
  const ui: ControlUi = CONTROL_UI[entry.id as ControlId];
  const evaluation = analysis ? (evaluationsOf(analysis.controls, definition)[0] ?? null) : null;
  const uiProps: ControlUiProps = { editor: props.editor, review: props.review, evaluation };
  return (
    <article
      className="card stack"
      aria-labelledby={`${entry.id}-heading`}
      data-testid={ui.testId?.(entry.id)}
    >
      <div className="row">
        <h3 id={`${entry.id}-heading`} style={{ margin: 0 }}>
          {entry.name}
        </h3>
        {evaluation && <StatusBadge status={evaluation.status} />}
        <span className="small muted">sits at {POSITION_LABEL[entry.sitsAt]}</span>
      </div>
      {(ui.details ?? defaultDetails)(uiProps)}
      <StopsLeaves stops={entry.stops} residue={entry.residue} cuts={entry.canCutPath} />
      {ui.afterStops?.(uiProps)}
      <FindingList findings={evaluation?.findings ?? []} />
      {ui.form?.(uiProps)}
      {ui.afterForm?.(uiProps)}
    </article>
  );
}

/** A server's card: each server-scoped control of the registry, in order. */
function ServerControls({
  editor,
  review,
  server,
  analysis,
}: {
  editor: ReviewEditor;
  review: Review;
  server: RelayServer;
  analysis: Analysis | null;
}) {
  const controls = CONTROLS.filter((c) => c.scope === "server");
  return (
    <article className="card stack" aria-labelledby={`controls-${server.id}`}>
      <h3 id={`controls-${server.id}`}>{server.name}</h3>
      {controls.map((definition, i) => {
        const ui: ControlUi = CONTROL_UI[definition.entry.id];
        return (
          <Fragment key={definition.entry.id}>
            {i > 0 && (
              <hr style={{ border: "none", borderTop: "1px solid var(--border)", width: "100%" }} />
            )}
            <section
              className="stack"
              aria-label={
                ui.sectionLabel?.(server.name) ?? `${definition.entry.name} of ${server.name}`
              }
              data-testid={ui.testId?.(server.id)}
            >
              <ControlAtScope
                definition={definition}
                analysis={analysis}
                editor={editor}
                review={review}
                server={server}
                showStops
              />
            </section>
          </Fragment>
        );
      })}
    </article>
  );
}

/** An agent-scoped control's card (approval): where it sits, then a section per agent. */
function AgentControl(props: {
  definition: AnyControlDefinition;
  analysis: Analysis | null;
  editor: ReviewEditor;
  review: Review;
}) {
  const { definition, review } = props;
  const { entry } = definition;
  const ui: ControlUi = CONTROL_UI[entry.id as ControlId];
  return (
    <article className="card stack" aria-labelledby={`${entry.id}-heading`}>
      <div className="row">
        <h3 id={`${entry.id}-heading`} style={{ margin: 0 }}>
          {entry.name}
        </h3>
        <span className="small muted">sits at {POSITION_LABEL[entry.sitsAt]}</span>
      </div>
      <StopsLeaves stops={entry.stops} residue={entry.residue} cuts={entry.canCutPath} />
      {review.agents.map((agent) => (
        <section
          key={agent.id}
          className="stack"
          aria-label={ui.sectionLabel?.(agent.name) ?? `${entry.name} in ${agent.name}`}
          data-testid={ui.testId?.(agent.id)}
        >
          <ControlAtScope
            definition={definition}
            analysis={props.analysis}
            editor={props.editor}
            review={review}
            agent={agent}
            showStops={false}
          />
        </section>
      ))}
    </article>
  );
}

export function ControlsSection(props: {
  editor: ReviewEditor;
  review: Review;
  analysis: Analysis | null;
  analysisError: string | null;
}) {
  const { editor, review, analysis } = props;
  const servers = review.servers.filter((s) => s.transport.kind !== "manual");
  return (
    <section className="stack" aria-labelledby="controls-heading">
      <div>
        <h2 id="controls-heading" style={{ marginBottom: 0 }}>
          Controls
        </h2>
        <p className="muted small" style={{ margin: 0 }}>
          Evaluated from machine-checkable configuration, never from prose. Only tool-set separation
          cuts the path itself; the others narrow its ends.
        </p>
      </div>
      {props.analysisError && (
        <div className="callout danger" role="alert">
          Could not evaluate the controls: {props.analysisError}
        </div>
      )}
      {analysis && (
        <div className="card" data-testid="residue-statement">
          <h3>What survives the controls present</h3>
          <p style={{ margin: 0 }}>{analysis.controls.residue.text}</p>
          {analysis.controls.residue.caveats.map((c) => (
            <p key={c} className="small muted" style={{ margin: 0 }}>
              {c}
            </p>
          ))}
        </div>
      )}
      {CONTROLS.filter((c) => c.scope === "review").map((definition) => (
        <ReviewControl
          key={definition.entry.id}
          definition={definition}
          analysis={analysis}
          editor={editor}
          review={review}
        />
      ))}
      {servers.map((s) => (
        <ServerControls key={s.id} editor={editor} review={review} server={s} analysis={analysis} />
      ))}
      {CONTROLS.filter((c) => c.scope === "agent").map((definition) => (
        <AgentControl
          key={definition.entry.id}
          definition={definition}
          analysis={analysis}
          editor={editor}
          review={review}
        />
      ))}
      <article className="card stack" aria-labelledby="intent-heading">
        <h3 id="intent-heading">Statements of intent</h3>
        <p className="small muted" style={{ margin: 0 }}>
          Prose is not a control: no process opens the document during a tool call.
        </p>
        <StatementsForm editor={editor} review={review} />
      </article>
      {analysis && analysis.controls.notControls.length > 0 && (
        <article className="card stack">
          <h3>Not controls</h3>
          <ul className="small" style={{ margin: 0 }}>
            {analysis.controls.notControls.map((n) => (
              <li key={n.id}>
                <strong>{n.name}</strong>: {n.reason}
              </li>
            ))}
          </ul>
        </article>
      )}
    </section>
  );
}

/** The Controls section with the server's analysis of the current revision. */
export function ControlsSectionLoader(props: {
  id: string;
  revision: number;
  editor: ReviewEditor;
  review: Review;
}) {
  const analysis = useQuery(analysisOptions(props.id, props.revision));
  return (
    <ControlsSection
      editor={props.editor}
      review={props.review}
      analysis={analysis.data ?? null}
      analysisError={analysis.isError ? analysis.error.message : null}
    />
  );
}
