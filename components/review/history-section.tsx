"use client";

/**
 * The History section: every revision with who and when, and what changed between any two, item by
 * item (servers, tool assessments, sources, agents, controls, decisions), as the server computed
 * it (`lib/reviews/revision-diff.ts`). A text diff is opened for one item at a time, so Monaco
 * loads only when a reviewer asks for it and compares that item, not two whole documents.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { CodeDiff } from "@/components/code/code-editor";
import { reviewKeys } from "@/components/query-keys";
import { usePaintedMark } from "@/components/ui/painted-mark";
import { revisionDiffUrl, revisionListUrl } from "@/components/reviews/queries";
import { REVISION_ITEM_KINDS } from "@/lib/reviews/api";
import {
  ListRevisionsResponseSchema,
  RevisionDiffResponseSchema,
  RevisionItemResponseSchema,
  type RevisionChangeSummary,
} from "@/lib/reviews/api";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

const pretty = (value: unknown) => (value === null ? "" : JSON.stringify(value, null, 2));

/** Changes listed before "Show all": a change to every tool of a large review is thousands of rows. */
export const CHANGES_SHOWN = 200;

// A diff between two revisions never changes once both are written.
const diffOptions = (id: string, from: number, to: number) => ({
  queryKey: reviewKeys.revisionDiff(id, from, to),
  queryFn: () => apiFetch(revisionDiffUrl(id, from, to), RevisionDiffResponseSchema),
  staleTime: Infinity,
});
const itemOptions = (id: string, from: number, to: number, item: string) => ({
  queryKey: reviewKeys.revisionDiffItem(id, from, to, item),
  queryFn: () => apiFetch(revisionDiffUrl(id, from, to, item), RevisionItemResponseSchema),
  staleTime: Infinity,
});

const CHANGE_BADGE: Record<RevisionChangeSummary["change"], string> = {
  added: "badge-ok",
  removed: "badge-danger",
  changed: "badge-accent",
};

/** One item's two sides in Monaco's diff editor, fetched when opened. */
function ItemDiff(props: { id: string; from: number; to: number; change: RevisionChangeSummary }) {
  const { id, from, to, change } = props;
  const query = useQuery(itemOptions(id, from, to, change.key));
  if (query.isError)
    return <div className="callout danger">Could not load this item: {query.error.message}</div>;
  if (!query.data) return <div className="skeleton" style={{ height: 320 }} aria-busy="true" />;
  return (
    <div
      style={{
        border: "1px solid var(--border)",
        borderRadius: "var(--radius)",
        overflow: "hidden",
      }}
      data-testid="revision-diff"
    >
      <CodeDiff
        original={pretty(query.data.item.before)}
        modified={pretty(query.data.item.after)}
        language="json"
        height={320}
        ariaLabel={`${change.label}, revision ${from} against revision ${to}`}
      />
    </div>
  );
}

