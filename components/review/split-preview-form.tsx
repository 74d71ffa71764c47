"use client";
/**
 * The split preview: the names the two agents will take, editable before the split is applied.
 * Shown only after a reviewer asks for a split, so its code is a chunk of its own, loaded on that
 * click (graph-section.tsx imports it with next/dynamic).
 */
export type SplitNames = { reference: string; deploy: string };

export default function SplitPreviewForm(props: {
  agentName: string;
  deployWord: "deploy" | "actions";
  names: SplitNames;
  onChange: (names: SplitNames) => void;
  onSubmit: () => void;
  onCancel: () => void;
  disabled: boolean;
}) {
  const { agentName, deployWord, names, onChange, onSubmit, onCancel, disabled } = props;
  return (
    <form
      className="stack"
      style={{ gap: "0.35rem" }}
      aria-label={`Split ${agentName}`}
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <label className="field">
        <span className="label-text">Reference agent&apos;s name</span>
        <input
          value={names.reference}
          maxLength={200}
          onChange={(e) => onChange({ ...names, reference: e.target.value })}
        />
      </label>
      <label className="field">
        <span className="label-text">
          {deployWord === "deploy" ? "Deploy" : "Actions"} agent&apos;s name
        </span>
        <input
          value={names.deploy}
          maxLength={200}
          onChange={(e) => onChange({ ...names, deploy: e.target.value })}
        />
      </label>
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={disabled}>
          Apply the split
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
