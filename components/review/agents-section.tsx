"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { analysisOptions } from "@/components/review/analysis-queries";
import { ToolRolesTable } from "@/components/review/tool-roles";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { RevealedText } from "@/components/surface/revealed-text";
import { controlsWithoutAgent } from "@/lib/controls/registry";
import { toolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import { newId, type AgentId, type ServerId } from "@/lib/ids";
import { setToolsHeld } from "@/lib/review/edit";
import { AgentSchema, type Agent, type Review, type ToolRef } from "@/lib/review/schema";
import { SENSITIVE_SINK_ROLES } from "@/lib/model/model";

export type KnownTool = ToolRef & { description: string; serverName: string };

/** Tools the reviewer can place in an agent: every server's tools, as listed live or entered by hand. */
export function knownToolsOf(
  review: Review,
  liveToolsByServer: ReadonlyMap<
    string,
    readonly { name: string; description: string }[]
  > = new Map(),
): KnownTool[] {
  const out: KnownTool[] = [];
  for (const server of review.servers) {
    const tools = liveToolsByServer.get(server.id) ?? server.declaredTools;
    for (const t of tools)
      out.push({
        serverId: server.id,
        tool: t.name,
        description: t.description,
        serverName: server.name,
      });
  }
  return out;
}

const refKey = (ref: ToolRef) => toolKey(ref.serverId, ref.tool);

/** A server with more tools than this shows only the ones the agent holds until the reviewer asks for all. */
export const TOOLS_SHOWN_PER_SERVER = 24;

/**
 * One server's tools in an agent card: a checkbox each, and one action each to hold all of them,
 * none, or the ones a filter matches (each action one revision). A large server shows the held
 * tools until the reviewer asks for all or filters.
 */
function ServerTools(props: {
  agentName: string;
  serverTools: KnownTool[];
  held: ReadonlySet<string>;
  /** Tools whose roles (confirmed, else suggested) include no sink: they only read. */
  readOnly: ReadonlySet<string>;
  disabled: boolean;
  onSet: (refs: readonly ToolRef[], on: boolean) => void;
}) {
  const { serverTools, held, agentName } = props;
  const readOnlyTools = serverTools.filter((t) => props.readOnly.has(refKey(t)));
  const readOnlyHeld = readOnlyTools.filter((t) => held.has(refKey(t))).length;
  const [showAll, setShowAll] = useState(false);
  const [filter, setFilter] = useState("");
  const serverName = serverTools[0]?.serverName ?? "";
  const large = serverTools.length > TOOLS_SHOWN_PER_SERVER;
  const heldHere = serverTools.filter((t) => held.has(refKey(t)));
  const needle = filter.trim().toLowerCase();
  const matching = needle
    ? serverTools.filter((t) => t.tool.toLowerCase().includes(needle))
    : serverTools;
  const shown = needle ? matching : large && !showAll ? heldHere : serverTools;
  const matchingHeld = matching.filter((t) => held.has(refKey(t))).length;
  const where = `of ${serverName} in ${agentName}`;
  return (
    <fieldset
      style={{
        border: "1px solid var(--border)",
        borderRadius: "var(--radius)",
        padding: "0.5rem 0.75rem",
      }}
    >
      <legend className="small" style={{ fontWeight: 600 }}>
        {serverName}
        <span className="muted" style={{ fontWeight: 400 }}>
          {" "}
          · {heldHere.length} of {serverTools.length} tools held
        </span>
      </legend>
      <div
        className="row small"
        role="group"
        aria-label={`Hold tools ${where}`}
        style={{ marginBottom: "0.5rem" }}
      >
        {serverTools.length > 1 && (
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Filter by name"
            aria-label={`Filter the tools ${where}`}
            style={{ maxWidth: "14rem" }}
          />
        )}
        {needle ? (
          <>
            <button
              type="button"
              className="btn"
              disabled={props.disabled || matchingHeld === matching.length}
              onClick={() => props.onSet(matching, true)}
              aria-label={`Hold the ${matching.length} matching tools ${where}`}
            >
              Hold the {matching.length} matching
            </button>
            <button
              type="button"
              className="btn"
              disabled={props.disabled || matchingHeld === 0}
              onClick={() => props.onSet(matching, false)}
              aria-label={`Drop the ${matching.length} matching tools ${where}`}
            >
              Drop the {matching.length} matching
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              className="btn"
              disabled={props.disabled || heldHere.length === serverTools.length}
              onClick={() => props.onSet(serverTools, true)}
              aria-label={`Hold all ${serverTools.length} tools ${where}`}
            >
              Hold all {serverTools.length}
            </button>
            <button
              type="button"
              className="btn"
              disabled={props.disabled || heldHere.length === 0}
              onClick={() => props.onSet(serverTools, false)}
              aria-label={`Hold none of the tools ${where}`}
            >
              Hold none
            </button>
            {readOnlyTools.length > 0 && (
              <button
                type="button"
                className="btn"
                disabled={props.disabled || readOnlyHeld === readOnlyTools.length}
                onClick={() => props.onSet(readOnlyTools, true)}
                aria-label={`Hold the ${readOnlyTools.length} read-only tools ${where}`}
                title="Tools whose roles (confirmed, else suggested) include no write, deploy or network sink"
              >
                Hold the {readOnlyTools.length} read-only
              </button>
            )}
          </>
        )}
      </div>
      <div className="row" style={{ gap: "0.5rem 1.25rem" }}>
        {shown.map((t) => (
          <label key={t.tool} className="check" title={t.description}>
            <input
              type="checkbox"
              checked={held.has(refKey(t))}
              onChange={(e) => props.onSet([t], e.target.checked)}
              disabled={props.disabled}
            />
            <RevealedText text={t.tool} className="mono" />
          </label>
        ))}
        {needle && matching.length === 0 && (
          <span className="small muted">
            No tool of {serverName} matches “{filter.trim()}”.
          </span>
        )}
        {large && !needle && (
          <button
            type="button"
            className="btn btn-ghost small"
            onClick={() => setShowAll((v) => !v)}
            aria-expanded={showAll}
          >
            {showAll ? "Show only the tools held" : `Show all ${serverTools.length} tools`}
          </button>
        )}
      </div>
    </fieldset>
  );
}

function AgentCard(props: {
  agent: Agent;
  tools: KnownTool[];
  review: Review;
  readOnly: ReadonlySet<string>;
  disabled: boolean;
  onSetTools: (refs: readonly ToolRef[], on: boolean) => void;
  onRename: (name: string) => Promise<boolean>;
  onRemove: () => void;
}) {
  const { agent, tools } = props;
  const [renaming, setRenaming] = useState<string | null>(null);
  const byServer = new Map<ServerId, KnownTool[]>();
  for (const t of tools) {
    const list = byServer.get(t.serverId);
    if (list) list.push(t);
    else byServer.set(t.serverId, [t]);
  }
  // Sets, not scans: a review may list thousands of tools, each checked against the agent's.
  const held = new Set(agent.tools.map(refKey));
  const known = new Set(tools.map(refKey));
  // Refs the agent holds that no server lists (e.g. a tool removed from a surface) stay visible.
  const orphaned = agent.tools.filter((ref) => !known.has(refKey(ref)));

  return (
    <article
      className="card stack"
      aria-labelledby={`agent-${agent.id}`}
      data-testid={`agent-${agent.id}`}
    >
      <div className="row" style={{ justifyContent: "space-between" }}>
        <div>
          {renaming === null ? (
            <h3 id={`agent-${agent.id}`} style={{ marginBottom: 0 }}>
              {agent.name}
            </h3>
          ) : (
            <form
              className="row"
              aria-label={`Rename ${agent.name}`}
              onSubmit={(e) => {
                e.preventDefault();
                const next = renaming.trim();
                if (!next || next === agent.name) return setRenaming(null);
                void props.onRename(next).then((ok) => ok && setRenaming(null));
              }}
            >
              <label className="field">
                <span className="label-text" id={`agent-${agent.id}`}>
                  Name of {agent.name}
                </span>
                <input
                  value={renaming}
                  onChange={(e) => setRenaming(e.target.value)}
                  maxLength={200}
                  autoFocus
                  onKeyDown={(e) => e.key === "Escape" && setRenaming(null)}
                />
              </label>
              <button
                type="submit"
                className="btn btn-primary"
                style={{ alignSelf: "flex-end" }}
                disabled={props.disabled || !renaming.trim()}
              >
                Save name
              </button>
              <button
                type="button"
                className="btn btn-ghost"
                style={{ alignSelf: "flex-end" }}
                onClick={() => setRenaming(null)}
              >
                Cancel
              </button>
            </form>
          )}
          {agent.description && (
            <p className="small muted" style={{ margin: 0 }}>
              {agent.description}
            </p>
          )}
        </div>
        <div className="row">
          <span className="badge badge-neutral">{agent.tools.length} tools in the session</span>
          {renaming === null && (
            <button
              type="button"
              className="btn"
              onClick={() => setRenaming(agent.name)}
              aria-label={`Rename agent ${agent.name}`}
              disabled={props.disabled}
            >
              Rename
            </button>
          )}
          <button
            type="button"
            className="btn btn-danger"
            onClick={props.onRemove}
            aria-label={`Remove agent ${agent.name}`}
            disabled={props.disabled}
          >
            Remove
          </button>
        </div>
      </div>
      <p className="small muted" style={{ margin: 0 }}>
        Once tools share a session, text returned by any of them can reach every tool in it,
        whichever server each came from.
      </p>
      {[...byServer.entries()].map(([serverId, serverTools]) => (
        <ServerTools
          key={serverId}
          agentName={agent.name}
          serverTools={serverTools}
          held={held}
          readOnly={props.readOnly}
          disabled={props.disabled}
          onSet={props.onSetTools}
        />
      ))}
      {orphaned.length > 0 && (
        <div className="callout warn small">
          Holds tools no server lists any more:{" "}
          {orphaned.map((r) => (
            <code key={`${r.serverId}/${r.tool}`}>{`${r.serverId}/${shownName(r.tool)} `}</code>
          ))}
        </div>
      )}
    </article>
  );
}

export function AgentsSection({
  editor,
  review,
  tools,
  readOnly = new Set(),
  children,
}: {
  editor: ReviewEditor;
  review: Review;
  tools: KnownTool[];
  readOnly?: ReadonlySet<string>;
  children?: React.ReactNode;
}) {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pendingRemove, setPendingRemove] = useState<Agent | null>(null);

  /** Holds or drops `refs` in one agent as one revision, applied to the revision being saved over. */
  const setTools = (id: AgentId, refs: readonly ToolRef[], on: boolean) =>
    editor.save((r) => ({
      ...r,
      agents: r.agents.map((a) =>
        a.id === id ? { ...a, tools: setToolsHeld(a.tools, refs, on) } : a,
      ),
    }));

  const renameAgent = (id: AgentId, name: string) =>
    editor.save((r) => ({
      ...r,
      agents: r.agents.map((a) => (a.id === id ? { ...a, name } : a)),
    }));

  const addAgent = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = AgentSchema.safeParse({ id: newId("agent"), name, tools: [] });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "invalid agent");
      return;
    }
    setError(null);
    if (await editor.save((r) => ({ ...r, agents: [...r.agents, parsed.data] }))) setName("");
  };

  const removeAgent = (id: AgentId) =>
    editor.save((r) => ({
      ...r,
      agents: r.agents.filter((a) => a.id !== id),
      controls: controlsWithoutAgent(r.controls, id),
      decisions: r.decisions.filter((d) => d.agentId !== id),
    }));

  return (
    <section className="stack" aria-labelledby="agents-heading">
      <div>
        <h2 id="agents-heading" style={{ marginBottom: 0 }}>
          Agents & tool sets
        </h2>
        <p className="muted small" style={{ margin: 0 }}>
          A named agent session holds tools from one or more servers. The variable is the agent, not
          the server.
        </p>
      </div>
      <form className="card row" onSubmit={(e) => void addAgent(e)} aria-label="Add an agent">
        <label className="field" style={{ flex: 1 }}>
          <span className="label-text">New agent</span>
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="e.g. reference agent"
            aria-invalid={!!error}
          />
          {error && <span className="field-error">{error}</span>}
        </label>
        <button
          type="submit"
          className="btn btn-primary"
          style={{ alignSelf: "flex-end" }}
          disabled={!name.trim() || editor.isSaving}
        >
          Add agent
        </button>
      </form>
      {review.agents.length === 0 ? (
        <div className="card empty">
          <h3>No agents yet</h3>
          <p>
            Add the agent sessions that will hold this server&apos;s tools, and what else they hold.
          </p>
        </div>
      ) : (
        review.agents.map((agent) => (
          <AgentCard
            key={agent.id}
            agent={agent}
            tools={tools}
            review={review}
            readOnly={readOnly}
            disabled={editor.isSaving}
            onRename={(next) => renameAgent(agent.id, next)}
            onSetTools={(refs, on) => void setTools(agent.id, refs, on)}
            onRemove={() => setPendingRemove(agent)}
          />
        ))
      )}
      {children}
      <ConfirmDialog
        open={pendingRemove !== null}
        title="Remove this agent?"
        body={`“${pendingRemove?.name ?? ""}”, its approval settings and any decision naming it will be removed. Earlier revisions keep them.`}
        confirmLabel="Remove agent"
        danger
        onCancel={() => setPendingRemove(null)}
        onConfirm={() => {
          if (pendingRemove) void removeAgent(pendingRemove.id); // the outcome shows in the save status
          setPendingRemove(null);
        }}
      />
    </section>
  );
}