function ChangeList(props: {
  id: string;
  from: number;
  to: number;
  changes: RevisionChangeSummary[];
}) {
  const { id, from, to, changes } = props;
  const [open, setOpen] = useState<string | null>(null);
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? changes : changes.slice(0, CHANGES_SHOWN);
  return (
    <div className="stack" style={{ gap: "0.75rem" }}>
      {REVISION_ITEM_KINDS.map(({ kind, label }) => {
        const rows = shown.filter((c) => c.kind === kind);
        if (rows.length === 0) return null;
        return (
          <div key={kind} className="stack" style={{ gap: "0.35rem" }}>
            <h3 style={{ margin: 0 }}>{label}</h3>
            <ul
              className="stack"
              style={{ gap: "0.35rem", listStyle: "none", margin: 0, padding: 0 }}
            >
              {rows.map((c) => (
                <li
                  key={c.key}
                  data-change-key={c.key}
                  className="stack"
                  style={{ gap: "0.35rem" }}
                >
                  <div className="row">
                    <span className={`badge ${CHANGE_BADGE[c.change]}`}>{c.change}</span>
                    <strong>{c.label}</strong>
                    {c.fields.length > 0 && (
                      <span className="small muted">{c.fields.join(", ")}</span>
                    )}
                    {c.details.length > 0 && (
                      <span className="small muted">({c.details.join("; ")})</span>
                    )}
                    <button
                      type="button"
                      className="btn btn-ghost small"
                      aria-expanded={open === c.key}
                      aria-label={`${open === c.key ? "Hide" : "Show"} difference in ${c.label}`}
                      onClick={() => setOpen(open === c.key ? null : c.key)}
                    >
                      {open === c.key ? "Hide" : "Show"} difference
                    </button>
                  </div>
                  {open === c.key && <ItemDiff id={id} from={from} to={to} change={c} />}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
      {changes.length > CHANGES_SHOWN && (
        <div>
          <button type="button" className="btn" onClick={() => setShowAll(!showAll)}>
            {showAll ? `Show the first ${CHANGES_SHOWN}` : `Show all ${changes.length} changes`}
          </button>
        </div>
      )}
    </div>
  );
}

function RevisionSelect(props: {
  label: string;
  value: number;
  count: number;
  onChange: (revision: number) => void;
}) {
  return (
    <label className="field">
      <span className="label-text">{props.label}</span>
      <select value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {Array.from({ length: props.count }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Every revision with who and when, and the difference between any two. */
export function HistorySection({ id, currentRevision }: { id: string; currentRevision: number }) {
  const list = useQuery({
    queryKey: reviewKeys.revisionList(id, currentRevision),
    queryFn: () => apiFetch(revisionListUrl(id), ListRevisionsResponseSchema),
  });
  const [from, setFrom] = useState(Math.max(1, currentRevision - 1));
  const [to, setTo] = useState(currentRevision);
  const diff = useQuery({
    ...diffOptions(id, from, to),
    enabled: from !== to,
    placeholderData: keepPreviousData,
  });
  // Once the change list has been painted (the bench reads it).
  usePaintedMark("history-painted", from === to || diff.data !== undefined);

  return (
    <section className="stack" aria-labelledby="history-heading">
      <h2 id="history-heading" style={{ marginBottom: 0 }}>
        History
      </h2>
      <p className="muted small" style={{ margin: 0 }}>
        Every save is a new revision; nothing is overwritten.
      </p>
      {list.isError && (
        <div className="callout danger">Could not load revisions: {list.error.message}</div>
      )}
      {list.data && (
        // A scroll box is reachable by keyboard (axe scrollable-region-focusable): focusable, named.
        <div
          className="card"
          style={{ padding: 0, maxHeight: 280, overflowY: "auto" }}
          tabIndex={0}
          role="region"
          aria-label="Revisions, newest first"
        >
          <table className="data" aria-label="Revisions">
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Saved</th>
                <th scope="col">By</th>
                <th scope="col">What changed</th>
              </tr>
            </thead>
            <tbody>
              {[...list.data.revisions].reverse().map((r) => (
                <tr key={r.revision} data-testid={`revision-${r.revision}`}>
                  <td className="num">{r.revision}</td>
                  <td className="muted">{dateFormat.format(new Date(r.createdAt))}</td>
                  <td>{r.author}</td>
                  <td data-testid={`revision-${r.revision}-change`}>
                    {r.change ?? <span className="muted">{r.title}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="card stack">
        <div className="row">
          <RevisionSelect
            label="Compare revision"
            value={from}
            count={currentRevision}
            onChange={setFrom}
          />
          <RevisionSelect
            label="with revision"
            value={to}
            count={currentRevision}
            onChange={setTo}
          />
        </div>
        {from === to ? (
          <p className="muted" style={{ margin: 0 }} data-testid="revision-changes">
            The same revision: nothing to compare.
          </p>
        ) : diff.isError ? (
          <div className="callout danger">
            Could not compare the revisions: {diff.error.message}
          </div>
        ) : diff.data ? (
          <div className="stack" data-testid="revision-changes" aria-busy={diff.isPlaceholderData}>
            <p style={{ margin: 0 }} data-testid="revision-summary">
              <strong>
                Revision {diff.data.from} → {diff.data.to}:
              </strong>{" "}
              {diff.data.summary}.
            </p>
            <ChangeList
              key={`${diff.data.from}-${diff.data.to}`}
              id={id}
              from={diff.data.from}
              to={diff.data.to}
              changes={diff.data.changes}
            />
          </div>
        ) : (
          <div className="skeleton" style={{ height: 160 }} aria-busy="true" />
        )}
      </div>
    </section>
  );
}
