"use client";

import Editor, { DiffEditor, loader, type DiffOnMount } from "@monaco-editor/react";
import { useLayoutEffect, useRef } from "react";

// Monaco loads from our own origin (copied to public/ by scripts/copy-monaco.mjs), never a CDN.
loader.config({ paths: { vs: "/monaco/vs" } });

const COMMON = {
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  wordWrap: "on" as const,
  renderControlCharacters: true,
  // Hidden characters in server-sent text are the point of looking: show them.
  unicodeHighlight: { invisibleCharacters: true, ambiguousCharacters: true, nonBasicASCII: false },
  automaticLayout: true,
};

export type CodeEditorProps = {
  value: string;
  language: "json" | "yaml" | "plaintext" | "markdown";
  readOnly?: boolean;
  height?: number | string;
  ariaLabel: string;
  onChange?: (value: string) => void;
};

export function MonacoEditor(props: CodeEditorProps) {
  return (
    <Editor
      value={props.value}
      language={props.language}
      height={props.height ?? 240}
      onChange={(v) => props.onChange?.(v ?? "")}
      options={{
        ...COMMON,
        readOnly: props.readOnly ?? false,
        ariaLabel: props.ariaLabel,
        domReadOnly: props.readOnly ?? false,
      }}
      loading={<div className="skeleton" style={{ height: props.height ?? 240 }} />}
    />
  );
}

export type CodeDiffProps = {
  original: string;
  modified: string;
  language: "json" | "plaintext";
  height?: number | string;
  ariaLabel: string;
};

export function MonacoDiff(props: CodeDiffProps) {
  // @monaco-editor/react 4.7 disposes the two models before resetting the diff widget on unmount,
  // which throws "TextModel got disposed before DiffEditorWidget model got reset" (a pageerror),
  // and disposing them after the widget is gone trips "AbstractContextKeyService has been disposed".
  // So we keep the models (keepCurrent*Model) and, in our cleanup, which React runs before the
  // library's (a layout-effect cleanup runs parent-first, before any passive one), detach them from the still-live widget first and only then dispose them.
  const editorRef = useRef<Parameters<DiffOnMount>[0] | null>(null);
  useLayoutEffect(
    () => () => {
      const editor = editorRef.current;
      if (!editor) return;
      const models = editor.getModel();
      editor.setModel(null);
      models?.original.dispose();
      models?.modified.dispose();
    },
    [],
  );
  return (
    <DiffEditor
      keepCurrentOriginalModel
      keepCurrentModifiedModel
      onMount={(editor) => {
        editorRef.current = editor;
        // Each side is its own text box for a screen reader, so each gets a name; the diff editor's
        // construction options do not carry original/modifiedAriaLabel to its two editors.
        editor
          .getOriginalEditor()
          .updateOptions({ ariaLabel: `${props.ariaLabel}: the earlier side` });
        editor
          .getModifiedEditor()
          .updateOptions({ ariaLabel: `${props.ariaLabel}: the later side` });
      }}
      original={props.original}
      modified={props.modified}
      language={props.language}
      height={props.height ?? 280}
      options={{ ...COMMON, readOnly: true, originalEditable: false, renderSideBySide: true }}
      loading={<div className="skeleton" style={{ height: props.height ?? 280 }} />}
    />
  );
}
