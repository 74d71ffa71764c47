"use client";

import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ServerForm } from "@/components/review/server-form";
import { ImportPanel } from "@/components/import/import-panel";
import { ServerAuthorization } from "@/components/oauth/server-authorization";
import { ServerVariables } from "@/components/secrets/server-variables";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { controlsWithoutServer } from "@/lib/controls/registry";
import type { ServerId } from "@/lib/ids";
import { upsertById } from "@/lib/review/edit";
import type { RelayServer, Review } from "@/lib/review/schema";
import { isRemoteTransport } from "@/lib/transport-kind";

function transportLabel(s: RelayServer): string {
  const t = s.transport;
  switch (t.kind) {
    case "stdio":
      return [t.command, ...t.args].join(" ");
    case "http":
    case "sse":
      return `${t.kind === "sse" ? "SSE" : "Streamable HTTP"} ${t.url}`;
    case "manual":
      return "not under review: tools entered by hand";
  }
}

export function ServersSection(props: {
  editor: ReviewEditor;
  review: Review;
  /** The review's id and revision, for importing servers from a client config into it. */
  reviewId?: string;
  revision?: number;
  /** The live-surface panel for one server (inspect, fingerprint, pin, diff). */
  renderSurface?: (server: RelayServer) => ReactNode;
}) {
  const { editor, review } = props;
  const [editing, setEditing] = useState<ServerId | "new" | null>(null);
  const [pendingRemove, setPendingRemove] = useState<RelayServer | null>(null);

  const upsert = (server: RelayServer) =>
    editor.save((r) => ({ ...r, servers: upsertById(r.servers, server) }));

  const remove = (id: ServerId) =>
    editor.save((r) => ({
      ...r,
      servers: r.servers.filter((s) => s.id !== id),
      tools: r.tools.filter((t) => t.serverId !== id),
      agents: r.agents.map((a) => ({ ...a, tools: a.tools.filter((t) => t.serverId !== id) })),
      controls: controlsWithoutServer(r.controls, id),
      decisions: r.decisions.filter((d) => d.serverId !== id),
    }));

  return (
    <section className="stack" aria-labelledby="servers-heading">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <div>
          <h2 id="servers-heading" style={{ marginBottom: 0 }}>
            Servers & surface
          </h2>
          <p className="muted small" style={{ margin: 0 }}>
            Everything a server sends about itself is attacker-controlled text, shown as text.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => setEditing("new")}
          disabled={editing !== null}
        >
          Register server
        </button>
      </div>
      {editing === "new" && (
        <ServerForm
          server={null}
          isSaving={editor.isSaving}
          onSubmit={upsert}
          onCancel={() => setEditing(null)}
        />
      )}
      {props.reviewId && (
        <details className="card">
          <summary style={{ cursor: "pointer", fontWeight: 600 }}>
            Import servers and an agent from an MCP client config
          </summary>
          <div style={{ marginTop: "0.75rem" }}>
            <ImportPanel
              reviewId={props.reviewId}
              {...(props.revision ? { baseRevision: props.revision } : {})}
            />
          </div>
        </details>
      )}
      {review.servers.length === 0 && editing !== "new" && (
        <div className="card empty">
          <h3>No servers registered</h3>
          <p>
            Register the relay server under review, and any server whose tools share an agent with
            it.
          </p>
        </div>
      )}
      {review.servers.map((s) =>
        editing === s.id ? (
          <ServerForm
            key={s.id}
            server={s}
            isSaving={editor.isSaving}
            onSubmit={upsert}
            onCancel={() => setEditing(null)}
          />
        ) : (
          <article
            key={s.id}
            className="card stack"
            aria-labelledby={`server-${s.id}`}
            data-testid={`server-${s.id}`}
          >
            <div className="row" style={{ justifyContent: "space-between" }}>
              <div>
                <h3 id={`server-${s.id}`} style={{ marginBottom: 0 }}>
                  {s.name}
                </h3>
                <div className="small muted mono">{transportLabel(s)}</div>
              </div>
              <div className="row">
                <button
                  type="button"
                  className="btn"
                  onClick={() => setEditing(s.id)}
                  disabled={editing !== null}
                  aria-label={`Edit server ${s.name}`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn-danger"
                  onClick={() => setPendingRemove(s)}
                  aria-label={`Remove server ${s.name}`}
                >
                  Remove
                </button>
              </div>
            </div>
            <dl className="kv">
              <dt>Image digest</dt>
              <dd className="mono small">{s.imageDigest ?? "none recorded"}</dd>
              <dt>Tools entered by hand</dt>
              <dd className="small">
                {s.declaredTools.length === 0
                  ? "none"
                  : s.declaredTools.map((t) => t.name).join(", ")}
              </dd>
              {props.reviewId && props.revision !== undefined && s.transport.kind !== "manual" && (
                <>
                  <dt>Variables</dt>
                  <dd className="small">
                    <ServerVariables
                      reviewId={props.reviewId}
                      serverId={s.id}
                      revision={props.revision}
                    />
                  </dd>
                </>
              )}
              {props.reviewId && props.revision !== undefined && isRemoteTransport(s.transport) && (
                <>
                  <dt>Authorization</dt>
                  <dd className="small">
                    <ServerAuthorization
                      reviewId={props.reviewId}
                      serverId={s.id}
                      serverName={s.name}
                      revision={props.revision}
                    />
                  </dd>
                </>
              )}
              <dt>Pin</dt>
              <dd className="small">
                {s.pin ? (
                  <>
                    <span className="mono">{s.pin.surfaceSha256.slice(0, 16)}…</span> on change:{" "}
                    <strong>{s.pin.onSurfaceChange}</strong>
                  </>
                ) : (
                  "not pinned"
                )}
              </dd>
            </dl>
            {s.transport.kind !== "manual" && props.renderSurface?.(s)}
          </article>
        ),
      )}
      <ConfirmDialog
        open={pendingRemove !== null}
        title="Remove this server?"
        body={`“${pendingRemove?.name ?? ""}”, its tools in every agent, its controls and its decisions will be removed. Earlier revisions keep them.`}
        confirmLabel="Remove server"
        danger
        onCancel={() => setPendingRemove(null)}
        onConfirm={() => {
          if (pendingRemove) void remove(pendingRemove.id); // the outcome shows in the save status
          setPendingRemove(null);
        }}
      />
    </section>
  );
}
