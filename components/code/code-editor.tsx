"use client";

import dynamic from "next/dynamic";
import type { CodeDiffProps, CodeEditorProps } from "@/components/code/monaco-impl";

const EDITOR_HEIGHT = 240;
const DIFF_HEIGHT = 280;

const placeholder = () => <div className="skeleton" style={{ height: "100%" }} />;

/** Monaco is client-only: it touches `window` at import time, so it never renders on the server. */
const LazyEditor = dynamic<CodeEditorProps>(
  () => import("@/components/code/monaco-impl").then((m) => m.MonacoEditor),
  { ssr: false, loading: placeholder },
);

const LazyDiff = dynamic<CodeDiffProps>(
  () => import("@/components/code/monaco-impl").then((m) => m.MonacoDiff),
  { ssr: false, loading: placeholder },
);

/*
 * Each is drawn in a box of its own height from the server render on, its placeholder included:
 * Monaco arrives after hydration, and a placeholder of another height would then move everything
 * below it (on the Servers section, every later card's enabled Inspect button).
 */

export function CodeEditor(props: CodeEditorProps) {
  const height = props.height ?? EDITOR_HEIGHT;
  return (
    <div style={{ height }}>
      <LazyEditor {...props} height={height} />
    </div>
  );
}

export function CodeDiff(props: CodeDiffProps) {
  const height = props.height ?? DIFF_HEIGHT;
  return (
    <div style={{ height }}>
      <LazyDiff {...props} height={height} />
    </div>
  );
}
