"use client";

import { CodeDiff } from "@/components/code/code-editor";
import { jsonText } from "@/components/surface/items";
import { RevealedText } from "@/components/surface/revealed-text";
import type { SurfaceDiff } from "@/lib/surface/diff";
import type { NameDiff } from "@/lib/surface/registration";
import type { SurfaceList } from "@/lib/surface/types";

const LIST_LABEL: Record<SurfaceList, string> = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
};

function fieldsText(fields: { field: string; value: unknown }[]): string {
  return jsonText(
    Object.fromEntries(fields.map((f) => [f.field, f.value === undefined ? "(absent)" : f.value])),
  );
}

/** Added, removed and changed items from the pinned surface to the live one; a changed item's exact fields in a Monaco diff. */
export function DiffView({ diff }: { diff: SurfaceDiff }) {
  if (diff.isEqual)
    return <p className="small muted">No differences in the fingerprinted fields.</p>;
  return (
    <div className="stack" data-testid="surface-diff">
      {(diff.added.length > 0 || diff.removed.length > 0) && (
        <ul className="change-list">
          {diff.added.map((a) => (
            <li key={`+${a.list}:${a.key}`}>
              <span className="badge badge-danger">added</span> {LIST_LABEL[a.list]}{" "}
              <RevealedText text={a.key} className="mono" />
            </li>
          ))}
          {diff.removed.map((r) => (
            <li key={`-${r.list}:${r.key}`}>
              <span className="badge badge-neutral">removed</span> {LIST_LABEL[r.list]}{" "}
              <RevealedText text={r.key} className="mono" />
            </li>
          ))}
        </ul>
      )}
      {diff.changed.map((c) => (
        <div
          key={`~${c.list}:${c.key}`}
          className="stack changed-item"
          data-testid={`changed-${c.list}-${c.key}`}
        >
          <div>
            <span className="badge badge-warn">changed</span> {LIST_LABEL[c.list]}{" "}
            <RevealedText text={c.key} className="mono" />:{" "}
            <span className="small">{c.fields.map((f) => f.field).join(", ")}</span>
          </div>
          <div className="diff-legend small muted">
            <span>pinned</span>
            <span>live</span>
          </div>
          <CodeDiff
            original={fieldsText(c.fields.map((f) => ({ field: f.field, value: f.before })))}
            modified={fieldsText(c.fields.map((f) => ({ field: f.field, value: f.after })))}
            language="json"
            height={Math.min(320, 60 + c.fields.length * 60)}
            ariaLabel={`What changed in ${LIST_LABEL[c.list]} ${c.key}`}
          />
        </div>
      ))}
      {diff.instructions && (
        <div className="stack changed-item">
          <div>
            <span className="badge badge-warn">changed</span> the server&apos;s instructions
          </div>
          <CodeDiff
            original={diff.instructions.before ?? "(none)"}
            modified={diff.instructions.after ?? "(none)"}
            language="plaintext"
            height={160}
            ariaLabel="What changed in the instructions"
          />
        </div>
      )}
      {diff.uiResources && (
        <ul className="change-list" aria-label="MCP Apps UI resources changed">
          {diff.uiResources.added.map((a) => (
            <li key={`+${a.key}`}>
              <span className="badge badge-warn">added</span> UI resource{" "}
              <RevealedText text={a.key} className="mono" />
            </li>
          ))}
          {diff.uiResources.removed.map((r) => (
            <li key={`-${r.key}`}>
              <span className="badge badge-warn">removed</span> UI resource{" "}
              <RevealedText text={r.key} className="mono" />
            </li>
          ))}
          {diff.uiResources.changed.map((c) => (
            <li key={`~${c.key}`} className="stack">
              <div>
                <span className="badge badge-warn">changed</span> UI resource{" "}
                <RevealedText text={c.key} className="mono" />
              </div>
              <CodeDiff
                original={fieldsText(c.fields.map((f) => ({ field: f.field, value: f.before })))}
                modified={fieldsText(c.fields.map((f) => ({ field: f.field, value: f.after })))}
                language="json"
                height={Math.min(320, 60 + c.fields.length * 60)}
                ariaLabel={`What changed in UI resource ${c.key}`}
              />
            </li>
          ))}
        </ul>
      )}
      {(diff.rejects.added.length > 0 || diff.rejects.removed.length > 0) && (
        <p className="small">
          Rejected items: {diff.rejects.added.length} new, {diff.rejects.removed.length} gone.
        </p>
      )}
    </div>
  );
}

/** Names only, when the pinned snapshot is not stored but a registration record was. */
export function NameDiffView({ names }: { names: NameDiff }) {
  const rows = [
    ...names.added.map((r) => ({ ...r, what: "added" })),
    ...names.removed.map((r) => ({ ...r, what: "removed" })),
    ...names.changed.map((r) => ({ ...r, what: "changed" })),
  ];
  return (
    <ul className="change-list">
      {rows.map((r) => (
        <li key={`${r.what}:${r.list}:${r.key}`}>
          <span className="badge badge-neutral">{r.what}</span> {LIST_LABEL[r.list]}{" "}
          <RevealedText text={r.key} className="mono" />
        </li>
      ))}
      {names.instructionsChanged && <li>the server&apos;s instructions changed</li>}
    </ul>
  );
}
