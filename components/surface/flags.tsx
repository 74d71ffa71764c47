"use client";

import { RevealedText } from "@/components/surface/revealed-text";
import type { SuspiciousFlag, SuspiciousKind } from "@/lib/surface/suspicious";

export const FLAG_KIND_LABEL: Record<SuspiciousKind, string> = {
  hidden_unicode: "hidden Unicode",
  ansi_escape: "ANSI escape",
  markup: "markup",
  instruction_phrase: "instruction-like phrasing",
  concealment_phrase: "concealment phrasing",
  tool_mention: "mentions another tool",
};

/** Suspicious-text flags of one item: where to look, with positions. Never counted as a control. */
export function FlagList({ flags, label }: { flags: readonly SuspiciousFlag[]; label: string }) {
  if (flags.length === 0) {
    return (
      <p className="small muted" style={{ margin: 0 }}>
        No suspicious-text flags for {label}. A clean scan is not evidence of a clean server.
      </p>
    );
  }
  return (
    <div className="flags" role="group" aria-label={`Where to look in ${label}`}>
      <div className="flags-head">
        <strong>Where to look</strong>{" "}
        <span className="muted">
          — not a control: {flags.length} flag{flags.length === 1 ? "" : "s"}, counted as no
          mitigation
        </span>
      </div>
      <table className="data compact">
        <thead>
          <tr>
            <th>Kind</th>
            <th>Field</th>
            <th>Position</th>
            <th>Text there (hidden characters revealed)</th>
          </tr>
        </thead>
        <tbody>
          {flags.map((f, i) => (
            <tr key={`${f.field}:${f.start}:${f.kind}:${i}`}>
              <td>
                <span className="badge badge-warn">{FLAG_KIND_LABEL[f.kind]}</span>
                <div className="small muted mono">{f.detail}</div>
              </td>
              <td className="mono small">
                <RevealedText text={f.field} className="mono" />
              </td>
              <td className="mono small num">
                {f.start}–{f.end}
              </td>
              <td>
                <RevealedText text={f.excerpt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
