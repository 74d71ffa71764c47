"use client";
/**
 * The Decision section: decide on a server into a named agent with its tool set (approved,
 * approved with checkable conditions, or rejected), every decision with what it is bound to and
 * whether it is still current (STALE, saying what changed), downloads of the signed record and the
 * Markdown report, and the review's read-only share links. Status, condition checks and records
 * are computed by the server; this component only shows them and sends the reviewer's choices.
 */
import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useMe } from "@/components/auth/me-query";
import { z } from "zod";
import { ApiError, apiFetch } from "@/components/api-client";
import { DownloadLink, downloadWithSession } from "@/components/ui/download-link";
import {
  createShareLink,
  decide,
  decisionsOptions,
  recordUrl,
  reportUrl,
  revokeShareLink,
  shareLinksOptions,
  SIGNING_KEY_URL,
} from "@/components/reviews/decision-queries";
import { decisionKeys, reviewKeys } from "@/components/query-keys";
import {
  conditionKey,
  DecisionDetails,
  pendingOf,
  describeCondition,
  HoldsBadge,
  VERDICT_LABEL,
} from "@/components/review/decision-view";
import type {
  ConditionCheckView,
  CreateShareLinkResponse,
  DecisionFindingView,
  DecisionView,
  ShareLinkView,
} from "@/lib/decisions/api";
import type { Decision, Review } from "@/lib/review/schema";

/** Served from public/ (lib/decisions/json-schema.ts DECISION_RECORD_SCHEMA_URL_PATH; not imported: it pulls node:crypto). */
export const DECISION_RECORD_SCHEMA_URL = "/schemas/decision-record.v1.json";

const ENFORCEABLE_EXPORTS = [
  { kind: "networkpolicy", label: "NetworkPolicy allowlist (YAML)", file: "networkpolicy.yaml" },
  { kind: "client-config", label: "Client config through the gate (JSON)", file: "mcp.json" },
  { kind: "credential-request", label: "Credential scope request", file: "credential-request.md" },
] as const;

const exportUrl = (id: string, decisionId: string, kind: string) =>
  `/api/reviews/${encodeURIComponent(id)}/decisions/${encodeURIComponent(decisionId)}/exports/${kind}`;

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

