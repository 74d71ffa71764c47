"use client";
/**
 * The Webhooks page: add a webhook (generic signed JSON, or Slack through a `${NAME}` secret
 * reference), send a test, remove one, and read each delivery with every attempt's status. A
 * generated signing secret is shown once, right after creation, and never again.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";
import { webhookKeys } from "@/components/query-keys";
import {
  DEFAULT_WEBHOOK_KINDS,
  EVENT_KINDS,
  EVENT_KIND_NAMES,
  type EventKind,
} from "@/lib/events/kinds";
import {
  CreateWebhookResponseSchema,
  ListWebhooksResponseSchema,
  TestWebhookResponseSchema,
} from "@/lib/watch/webhook-api";
import { utcSecond } from "@/lib/format/utc-time";

export function WebhooksPanel() {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: webhookKeys.all,
    queryFn: () => apiFetch("/api/webhooks", ListWebhooksResponseSchema),
  });
  const [label, setLabel] = useState("");
  const [url, setUrl] = useState("");
  const [format, setFormat] = useState<"generic" | "slack">("generic");
  const [kinds, setKinds] = useState<EventKind[]>(DEFAULT_WEBHOOK_KINDS);
  const [shown, setShown] = useState<{ name: string; secret: string } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const create = useMutation({
    mutationFn: () =>
      apiFetch("/api/webhooks", CreateWebhookResponseSchema, {
        method: "POST",
        body: JSON.stringify({ label, url, format, kinds }),
      }),
    onSuccess: (r) => {
      setUrl("");
      setLabel("");
      setShown(
        r.generatedSecret && r.webhook.secretName
          ? { name: r.webhook.secretName, secret: r.generatedSecret }
          : null,
      );
    },
    onSettled: invalidate,
  });
  const test = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/webhooks/${encodeURIComponent(id)}/test`, TestWebhookResponseSchema, {
        method: "POST",
      }),
    onSuccess: (r) => {
      const a = r.delivery.attempts.at(-1);
      setNote(
        `Test ${r.delivery.state}: ${a?.status ?? "no response"}${a?.error ? ` (${a.error})` : ""}`,
      );
    },
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`/api/webhooks/${encodeURIComponent(id)}`, z.undefined(), { method: "DELETE" }),
    onSettled: invalidate,
  });

  return (
    <div className="stack">
      <form
        className="card stack"
        aria-label="Add a webhook"
        onSubmit={(e) => {
          e.preventDefault();
          setShown(null);
          create.mutate();
        }}
      >
        <h2 style={{ margin: 0 }}>Add a webhook</h2>
        <p className="small muted" style={{ margin: 0 }}>
          Deliveries go through the workbench&apos;s egress allowlist (RELAY_REVIEW_EGRESS_ALLOW,
          empty by default; a loopback receiver needs an entry naming its port, e.g. 127.0.0.1:9000)
          and are retried with backoff. A Slack incoming-webhook URL is itself a credential: set it
          on the Secrets page and write <code>{"${NAME}"}</code> here.
        </p>
        <div className="row">
          <label className="stack" style={{ gap: 4 }}>
            <span className="small">Label</span>
            <input value={label} onChange={(e) => setLabel(e.target.value)} />
          </label>
          <label className="stack" style={{ gap: 4, flex: 1 }}>
            <span className="small">URL</span>
            <input
              className="mono"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://hooks.example/relay-review or ${SLACK_WEBHOOK_URL}"
              required
            />
          </label>
          <label className="stack" style={{ gap: 4 }}>
            <span className="small">Format</span>
            <select
              value={format}
              onChange={(e) => setFormat(e.target.value === "slack" ? "slack" : "generic")}
            >
              <option value="generic">Generic JSON, signed</option>
              <option value="slack">Slack incoming webhook</option>
            </select>
          </label>
        </div>
        <fieldset className="row">
          <legend className="small">Events</legend>
          {EVENT_KIND_NAMES.map((k) => (
            <label key={k} className="row small" style={{ gap: 4 }}>
              <input
                type="checkbox"
                checked={kinds.includes(k)}
                onChange={(e) =>
                  setKinds(e.target.checked ? [...kinds, k] : kinds.filter((x) => x !== k))
                }
              />
              {EVENT_KINDS[k].label}
            </label>
          ))}
        </fieldset>
        <div className="row">
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Add webhook
          </button>
          {create.error && (
            <span role="alert" className="small">
              {create.error.message}
            </span>
          )}
        </div>
        {shown && (
          <div className="callout warn" role="status">
            Signing secret <code>{shown.name}</code>, shown this once (it is kept in the secret
            store): <code className="mono">{shown.secret}</code>
          </div>
        )}
      </form>
      {note && (
        <p role="status" className="small">
          {note}
        </p>
      )}
      {list.data?.webhooks.length === 0 && <p className="muted">No webhooks yet.</p>}
      {list.data?.webhooks.map((w) => (
        <section key={w.id} className="card stack" aria-label={`Webhook ${w.label || w.id}`}>
          <div className="row" style={{ alignItems: "baseline" }}>
            <strong>{w.label || w.id}</strong>
            <span className="badge badge-neutral">{w.format}</span>
            <code className="mono small">{w.url}</code>
            <span style={{ flex: 1 }} />
            <button
              type="button"
              className="btn"
              onClick={() => test.mutate(w.id)}
              disabled={test.isPending}
            >
              Test
            </button>
            <button type="button" className="btn btn-danger" onClick={() => remove.mutate(w.id)}>
              Remove
            </button>
          </div>
          <p className="small muted" style={{ margin: 0 }}>
            {w.kinds.map((k) => EVENT_KINDS[k].label).join(", ")}
            {w.secretName ? ` · signed with ${w.secretName}` : ""}
          </p>
          <table className="data">
            <thead>
              <tr>
                <th>Delivery</th>
                <th>State</th>
                <th>Attempts</th>
              </tr>
            </thead>
            <tbody>
              {w.deliveries.map((d) => (
                <tr key={d.id}>
                  <td className="mono small">
                    {d.id} · {utcSecond(d.createdAt)}
                  </td>
                  <td>{d.state}</td>
                  <td className="small">
                    {d.attempts
                      .map((a) => `${a.status ?? "—"}${a.error ? ` ${a.error}` : ""} (${a.ms} ms)`)
                      .join("; ") || "none yet"}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}
