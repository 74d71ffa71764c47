"use client";

import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { newId, type SourceId } from "@/lib/ids";
import { upsertById } from "@/lib/review/edit";
import {
  InputSourceSchema,
  SOURCE_CONFIDENTIALITY,
  SOURCE_KINDS,
  type InputSource,
  type Review,
  type SourceConfidentiality,
} from "@/lib/review/schema";
import { sourceWriterBound } from "@/lib/sources/writer-bound";
import { fieldIssuesFromZod } from "@/lib/errors";

const KIND_LABEL: Record<(typeof SOURCE_KINDS)[number], string> = {
  tracker: "Issue tracker",
  support_portal: "Support portal",
  wiki: "Wiki",
  partner_space: "Partner space",
  comments: "Comments",
  external_pages: "Linked external pages",
  mail: "Mail",
  crm: "CRM",
  other: "Other",
};

const CONFIDENTIALITY_LABEL: Record<SourceConfidentiality, string> = {
  public: "Public",
  internal: "Internal",
  confidential: "Confidential",
  secret: "Secret",
};

const fmt = (n: number) => n.toLocaleString("en-US");

function WriterBoundCell({ source }: { source: InputSource }) {
  const result = sourceWriterBound(source);
  const open = result.bound.kind !== "counted";
  return (
    <div className="stack" style={{ gap: "0.3rem" }} data-testid={`bound-${source.id}`}>
      <div className={open ? "bound open" : "bound"}>{result.bound.label}</div>
      {result.bound.kind !== "counted" && (
        <div className="small muted">
          {fmt(result.bound.floor)} registered accounts: a floor, not a measurement
        </div>
      )}
      <div className="row">
        {result.reachesOutsideBoundary ? (
          <span className="badge badge-danger">outside the trust boundary</span>
        ) : (
          <span className="badge badge-neutral">internal writers only</span>
        )}
        <span
          className="badge badge-neutral"
          title="The smallest number of accounts an attack needs"
        >
          an attack needs {result.minAccountsAnAttackNeeds} account
        </span>
      </div>
      {result.usage && (
        <div className="small muted">
          Usage fact, not part of the bound: {result.usage.label}
          {result.usage.ratio !== null && ` (about 1 in ${Math.round(1 / result.usage.ratio)})`}
        </div>
      )}
    </div>
  );
}

function populationSummary(s: InputSource): string {
  const w = s.writers;
  const parts: string[] = [];
  if (w.internalAccounts) {
    const ofWhom = [
      w.contractors && `${fmt(w.contractors)} contractors`,
      w.partnerAccounts && `${fmt(w.partnerAccounts)} partner-org`,
    ]
      .filter(Boolean)
      .join(", ");
    parts.push(`${fmt(w.internalAccounts)} internal${ofWhom ? ` (of whom ${ofWhom})` : ""}`);
  }
  if (w.externalAccounts) parts.push(`${fmt(w.externalAccounts)} registered external`);
  if (w.selfServiceSignupOpen) parts.push("self-service signup open");
  if (w.fetchesLinkedExternalPages) parts.push("fetches linked external pages");
  return parts.join(" · ") || "no writers entered";
}

type Draft = {
  name: string;
  kind: InputSource["kind"];
  confidentiality: SourceConfidentiality;
  notes: string;
  internalAccounts: string;
  contractors: string;
  partnerAccounts: string;
  externalAccounts: string;
  activeLastYear: string;
  selfServiceSignupOpen: boolean;
  fetchesLinkedExternalPages: boolean;
};

function toDraft(s: InputSource | null): Draft {
  const w = s?.writers;
  return {
    name: s?.name ?? "",
    kind: s?.kind ?? "other",
    confidentiality: s?.confidentiality ?? "internal",
    notes: s?.notes ?? "",
    internalAccounts: String(w?.internalAccounts ?? 0),
    contractors: String(w?.contractors ?? 0),
    partnerAccounts: String(w?.partnerAccounts ?? 0),
    externalAccounts: String(w?.externalAccounts ?? 0),
    activeLastYear:
      w?.activeLastYear === null || w?.activeLastYear === undefined ? "" : String(w.activeLastYear),
    selfServiceSignupOpen: w?.selfServiceSignupOpen ?? false,
    fetchesLinkedExternalPages: w?.fetchesLinkedExternalPages ?? false,
  };
}