function DecisionCard({ id, view, review }: { id: string; view: DecisionView; review: Review }) {
  const [error, setError] = useState<string | null>(null);
  const d = view.decision;
  // A superseded decision gets no record either: only the decision in force is vouched for.
  const isStale = view.status.state === "stale" || Boolean(view.supersededBy);
  // What the signed record's registration carries: the server's hosts as they are now.
  const elicitationHosts =
    review.servers.find((s) => s.id === d.serverId)?.elicitationUrlHosts ?? [];
  const queryClient = useQueryClient();
  // Four eyes: the server checks the role and that the approver is not the author.
  const approve = useMutation({
    mutationFn: () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(id)}/decisions/${encodeURIComponent(d.id)}/approvals`,
        z.unknown(),
        { method: "POST" },
      ),
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
    // Only an approval changes anything: a refused one leaves the card, and its message, as they are.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: decisionKeys.review(id) }),
      ]),
  });
  const run = (url: string, name: string) => {
    setError(null);
    downloadWithSession(url, name).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <article
      className="card stack"
      data-testid={`decision-${d.id}`}
      data-decision-id={d.id}
      aria-label={`Decision ${d.id}`}
    >
      <DecisionDetails view={view} review={review} />
      {elicitationHosts.length > 0 && (
        <p className="small" style={{ margin: 0 }} data-testid="decision-elicitation-hosts">
          URL elicitation allowed to: <span className="mono">{elicitationHosts.join(", ")}</span>
        </p>
      )}
      <div className="row">
        {pendingOf(d) && !view.supersededBy && (
          <button
            type="button"
            className="btn btn-primary"
            data-testid="approve-proposal"
            disabled={approve.isPending}
            onClick={() => approve.mutate()}
          >
            Approve this proposal
          </button>
        )}
        <button
          type="button"
          className="btn"
          onClick={() => run(recordUrl(id, d.id), `decision-${d.id}.json`)}
          disabled={isStale}
          title={
            isStale
              ? "A stale decision cannot be exported as a signed record: decide again"
              : undefined
          }
        >
          Download signed record (JSON)
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => run(reportUrl(id, d.id), `decision-${d.id}.md`)}
        >
          Download report (Markdown)
        </button>
      </div>
      {d.verdict !== "rejected" && (
        <div className="row small">
          <span className="muted">Enforceable exports, each validated before download:</span>
          {ENFORCEABLE_EXPORTS.map((e) => (
            <button
              key={e.kind}
              type="button"
              className="btn"
              disabled={isStale}
              onClick={() => run(exportUrl(id, d.id, e.kind), `${d.id}-${e.file}`)}
            >
              {e.label}
            </button>
          ))}
        </div>
      )}
      {error && (
        <div className="callout danger small" role="alert">
          {error}
        </div>
      )}
    </article>
  );
}

type Verdict = Decision["verdict"];

/** The picker's groups: the controls, the sinks to keep out, and the held tools on the agent's paths. */
const CONDITION_GROUPS: { offer: ConditionCheckView["offer"]; heading: string | null }[] = [
  { offer: undefined, heading: null },
  { offer: "keep_out", heading: "Keep out of the agent: sensitive tools it does not hold" },
  {
    offer: "on_path",
    heading:
      "On the agent's paths: it holds these, so their absence cannot hold until they leave the tool set",
  },
];

/** What the reviewer types to accept one finding; `until` is a date (YYYY-MM-DD), empty for the default. */
type Acceptance = { owner: string; why: string; until: string };

const FINDING_SEVERITY_ORDER = ["critical", "high", "medium", "low", "info"] as const;
const requiresAcceptance = (f: DecisionFindingView) =>
  f.severity === "critical" || f.severity === "high";

/** A field path of the decide request as the form names it. */
function fieldLabel(path: string): string {
  if (path === "rationale") return "Rationale";
  if (path === "reviewer") return "Reviewer";
  const m = /^acceptances\.(\d+)\.(owner|why|until|findingId)$/.exec(path);
  if (m) {
    const field = { owner: "risk owner", why: "why", until: "until", findingId: "finding" }[
      m[2] as "owner" | "why" | "until" | "findingId"
    ];
    return `Acceptance ${Number(m[1]) + 1} (${field})`;
  }
  return path;
}

/**
 * The decide API's refusal as the form shows it, once: the findings an approval leaves uncovered,
 * or each bad field by its label, or the message alone.
 */
function decideErrorMessage(error: Error): { text: string; issues?: string[] } {
  const body = error instanceof ApiError ? error.body : null;
  const details = body?.error.details;
  if (details?.reason === "unaccepted_findings" && Array.isArray(details.uncovered)) {
    const uncovered = details.uncovered as { severity: string; text: string }[];
    return {
      text: `Not recorded: ${uncovered.length} critical or high finding${uncovered.length === 1 ? " is" : "s are"} neither removed by a condition nor accepted. Accept each below (owner, why, until), choose a condition that removes it, or reject.`,
      issues: uncovered.map((u) => `${u.severity}: ${u.text}`),
    };
  }
  const issues = body?.error.issues ?? [];
  if (issues.length > 0)
    return {
      text: "Not recorded:",
      issues: issues.map((i) => `${fieldLabel(i.path)}: ${i.message}`),
    };
  return { text: error.message };
}

/**
 * The open findings of the chosen agent and tool set, most severe first, before Record. Critical
 * and high ones each need a condition that removes them or an acceptance: a tick that opens who
 * owns the risk, why, and until when. Nothing is ticked by default.
 */
function OpenFindings({
  findings,
  isPending,
  isApproval,
  accepts,
  onAccept,
}: {
  findings: readonly DecisionFindingView[];
  isPending: boolean;
  isApproval: boolean;
  accepts: Record<string, Acceptance>;
  onAccept: (findingId: string, value: Acceptance | null) => void;
}) {
  return (
    <fieldset
      className="stack"
      data-testid="decide-findings"
      style={{
        border: "1px solid var(--border)",
        borderRadius: "var(--radius)",
        padding: "0.5rem 0.75rem",
        gap: "0.4rem",
      }}
    >
      <legend className="small" style={{ fontWeight: 600 }}>
        Open findings for this agent and tool set ({findings.length})
      </legend>
      {isPending && <div className="skeleton" style={{ height: "3rem" }} />}
      {!isPending && findings.length === 0 && (
        <p className="small muted" style={{ margin: 0 }}>
          No open finding: an approval accepts nothing.
        </p>
      )}
      {findings.some(requiresAcceptance) && (
        <p className="small" style={{ margin: 0 }}>
          An approval never stands silently on a critical or high finding: remove each with a
          condition, or accept it with who owns the risk, why, and until when (90 days if left
          empty, at most 365). Nothing is accepted unless you tick it.
        </p>
      )}
      {FINDING_SEVERITY_ORDER.map((severity) => {
        const group = findings.filter((f) => f.severity === severity);
        if (group.length === 0) return null;
        return (
          <div
            key={severity}
            className="stack"
            style={{ gap: "0.35rem" }}
            data-testid={`findings-${severity}`}
          >
            <div className="small" style={{ fontWeight: 600 }}>
              {severity} ({group.length})
            </div>
            {group.map((f) => {
              const accepted = accepts[f.id];
              return (
                <div
                  key={f.id}
                  className="stack"
                  style={{ gap: "0.25rem" }}
                  data-testid={`finding-${f.id}`}
                  data-finding-id={f.id}
                >
                  {requiresAcceptance(f) && isApproval ? (
                    <label className="check">
                      <input
                        type="checkbox"
                        checked={accepted !== undefined}
                        onChange={(e) =>
                          onAccept(
                            f.id,
                            e.target.checked ? { owner: "", why: "", until: "" } : null,
                          )
                        }
                        aria-label={`Accept: ${f.text}`}
                      />
                      <span className="small">
                        {f.text} <span className="muted mono">{f.id}</span>
                      </span>
                    </label>
                  ) : (
                    <span className="small">
                      {f.text} <span className="muted mono">{f.id}</span>
                    </span>
                  )}
                  {accepted && (
                    <div className="grid-3" style={{ paddingLeft: "1.5rem" }}>
                      <label className="field">
                        <span className="label-text">Risk owner</span>
                        <input
                          value={accepted.owner}
                          onChange={(e) => onAccept(f.id, { ...accepted, owner: e.target.value })}
                          maxLength={120}
                        />
                      </label>
                      <label className="field">
                        <span className="label-text">Why it is accepted</span>
                        <input
                          value={accepted.why}
                          onChange={(e) => onAccept(f.id, { ...accepted, why: e.target.value })}
                          maxLength={4000}
                        />
                      </label>
                      <label className="field">
                        <span className="label-text">Accepted until</span>
                        <input
                          type="date"
                          value={accepted.until}
                          onChange={(e) => onAccept(f.id, { ...accepted, until: e.target.value })}
                        />
                      </label>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        );
      })}
    </fieldset>
  );
}

function DecideForm({ id, review, revision }: { id: string; review: Review; revision: number }) {
  const queryClient = useQueryClient();
  const servers = review.servers;
  const [serverId, setServerId] = useState<string>(
    servers.find((s) => s.transport.kind !== "manual")?.id ?? servers[0]?.id ?? "",
  );
  const [agentId, setAgentId] = useState<string>(review.agents[0]?.id ?? "");
  const [verdict, setVerdict] = useState<Verdict>("approved_with_conditions");
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [reviewer, setReviewer] = useState("");
  const me = useMe();
  const signedInPerson = me.data?.principal.kind === "person";
  const [rationale, setRationale] = useState("");
  const [message, setMessage] = useState<{
    kind: "ok" | "error";
    text: string;
    issues?: string[];
  } | null>(null);

  const [accepts, setAccepts] = useState<Record<string, Acceptance>>({});

  const pair = serverId && agentId ? { serverId, agentId } : null;
  const candidates = useQuery({ ...decisionsOptions(id, revision, pair), enabled: pair !== null });
  const options: ConditionCheckView[] = candidates.data?.candidates ?? [];
  const findings: DecisionFindingView[] = candidates.data?.findings ?? [];
  const isApproval = verdict !== "rejected";

  const mutation = useMutation({
    mutationFn: () =>
      decide(id, {
        baseRevision: revision,
        serverId,
        agentId,
        verdict,
        conditions:
          verdict === "approved_with_conditions"
            ? options
                .filter((o) => o.offer !== "on_path" && chosen.has(conditionKey(o.condition)))
                .map((o) => o.condition)
            : [],
        // Only what the reviewer ticked, for findings open now; nothing is accepted by default.
        acceptances: isApproval
          ? findings
              .filter((f) => accepts[f.id])
              .map((f) => ({
                findingId: f.id,
                owner: accepts[f.id]!.owner,
                why: accepts[f.id]!.why,
                ...(accepts[f.id]!.until ? { until: accepts[f.id]!.until } : {}),
              }))
          : [],
        // A signed-in person is named by the identity provider; only the owner token types a name.
        ...(signedInPerson ? {} : { reviewer }),
        rationale,
      }),
    onSuccess: (res) => {
      setMessage({ kind: "ok", text: `Decided; saved as revision ${res.revision}.` });
      setRationale("");
      setChosen(new Set());
      setAccepts({});
    },
    onError: (error) => setMessage({ kind: "error", ...decideErrorMessage(error) }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reviewKeys.detail(id) }),
        queryClient.invalidateQueries({ queryKey: decisionKeys.review(id) }),
      ]),
  });

  if (servers.length === 0 || review.agents.length === 0) {
    return (
      <div className="card empty">
        <h3>Nothing to decide yet</h3>
        <p>A decision names a server and the agent it goes into: add both first.</p>
      </div>
    );
  }

  const toggle = (key: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  return (
    <form
      className="card stack"
      aria-label="Decide"
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        mutation.mutate();
      }}
    >
      <h3 style={{ margin: 0 }}>Decide</h3>
      <p className="small muted" style={{ margin: 0 }}>
        Never a bare approval of a server: it goes into a named agent with that agent&apos;s whole
        tool set, bound to the surface, image digest, tool set and controls as they are now
        (revision {revision}).
      </p>
      <div className="grid-2">
        <label className="field">
          <span className="label-text">Server</span>
          <select value={serverId} onChange={(e) => setServerId(e.target.value)} name="serverId">
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="label-text">Into agent</span>
          <select value={agentId} onChange={(e) => setAgentId(e.target.value)} name="agentId">
            {review.agents.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.tools.length} tools)
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="small" style={{ margin: 0 }} data-testid="decide-tool-set">
        Tool set:{" "}
        {review.agents
          .find((a) => a.id === agentId)
          ?.tools.map((t) => t.tool)
          .join(", ") || "no tools"}
      </p>
      <fieldset className="stack" style={{ border: "none", padding: 0, margin: 0, gap: "0.35rem" }}>
        <legend className="label-text" style={{ fontWeight: 600, marginBottom: "0.35rem" }}>
          Verdict
        </legend>
        {(Object.keys(VERDICT_LABEL) as Verdict[]).map((v) => (
          <label key={v} className="check">
            <input
              type="radio"
              name="verdict"
              value={v}
              checked={verdict === v}
              onChange={() => setVerdict(v)}
            />
            {VERDICT_LABEL[v]}
          </label>
        ))}
      </fieldset>
      {verdict === "approved_with_conditions" && (
        <fieldset
          className="stack"
          style={{
            border: "1px solid var(--border)",
            borderRadius: "var(--radius)",
            padding: "0.5rem 0.75rem",
            gap: "0.35rem",
          }}
        >
          <legend className="small" style={{ fontWeight: 600 }}>
            Conditions (each checked from configuration, now)
          </legend>
          {candidates.isPending && <div className="skeleton" style={{ height: "3rem" }} />}
          {candidates.isError && (
            <div className="callout danger small">
              Could not load the conditions: {candidates.error.message}
            </div>
          )}
          {CONDITION_GROUPS.map((group) => {
            const inGroup = options.filter((o) => o.offer === group.offer);
            if (inGroup.length === 0) return null;
            return (
              <div
                key={group.offer ?? "controls"}
                className="stack"
                style={{ gap: "0.35rem" }}
                data-testid={`condition-group-${group.offer ?? "controls"}`}
              >
                {group.heading && (
                  <div className="small" style={{ fontWeight: 600 }}>
                    {group.heading}
                  </div>
                )}
                {group.offer === "keep_out" && inGroup.length > 1 && (
                  <div className="row">
                    <button
                      type="button"
                      className="btn"
                      data-testid="keep-every-sink-out"
                      disabled={inGroup.every((o) => chosen.has(conditionKey(o.condition)))}
                      onClick={() =>
                        setChosen((prev) => {
                          const next = new Set(prev);
                          for (const o of inGroup) next.add(conditionKey(o.condition));
                          return next;
                        })
                      }
                    >
                      Keep every sink out ({inGroup.length})
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost"
                      disabled={!inGroup.some((o) => chosen.has(conditionKey(o.condition)))}
                      onClick={() =>
                        setChosen((prev) => {
                          const next = new Set(prev);
                          for (const o of inGroup) next.delete(conditionKey(o.condition));
                          return next;
                        })
                      }
                    >
                      Clear these
                    </button>
                  </div>
                )}
                {inGroup.map((o) => {
                  const key = conditionKey(o.condition);
                  // A held tool on the agent's paths is shown, not chosen: its absence cannot hold for this tool set.
                  const selectable = o.offer !== "on_path";
                  return (
                    <label
                      key={key}
                      className="check"
                      data-testid={`condition-${o.condition.kind}`}
                      data-condition={key}
                      data-offer={o.offer}
                    >
                      <input
                        type="checkbox"
                        checked={selectable && chosen.has(key)}
                        disabled={!selectable}
                        onChange={(e) => toggle(key, e.target.checked)}
                      />
                      <span>
                        {describeCondition(o.condition, review)} <HoldsBadge holds={o.holds} />{" "}
                        <span className="small muted">
                          {o.offerNote ? `${o.reason}; ${o.offerNote}` : o.reason}
                        </span>
                      </span>
                    </label>
                  );
                })}
              </div>
            );
          })}
        </fieldset>
      )}
      <OpenFindings
        findings={findings}
        isPending={candidates.isPending && pair !== null}
        isApproval={isApproval}
        accepts={accepts}
        onAccept={(findingId, value) =>
          setAccepts((prev) => {
            const next = { ...prev };
            if (value) next[findingId] = value;
            else delete next[findingId];
            return next;
          })
        }
      />
      {/* A signed-in person is named by the identity provider: no name to type. */}
      {!signedInPerson && (
        <div className="grid-2">
          <label className="field">
            <span className="label-text">Reviewer</span>
            <input
              value={reviewer}
              onChange={(e) => setReviewer(e.target.value)}
              name="reviewer"
              autoComplete="name"
            />
          </label>
        </div>
      )}
      <label className="field">
        <span className="label-text">Rationale</span>
        <textarea
          value={rationale}
          onChange={(e) => setRationale(e.target.value)}
          rows={3}
          name="rationale"
        />
      </label>
      {message && (
        <div
          className={`callout ${message.kind === "ok" ? "ok" : "danger"} small`}
          role={message.kind === "ok" ? "status" : "alert"}
          data-testid="decide-message"
        >
          {message.text}
          {message.issues && message.issues.length > 0 && (
            <ul style={{ margin: "0.3rem 0 0", paddingLeft: "1.1rem" }}>
              {message.issues.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          Record decision
        </button>
      </div>
    </form>
  );
}

function ShareLinkRow({ id, link }: { id: string; link: ShareLinkView }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => revokeShareLink(id, link.id),
    onSettled: () => refreshAfterWrite(queryClient, decisionKeys.shareLinks(id)),
  });
  const badge =
    link.state === "active"
      ? "badge badge-ok"
      : link.state === "revoked"
        ? "badge badge-danger"
        : "badge badge-neutral";
  return (
    <tr data-testid={`share-link-${link.id}`} data-state={link.state}>
      <td>{link.label || <span className="muted">no label</span>}</td>
      <td>
        {link.frozenRevision === null
          ? "latest revision"
          : `frozen at revision ${link.frozenRevision}`}
      </td>
      <td className="muted">{dateFormat.format(new Date(link.createdAt))}</td>
      <td className="muted">
        {link.expiresAt ? dateFormat.format(new Date(link.expiresAt)) : "never"}
      </td>
      <td>
        <span className={badge}>{link.state}</span>
      </td>
      <td>
        {link.state === "active" && (
          <button
            type="button"
            className="btn btn-danger"
            onClick={() => revoke.mutate()}
            disabled={revoke.isPending}
            aria-label={`Revoke link ${link.label || link.id}`}
          >
            Revoke
          </button>
        )}
        {revoke.isError && <span className="field-error">{revoke.error.message}</span>}
      </td>
    </tr>
  );
}

const EXPIRY_CHOICES = [
  { value: "", label: "never" },
  { value: "1", label: "1 hour" },
  { value: "24", label: "1 day" },
  { value: "168", label: "7 days" },
  { value: "720", label: "30 days" },
] as const;

function ShareLinksPanel({ id, revision }: { id: string; revision: number }) {
  const queryClient = useQueryClient();
  const links = useQuery(shareLinksOptions(id));
  const [frozen, setFrozen] = useState(true);
  const [expiry, setExpiry] = useState<string>("168");
  const [label, setLabel] = useState("");
  const [created, setCreated] = useState<{
    url: string;
    link: CreateShareLinkResponse["link"];
  } | null>(null);
  const [copied, setCopied] = useState(false);
  const create = useMutation({
    mutationFn: () =>
      createShareLink(id, { frozen, label, ...(expiry ? { expiresInHours: Number(expiry) } : {}) }),
    onSuccess: (res) => {
      setCopied(false);
      setCreated({ url: new URL(res.path, window.location.origin).toString(), link: res.link });
      setLabel("");
    },
    onSettled: () => refreshAfterWrite(queryClient, decisionKeys.shareLinks(id)),
  });
  const copy = (url: string) => {
    navigator.clipboard.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <section className="card stack" aria-labelledby="share-heading">
      <h3 id="share-heading" style={{ margin: 0 }}>
        Share a read-only link
      </h3>
      <p className="small muted" style={{ margin: 0 }}>
        Anyone with the link sees this review read-only — graph, paths, controls and decisions —
        without signing in. It cannot edit, inspect, create links or reach any other review. The
        link is shown once; only its hash is kept.
      </p>
      <form
        className="row"
        aria-label="Create a share link"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <label className="check">
          <input
            type="checkbox"
            checked={frozen}
            onChange={(e) => setFrozen(e.target.checked)}
            name="frozen"
          />
          Freeze at revision {revision}
        </label>
        <label className="field">
          <span className="label-text">Expires after</span>
          <select value={expiry} onChange={(e) => setExpiry(e.target.value)} name="expiry">
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="label-text">Label (optional)</span>
          <input
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            name="label"
            maxLength={120}
          />
        </label>
        <button type="submit" className="btn btn-primary" disabled={create.isPending}>
          Create link
        </button>
      </form>
      {create.isError && (
        <div className="callout danger small" role="alert">
          {create.error.message}
        </div>
      )}
      {created && (
        <div className="callout ok stack" role="status" data-testid="share-link-created">
          <div className="small">
            <strong>Copy this link now: it is not shown again.</strong>{" "}
            {created.link.frozenRevision === null
              ? "It shows the latest revision."
              : `It shows revision ${created.link.frozenRevision}.`}
          </div>
          <div className="row">
            <input
              className="mono"
              readOnly
              value={created.url}
              aria-label="Share link"
              data-testid="share-link-url"
              style={{ flex: 1 }}
              onFocus={(e) => e.target.select()}
            />
            <button type="button" className="btn" onClick={() => copy(created.url)}>
              {copied ? "Copied" : "Copy"}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      )}
      {links.isError && (
        <div className="callout danger small">Could not load the links: {links.error.message}</div>
      )}
      {links.data && links.data.links.length > 0 && (
        <div style={{ overflowX: "auto" }}>
          <table className="data" aria-label="Share links" data-testid="share-links">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Shows</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span className="sr-only">Revoke</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.data.links.map((l) => (
                <ShareLinkRow key={l.id} id={id} link={l} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function DecisionSection({
  id,
  review,
  revision,
}: {
  id: string;
  review: Review;
  revision: number;
}) {
  const list = useQuery(decisionsOptions(id, revision));
  const decisions = list.data ? [...list.data.decisions].reverse() : [];
  return (
    <section className="stack" aria-labelledby="decision-heading">
      <div>
        <h2 id="decision-heading" style={{ marginBottom: 0 }}>
          Decision
        </h2>
        <p className="muted small" style={{ margin: 0 }}>
          Approved into a named agent with a named tool set, or rejected — and revisited when either
          half of the pair changes. Records are signed with the workbench&apos;s Ed25519 key:{" "}
          <DownloadLink href={SIGNING_KEY_URL} fallbackName="relay-review-signing-key.pem">
            public key
          </DownloadLink>{" "}
          ·{" "}
          <a href={DECISION_RECORD_SCHEMA_URL} target="_blank" rel="noreferrer">
            record JSON Schema (v1)
          </a>{" "}
          ·{" "}
          <DownloadLink
            href={`/api/reviews/${encodeURIComponent(id)}/export/sarif`}
            fallbackName="findings.sarif"
          >
            findings as SARIF 2.1.0
          </DownloadLink>
        </p>
      </div>
      <DecideForm id={id} review={review} revision={revision} />
      <section className="stack" aria-labelledby="decisions-heading">
        <h3 id="decisions-heading" style={{ margin: 0 }}>
          Decisions ({review.decisions.length})
        </h3>
        {list.isPending && <div className="skeleton" style={{ height: "8rem" }} aria-busy="true" />}
        {list.isError && (
          <div className="callout danger" role="alert">
            Could not load the decisions: {list.error.message}
          </div>
        )}
        {list.data && decisions.length === 0 && (
          <div className="card empty">No decision recorded yet.</div>
        )}
        {decisions.map((view) => (
          <DecisionCard key={view.decision.id} id={id} view={view} review={review} />
        ))}
      </section>
      <ShareLinksPanel id={id} revision={revision} />
    </section>
  );
}