/** Agents & tool sets with the tools the server's analysis sees (live surface where inspected). */
export function AgentsSectionLoader(props: {
  id: string;
  revision: number;
  editor: ReviewEditor;
  review: Review;
}) {
  const analysis = useQuery(analysisOptions(props.id, props.revision));
  const readOnly = new Set(
    (analysis.data?.tools ?? [])
      .filter((t) => t.item === "tool" && !t.roles.some((r) => SENSITIVE_SINK_ROLES.includes(r)))
      .map((t) => toolKey(t.serverId, t.name)),
  );
  const live = new Map<string, { name: string; description: string }[]>();
  for (const list of analysis.data?.toolLists ?? []) {
    if (list.origin !== "snapshot") continue;
    live.set(
      list.serverId,
      (analysis.data?.tools ?? [])
        .filter((t) => t.serverId === list.serverId && t.presence === "listed")
        .map((t) => ({ name: t.name, description: "" })),
    );
  }
  return (
    <AgentsSection
      editor={props.editor}
      review={props.review}
      tools={knownToolsOf(props.review, live)}
      readOnly={readOnly}
    >
      {analysis.data?.toolLists
        .filter((l) => l.blocked)
        .map((l) => (
          <div
            key={l.serverId}
            className="callout danger"
            data-testid={`agents-blocked-${l.serverId}`}
          >
            <strong>BLOCKED</strong>{" "}
            <RevealedText
              text={props.review.servers.find((s) => s.id === l.serverId)?.name ?? l.serverId}
            />
            : <RevealedText text={l.blocked?.reason ?? ""} />
          </div>
        ))}
      {analysis.isError && (
        <div className="callout danger">Could not load tool roles: {analysis.error.message}</div>
      )}
      {analysis.data && (
        <ToolRolesTable
          tools={analysis.data.tools}
          analysisRevision={analysis.data.revision}
          review={props.review}
          editor={props.editor}
          revision={props.revision}
        />
      )}
    </AgentsSection>
  );
}
