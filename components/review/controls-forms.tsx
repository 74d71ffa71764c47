"use client";

import { useState } from "react";
import { CodeEditor } from "@/components/code/code-editor";
import { RevealedText } from "@/components/surface/revealed-text";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import {
  ApprovalConfigSchema,
  CredentialConfigSchema,
  StatementOfIntentSchema,
  type Agent,
  type RelayServer,
  type Review,
} from "@/lib/review/schema";
import { fieldIssuesFromZod } from "@/lib/errors";

const list = (text: string) =>
  text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

/** The token the server holds: scopes, projects, identity, TTL and rotation — machine-checkable facts. */
export function CredentialForm({
  editor,
  review,
  server,
}: {
  editor: ReviewEditor;
  review: Review;
  server: RelayServer;
}) {
  const current = review.controls.credentials.find((c) => c.serverId === server.id);
  const [scopes, setScopes] = useState(current?.scopes.join(", ") ?? "");
  const [projects, setProjects] = useState(current?.projects.join(", ") ?? "");
  const [sensitive, setSensitive] = useState(current?.sensitiveProjects.join(", ") ?? "");
  const [identity, setIdentity] = useState(current?.identity ?? "unknown");
  const [ttl, setTtl] = useState(current?.ttlDays?.toString() ?? "");
  const [rotation, setRotation] = useState(current?.rotation ?? "");
  const [errors, setErrors] = useState<string[]>([]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = CredentialConfigSchema.safeParse({
      serverId: server.id,
      scopes: list(scopes),
      projects: list(projects),
      sensitiveProjects: list(sensitive),
      identity,
      ttlDays: ttl.trim() === "" ? null : Number(ttl),
      rotation: rotation.trim() || null,
    });
    if (!parsed.success)
      return setErrors(
        fieldIssuesFromZod(parsed.error.issues).map((i) => `${i.path}: ${i.message}`),
      );
    setErrors([]);
    await editor.save((r) => ({
      ...r,
      controls: {
        ...r.controls,
        credentials: [
          ...r.controls.credentials.filter((c) => c.serverId !== server.id),
          parsed.data,
        ],
      },
    }));
  };

  return (
    <form
      className="stack"
      onSubmit={(e) => void submit(e)}
      aria-label={`Credential of ${server.name}`}
    >
      <div className="grid-3">
        <label className="field">
          <span className="label-text">Scopes (comma-separated)</span>
          <input className="mono" value={scopes} onChange={(e) => setScopes(e.target.value)} />
        </label>
        <label className="field">
          <span className="label-text">Projects granted</span>
          <input className="mono" value={projects} onChange={(e) => setProjects(e.target.value)} />
        </label>
        <label className="field">
          <span className="label-text">Sensitive projects (must not be granted)</span>
          <input
            className="mono"
            value={sensitive}
            onChange={(e) => setSensitive(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="label-text">Identity</span>
          <select value={identity} onChange={(e) => setIdentity(e.target.value as typeof identity)}>
            <option value="service">service identity</option>
            <option value="person">a person&apos;s token</option>
            <option value="unknown">unknown</option>
          </select>
        </label>
        <label className="field">
          <span className="label-text">TTL in days (empty: no expiry)</span>
          <input type="number" min={1} value={ttl} onChange={(e) => setTtl(e.target.value)} />
        </label>
        <label className="field">
          <span className="label-text">Rotation (empty: none)</span>
          <input value={rotation} onChange={(e) => setRotation(e.target.value)} />
        </label>
      </div>
      {errors.length > 0 && (
        <p className="field-error" role="alert">
          {errors.join("; ")}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" disabled={editor.isSaving}>
          Save credential
        </button>
      </div>
    </form>
  );
}

/** The server's NetworkPolicy as YAML, edited in Monaco; evaluation happens in lib/controls. */
export function EgressForm({
  editor,
  review,
  server,
}: {
  editor: ReviewEditor;
  review: Review;
  server: RelayServer;
}) {
  const current = review.controls.egress.find((c) => c.serverId === server.id);
  const [yaml, setYaml] = useState(current?.policyYaml ?? "");
  const dirty = yaml !== (current?.policyYaml ?? "");
  const save = () =>
    editor.save((r) => ({
      ...r,
      controls: {
        ...r.controls,
        egress: [
          ...r.controls.egress.filter((c) => c.serverId !== server.id),
          { serverId: server.id, policyYaml: yaml },
        ],
      },
    }));
  return (
    <div className="stack" data-testid={`egress-${server.id}`}>
      <div
        style={{
          border: "1px solid var(--border)",
          borderRadius: "var(--radius)",
          overflow: "hidden",
        }}
      >
        <CodeEditor
          value={yaml}
          language="yaml"
          height={300}
          ariaLabel={`NetworkPolicy of ${server.name}`}
          onChange={setYaml}
        />
      </div>
      <div className="row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void save()}
          disabled={!dirty || editor.isSaving}
        >
          Save policy
        </button>
        {dirty && <span className="small muted">Unsaved changes to the policy</span>}
      </div>
    </div>
  );
}

/** Approval on the sensitive path: what fires it, where the prompt appears, and how often. */
export function ApprovalForm({
  editor,
  review,
  agent,
}: {
  editor: ReviewEditor;
  review: Review;
  agent: Agent;
}) {
  const current = review.controls.approvals.find((a) => a.agentId === agent.id);
  const [tools, setTools] = useState(
    new Set((current?.tools ?? []).map((t) => `${t.serverId}/${t.tool}`)),
  );
  const [outOfBand, setOutOfBand] = useState(current?.outOfBand ?? false);
  const [resolved, setResolved] = useState(current?.showsResolvedArguments ?? false);
  const [perDay, setPerDay] = useState(String(current?.promptsPerDay ?? 0));
  const [median, setMedian] = useState(String(current?.medianSecondsToApprove ?? 0));
  const [errors, setErrors] = useState<string[]>([]);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = ApprovalConfigSchema.safeParse({
      agentId: agent.id,
      tools: agent.tools.filter((t) => tools.has(`${t.serverId}/${t.tool}`)),
      outOfBand,
      showsResolvedArguments: resolved,
      promptsPerDay: Number(perDay),
      medianSecondsToApprove: Number(median),
    });
    if (!parsed.success)
      return setErrors(
        fieldIssuesFromZod(parsed.error.issues).map((i) => `${i.path}: ${i.message}`),
      );
    setErrors([]);
    await editor.save((r) => ({
      ...r,
      controls: {
        ...r.controls,
        approvals: [...r.controls.approvals.filter((a) => a.agentId !== agent.id), parsed.data],
      },
    }));
  };

  return (
    <form
      className="stack"
      onSubmit={(e) => void submit(e)}
      aria-label={`Approval in ${agent.name}`}
    >
      <fieldset style={{ border: "none", padding: 0, margin: 0 }}>
        <legend className="small" style={{ fontWeight: 600 }}>
          Calls that need approval
        </legend>
        <div className="row" style={{ gap: "0.4rem 1rem" }}>
          {agent.tools.map((t) => {
            const key = `${t.serverId}/${t.tool}`;
            return (
              <label key={key} className="check">
                <input
                  type="checkbox"
                  checked={tools.has(key)}
                  onChange={(e) => {
                    const next = new Set(tools);
                    if (e.target.checked) next.add(key);
                    else next.delete(key);
                    setTools(next);
                  }}
                />
                <RevealedText text={t.tool} className="mono" />
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="grid-2">
        <label className="check">
          <input
            type="checkbox"
            checked={outOfBand}
            onChange={(e) => setOutOfBand(e.target.checked)}
          />
          The prompt is out of band of the agent
        </label>
        <label className="check">
          <input
            type="checkbox"
            checked={resolved}
            onChange={(e) => setResolved(e.target.checked)}
          />
          Arguments are shown resolved to final values
        </label>
        <label className="field">
          <span className="label-text">Prompts per day per approver</span>
          <input
            type="number"
            min={0}
            step="any"
            value={perDay}
            onChange={(e) => setPerDay(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="label-text">Median seconds from display to click</span>
          <input
            type="number"
            min={0}
            step="any"
            value={median}
            onChange={(e) => setMedian(e.target.value)}
          />
        </label>
      </div>
      {errors.length > 0 && (
        <p className="field-error" role="alert">
          {errors.join("; ")}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary" disabled={editor.isSaving}>
          Save approval
        </button>
      </div>
    </form>
  );
}

/** Prose is recorded and shown, and given no position in the path. */
export function StatementsForm({ editor, review }: { editor: ReviewEditor; review: Review }) {
  const [text, setText] = useState("");
  const [where, setWhere] = useState("");
  const [error, setError] = useState<string | null>(null);
  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = StatementOfIntentSchema.safeParse({ text, where });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? "invalid statement");
    setError(null);
    if (
      await editor.save((r) => ({
        ...r,
        controls: {
          ...r.controls,
          statementsOfIntent: [...r.controls.statementsOfIntent, parsed.data],
        },
      }))
    ) {
      setText("");
      setWhere("");
    }
  };
  const remove = (index: number) =>
    editor.save((r) => ({
      ...r,
      controls: {
        ...r.controls,
        statementsOfIntent: r.controls.statementsOfIntent.filter((_, i) => i !== index),
      },
    }));
  return (
    <div className="stack">
      {review.controls.statementsOfIntent.map((s, i) => (
        <div key={i} className="callout row" style={{ justifyContent: "space-between" }}>
          <div>
            <q>{s.text}</q>
            {s.where && <div className="small muted">{s.where}</div>}
            <div className="small">
              <span className="badge badge-neutral">statement of intent</span> no component reads
              it: no position in the path, no effect on any finding
            </div>
          </div>
          <button
            type="button"
            className="btn btn-ghost"
            onClick={() => void remove(i)}
            aria-label="Remove statement"
          >
            Remove
          </button>
        </div>
      ))}
      <form className="row" onSubmit={(e) => void add(e)} aria-label="Record a statement of intent">
        <label className="field" style={{ flex: 2 }}>
          <span className="label-text">Statement</span>
          <input
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="intended for read-only reference only"
          />
        </label>
        <label className="field" style={{ flex: 1 }}>
          <span className="label-text">Where it is written</span>
          <input
            value={where}
            onChange={(e) => setWhere(e.target.value)}
            placeholder="integration document"
          />
        </label>
        <button
          type="submit"
          className="btn"
          style={{ alignSelf: "flex-end" }}
          disabled={!text.trim()}
        >
          Record
        </button>
      </form>
      {error && <p className="field-error">{error}</p>}
    </div>
  );
}
