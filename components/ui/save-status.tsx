"use client";

export type SaveState =
  | { kind: "idle" }
  | { kind: "unsaved"; count: number }
  | { kind: "saving" }
  | { kind: "saved"; revision: number }
  | { kind: "conflict"; currentRevision: number }
  | { kind: "error"; message: string };

const LABEL: Record<SaveState["kind"], string> = {
  idle: "All changes saved",
  unsaved: "Unsaved changes",
  saving: "Saving…",
  saved: "Saved",
  conflict: "Not saved: conflict",
  error: "Not saved",
};

/** Announces saving / saved / conflict politely to screen readers. */
export function SaveStatus({ state }: { state: SaveState }) {
  const detail =
    state.kind === "saved"
      ? ` as revision ${state.revision}`
      : state.kind === "unsaved"
        ? `: ${state.count} row${state.count === 1 ? "" : "s"}, saving in a moment`
        : state.kind === "error"
          ? `: ${state.message}`
          : "";
  return (
    <span
      className={`save-status ${state.kind}`}
      role="status"
      aria-live="polite"
      data-testid="save-status"
    >
      <span className="dot" aria-hidden="true" />
      {LABEL[state.kind]}
      {detail}
    </span>
  );
}
