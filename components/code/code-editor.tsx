"use client";

import dynamic from "next/dynamic";
import type { CodeDiffProps, CodeEditorProps } from "@/components/code/monaco-impl";

/** Monaco is client-only: it touches `window` at import time, so it never renders on the server. */
export const CodeEditor = dynamic<CodeEditorProps>(
  () => import("@/components/code/monaco-impl").then((m) => m.MonacoEditor),
  {
    ssr: false,
    loading: () => <div className="skeleton" style={{ height: 240 }} />,
  },
);

export const CodeDiff = dynamic<CodeDiffProps>(
  () => import("@/components/code/monaco-impl").then((m) => m.MonacoDiff),
  {
    ssr: false,
    loading: () => <div className="skeleton" style={{ height: 280 }} />,
  },
);
