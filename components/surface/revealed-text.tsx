"use client";

import { revealSegments } from "@/lib/surface/reveal";

/**
 * Server-sent text, rendered as React text nodes only: hidden characters, tag runs and ANSI
 * sequences are shown as visible markers (⟦U+200B ZERO WIDTH SPACE⟧), never passed through.
 */
export function RevealedText({ text, className }: { text: string; className?: string }) {
  const segments = revealSegments(text);
  return (
    <span className={className ?? "server-text"}>
      {segments.map((s) =>
        s.kind === "text" ? (
          <span key={s.start}>{s.text}</span>
        ) : (
          <mark
            key={s.start}
            className="hidden-char"
            title={`hidden in the text at ${s.start}–${s.end}`}
          >
            {s.revealed}
          </mark>
        ),
      )}
    </span>
  );
}

/** An absent optional field, said in words rather than left blank. */
export function Absent({ what = "not sent" }: { what?: string }) {
  return <span className="muted small">({what})</span>;
}
