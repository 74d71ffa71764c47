"use client";
/**
 * Upload or paste an MCP client config (Claude Desktop, VS Code, Cursor, generic mcpServers).
 * The file is parsed here first with lib/import: a malformed file shows its line and field
 * without leaving the browser, and only the rebuilt config (variable names, never secret values)
 * is sent to the workbench. Shows which values it replaced.
 */
import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ApiError } from "@/components/api-client";
import { importConfig } from "@/components/import/queries";
import { reviewKeys } from "@/components/query-keys";
import { clientConfigForServers } from "@/lib/import/write";
import type { ImportResponse } from "@/lib/import/api";
import { SHAPE_LABEL, formatImportIssue, parseClientConfig } from "@/lib/import/config";

export type ImportPanelProps = {
  /** Import into this review (as a new revision); without it a new review is created. */
  reviewId?: string;
  baseRevision?: number;
  onImported?: (result: ImportResponse) => void;
};

export function ImportPanel({ reviewId, baseRevision, onImported }: ImportPanelProps) {
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState("mcp.json");
  const queryClient = useQueryClient();
  const parsed = useMemo(
    () => (text.trim() === "" ? null : parseClientConfig(text, { fileName })),
    [text, fileName],
  );
  const mutation = useMutation({
    mutationFn: () => {
      if (!parsed?.ok) throw new Error("fix the config first");
      const sanitized = clientConfigForServers(
        parsed.config.servers.map((s) => ({ name: s.key, transport: s.transport })),
      );
      return importConfig({
        text: sanitized,
        fileName,
        shape: parsed.config.shape,
        ...(reviewId ? { reviewId, ...(baseRevision ? { baseRevision } : {}) } : {}),
      });
    },
    onSuccess: (result) => onImported?.(result),
    onSettled: () => refreshAfterWrite(queryClient, reviewKeys.all),
  });

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.webkitRelativePath || file.name);
    setText(await file.text());
  };

  return (
    <section className="card stack" aria-label="Import a client config">
      <h3>Import servers and an agent from a client config</h3>
      <p className="muted small">
        Claude Desktop <span className="mono">claude_desktop_config.json</span>, VS Code{" "}
        <span className="mono">.vscode/mcp.json</span>, Cursor{" "}
        <span className="mono">.cursor/mcp.json</span>, or any{" "}
        <span className="mono">mcpServers</span> file. Secret values in env and headers are replaced
        by variable names here, before anything is sent.
      </p>
      <div className="grid-2">
        <label className="field">
          <span className="label-text">Config file</span>
          <input
            type="file"
            accept=".json,.jsonc,application/json"
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
        </label>
        <label className="field">
          <span className="label-text">File name (picks the shape)</span>
          <input className="mono" value={fileName} onChange={(e) => setFileName(e.target.value)} />
        </label>
      </div>
      <label className="field">
        <span className="label-text">…or paste it</span>
        <textarea
          className="mono"
          rows={10}
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
        />
      </label>

      {parsed && !parsed.ok && (
        // The alert wraps the list: role="alert" on the <ul> itself would take away its list role,
        // leaving screen readers list items with no list (axe: listitem).
        <div role="alert" aria-label="Problems in the config">
          <ul className="field-error">
            {parsed.issues.map((i) => (
              <li key={`${i.line}:${i.column}:${i.path}`} className="mono small">
                {formatImportIssue(i)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {parsed?.ok && (
        <div className="stack" aria-label="What will be imported">
          <p className="small">
            {SHAPE_LABEL[parsed.config.shape]}: {parsed.config.servers.length} server(s) → agent{" "}
            <strong>{parsed.config.agentName}</strong>
          </p>
          <ul className="small">
            {parsed.config.servers.map((s) => (
              <li key={s.id}>
                <span className="mono">{s.name}</span> —{" "}
                {s.transport.kind === "stdio"
                  ? [s.transport.command, ...s.transport.args].join(" ")
                  : s.transport.url}
                {s.notes.length > 0 && <span className="muted"> ({s.notes.join("; ")})</span>}
              </li>
            ))}
          </ul>
          {parsed.config.replacements.length > 0 ? (
            <div aria-label="Secrets replaced">
              <p className="small">
                Not stored — each value is replaced by a variable; set the values on the{" "}
                <a href="/secrets">Secrets page</a>:
              </p>
              <ul className="small mono">
                {parsed.config.replacements.map((r, i) => (
                  <li key={`${r.path}\u0000${i}`}>
                    line {r.line}: {r.path} ({r.field} {r.name}) → ${"{"}
                    {r.variable}
                    {"}"}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <p className="muted small">No secret values found.</p>
          )}
        </div>
      )}
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={!parsed?.ok || mutation.isPending}
          onClick={() => mutation.mutate()}
        >
          {mutation.isPending
            ? "Importing…"
            : reviewId
              ? "Import into this review"
              : "Import as a new review"}
        </button>
      </div>
      {mutation.isError && (
        <p className="field-error" role="alert">
          {mutation.error instanceof ApiError ? mutation.error.message : String(mutation.error)}
        </p>
      )}
      {mutation.isSuccess && (
        <p role="status" className="small">
          {mutation.data.created ? "Created review" : "Updated review"}{" "}
          <span className="mono">{mutation.data.reviewId}</span> (revision {mutation.data.revision}
          ): agent {mutation.data.summary.agent.name} holds {mutation.data.summary.agent.toolCount}{" "}
          tool(s); {mutation.data.summary.servers.filter((s) => s.status === "added").length}{" "}
          server(s) added. Inspect new servers, then add their tools to the agent.
        </p>
      )}
    </section>
  );
}
