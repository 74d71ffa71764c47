"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/api-client";
import { CodeDiff } from "@/components/code/code-editor";
import { reviewKeys } from "@/components/query-keys";
import { ListRevisionsResponseSchema, RevisionRecordSchema } from "@/lib/reviews/api";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "medium" });

function revisionOptions(id: string, revision: number) {
  return {
    queryKey: reviewKeys.revision(id, revision),
    queryFn: () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(id)}/revisions/${revision}`,
        RevisionRecordSchema,
      ),
    staleTime: Infinity, // a revision never changes once written
  };
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

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
    queryFn: () =>
      apiFetch(`/api/reviews/${encodeURIComponent(id)}/revisions`, ListRevisionsResponseSchema),
  });
  const [from, setFrom] = useState(Math.max(1, currentRevision - 1));
  const [to, setTo] = useState(currentRevision);
  const a = useQuery({ ...revisionOptions(id, from), enabled: from >= 1 });
  const b = useQuery({ ...revisionOptions(id, to), enabled: to >= 1 });

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
        <div className="card" style={{ padding: 0, maxHeight: 280, overflowY: "auto" }}>
          <table className="data" aria-label="Revisions">
            <thead>
              <tr>
                <th scope="col">Revision</th>
                <th scope="col">Saved</th>
                <th scope="col">By</th>
                <th scope="col">Title</th>
              </tr>
            </thead>
            <tbody>
              {[...list.data.revisions].reverse().map((r) => (
                <tr key={r.revision} data-testid={`revision-${r.revision}`}>
                  <td className="num">{r.revision}</td>
                  <td className="muted">{dateFormat.format(new Date(r.createdAt))}</td>
                  <td>{r.author}</td>
                  <td>{r.title}</td>
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
        {a.data && b.data ? (
          <div
            style={{
              border: "1px solid var(--border)",
              borderRadius: "var(--radius)",
              overflow: "hidden",
            }}
            data-testid="revision-diff"
          >
            <CodeDiff
              original={pretty(a.data.review)}
              modified={pretty(b.data.review)}
              language="json"
              height={420}
              ariaLabel={`Revision ${from} against revision ${to}`}
            />
          </div>
        ) : a.isError || b.isError ? (
          <div className="callout danger">
            Could not load a revision: {(a.error ?? b.error)?.message}
          </div>
        ) : (
          <div className="skeleton" style={{ height: 420 }} />
        )}
      </div>
    </section>
  );
}
