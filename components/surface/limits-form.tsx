"use client";

import { DEFAULT_INSPECT_LIMITS, type InspectLimits } from "@/lib/surface/limits";

const LIMIT_HELP: Record<keyof InspectLimits, string> = {
  connectTimeoutMs: "connect and initialize (ms)",
  requestTimeoutMs: "each list page (ms)",
  deadlineMs: "the whole inspection (ms)",
  totalBytes: "bytes received",
  itemCount: "items per list",
  pageCount: "pages per list",
  descriptionLength: "characters per description",
  settleQuietMs: "quiet wait for list_changed (ms)",
  relists: "re-lists per list",
  invalidMessages: "non-JSON-RPC lines",
};

export type LimitDraft = Partial<Record<keyof InspectLimits, string>>;

/** Numbers the user typed, as overrides; blank keeps the default. Validated by the route's schema. */
export function limitOverrides(draft: LimitDraft): Partial<InspectLimits> {
  const out: Partial<InspectLimits> = {};
  for (const [k, v] of Object.entries(draft) as [keyof InspectLimits, string | undefined][]) {
    if (v !== undefined && v.trim() !== "") out[k] = Number(v);
  }
  return out;
}

/** Every named bound, each raisable (or lowerable) for one inspection. */
export function LimitsForm({
  draft,
  onChange,
  disabled,
}: {
  draft: LimitDraft;
  onChange: (d: LimitDraft) => void;
  disabled: boolean;
}) {
  const changed = Object.values(draft).filter((v) => v && v.trim() !== "").length;
  return (
    <details className="limits">
      <summary className="small">
        Limits for this inspection{changed ? ` (${changed} changed)` : ""}
      </summary>
      <div className="limits-grid">
        {(Object.keys(DEFAULT_INSPECT_LIMITS) as (keyof InspectLimits)[]).map((k) => (
          <label key={k} className="field">
            <span className="label-text mono">{k}</span>
            <input
              type="number"
              inputMode="numeric"
              min={0}
              placeholder={String(DEFAULT_INSPECT_LIMITS[k])}
              value={draft[k] ?? ""}
              disabled={disabled}
              onChange={(e) => onChange({ ...draft, [k]: e.target.value })}
              aria-describedby={`limit-help-${k}`}
            />
            <span id={`limit-help-${k}`} className="small muted">
              {LIMIT_HELP[k]}
            </span>
          </label>
        ))}
      </div>
    </details>
  );
}