const num = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

function fromDraft(id: string, d: Draft) {
  return InputSourceSchema.safeParse({
    id,
    name: d.name,
    kind: d.kind,
    confidentiality: d.confidentiality,
    notes: d.notes,
    writers: {
      internalAccounts: num(d.internalAccounts),
      contractors: num(d.contractors),
      partnerAccounts: num(d.partnerAccounts),
      externalAccounts: num(d.externalAccounts),
      activeLastYear: d.activeLastYear.trim() === "" ? null : num(d.activeLastYear),
      selfServiceSignupOpen: d.selfServiceSignupOpen,
      fetchesLinkedExternalPages: d.fetchesLinkedExternalPages,
    },
  });
}

const COUNT_FIELDS = [
  ["internalAccounts", "Internal accounts with write access"],
  ["contractors", "… of whom contractors"],
  ["partnerAccounts", "… of whom partner-org accounts"],
  ["externalAccounts", "Registered external accounts"],
  ["activeLastYear", "External accounts active in the last year (usage, optional)"],
] as const;

function SourceForm(props: {
  source: InputSource | null;
  isSaving: boolean;
  onSubmit: (source: InputSource) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => toDraft(props.source));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = props.source?.id ?? newId("src");
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = fromDraft(id, draft);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of fieldIssuesFromZod(parsed.error.issues)) {
        const key = issue.path.replace(/^writers\./, "");
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    if (await props.onSubmit(parsed.data)) props.onCancel();
  };

  const heading = props.source ? `Edit ${props.source.name}` : "Add a source";
  return (
    <form className="card stack" onSubmit={(e) => void submit(e)} aria-label={heading}>
      <h3>{heading}</h3>
      <div className="grid-2">
        <label className="field">
          <span className="label-text">Name</span>
          <input
            value={draft.name}
            onChange={(e) => set("name", e.target.value)}
            aria-invalid={!!errors.name}
            autoFocus
          />
          {errors.name && <span className="field-error">{errors.name}</span>}
        </label>
        <label className="field">
          <span className="label-text">Kind</span>
          <select value={draft.kind} onChange={(e) => set("kind", e.target.value as Draft["kind"])}>
            {SOURCE_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="label-text">Confidentiality</span>
          <select
            value={draft.confidentiality}
            onChange={(e) => set("confidentiality", e.target.value as SourceConfidentiality)}
          >
            {SOURCE_CONFIDENTIALITY.map((c) => (
              <option key={c} value={c}>
                {CONFIDENTIALITY_LABEL[c]}
              </option>
            ))}
          </select>
          <span className="small muted">
            A tool mapped to a confidential or secret source is suggested as reading private data.
          </span>
        </label>
      </div>
      <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0 }}>
        <legend className="label-text" style={{ fontWeight: 600, marginBottom: "0.5rem" }}>
          Who may write into it
        </legend>
        <div className="grid-3">
          {COUNT_FIELDS.map(([key, label]) => (
            <label className="field" key={key}>
              <span className="label-text">{label}</span>
              <input
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                value={draft[key]}
                onChange={(e) => set(key, e.target.value)}
                aria-invalid={!!errors[key]}
              />
              {errors[key] && <span className="field-error">{errors[key]}</span>}
            </label>
          ))}
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.selfServiceSignupOpen}
            onChange={(e) => set("selfServiceSignupOpen", e.target.checked)}
          />
          Self-service signup is open
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.fetchesLinkedExternalPages}
            onChange={(e) => set("fetchesLinkedExternalPages", e.target.checked)}
          />
          The server fetches linked external pages into its results
        </label>
      </fieldset>
      <label className="field">
        <span className="label-text">Notes</span>
        <textarea value={draft.notes} onChange={(e) => set("notes", e.target.value)} rows={2} />
      </label>
      {Object.keys(errors).length > 0 && (
        <p className="field-error" role="alert">
          Fix the highlighted fields: {Object.values(errors).join("; ")}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={props.isSaving}>
          {props.source ? "Save source" : "Add source"}
        </button>
        <button type="button" className="btn" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function SourcesSection({ editor, review }: { editor: ReviewEditor; review: Review }) {
  const [editing, setEditing] = useState<SourceId | "new" | null>(null);
  const [pendingRemove, setPendingRemove] = useState<InputSource | null>(null);

  const returnedBy = (id: SourceId) =>
    review.tools.filter((t) => t.sourceIds.includes(id)).map((t) => t.tool);

  const upsert = (source: InputSource) =>
    editor.save((r) => ({ ...r, sources: upsertById(r.sources, source) }));

  const remove = (id: SourceId) =>
    editor.save((r) => ({
      ...r,
      sources: r.sources.filter((s) => s.id !== id),
      tools: r.tools.map((t) => ({ ...t, sourceIds: t.sourceIds.filter((s) => s !== id) })),
    }));

  return (
    <section className="stack" aria-labelledby="sources-heading">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <div>
          <h2 id="sources-heading" style={{ marginBottom: 0 }}>
            Sources & writers
          </h2>
          <p className="muted small" style={{ margin: 0 }}>
            The figure that matters is who is allowed to write, not how many did.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing("new")}
          disabled={editing !== null}
        >
          Add source
        </button>
      </div>
      {editing === "new" && (
        <SourceForm
          source={null}
          isSaving={editor.isSaving}
          onSubmit={upsert}
          onCancel={() => setEditing(null)}
        />
      )}
      {review.sources.length === 0 && editing !== "new" ? (
        <div className="card empty">
          <h3>No input sources yet</h3>
          <p>
            Add each place the server returns text from: a tracker project, a support portal, a wiki
            space, page comments…
          </p>
        </div>
      ) : (
        <div className="card" style={{ padding: 0 }}>
          <table className="data" aria-label="Input sources">
            <thead>
              <tr>
                <th scope="col">Source</th>
                <th scope="col">Who may write</th>
                <th scope="col">Writer bound</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {review.sources.map((s) =>
                editing === s.id ? (
                  <tr key={s.id}>
                    <td colSpan={4}>
                      <SourceForm
                        source={s}
                        isSaving={editor.isSaving}
                        onSubmit={upsert}
                        onCancel={() => setEditing(null)}
                      />
                    </td>
                  </tr>
                ) : (
                  <tr key={s.id} data-testid={`source-${s.id}`}>
                    <td style={{ width: "28%" }}>
                      <div style={{ fontWeight: 600 }}>{s.name}</div>
                      <div className="small muted">
                        {KIND_LABEL[s.kind]} · {CONFIDENTIALITY_LABEL[s.confidentiality]}
                      </div>
                      {returnedBy(s.id).length > 0 && (
                        <div className="small muted">
                          Returned by: <span className="mono">{returnedBy(s.id).join(", ")}</span>
                        </div>
                      )}
                    </td>
                    <td className="small">{populationSummary(s)}</td>
                    <td style={{ width: "34%" }}>
                      <WriterBoundCell source={s} />
                    </td>
                    <td style={{ textAlign: "right", whiteSpace: "nowrap" }}>
                      <button
                        type="button"
                        className="btn"
                        onClick={() => setEditing(s.id)}
                        aria-label={`Edit ${s.name}`}
                        disabled={editing !== null}
                      >
                        Edit
                      </button>{" "}
                      <button
                        type="button"
                        className="btn btn-danger"
                        onClick={() => setPendingRemove(s)}
                        aria-label={`Remove ${s.name}`}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={pendingRemove !== null}
        title="Remove this source?"
        body={`“${pendingRemove?.name ?? ""}” will be removed, and no tool will be mapped to it any more. Earlier revisions keep it.`}
        confirmLabel="Remove source"
        danger
        onCancel={() => setPendingRemove(null)}
        onConfirm={() => {
          if (pendingRemove) void remove(pendingRemove.id); // the outcome shows in the save status
          setPendingRemove(null);
        }}
      />
    </section>
  );
}
