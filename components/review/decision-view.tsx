"use client";
/**
 * Read-only pieces of a decision: what it names and is bound to, its conditions with whether each
 * holds now, and its status (current, or STALE saying what changed). Presentational: shared by the
 * workbench's Decision section and the share view, and they fetch nothing.
 */
import type { DecisionView } from "@/lib/decisions/api";
import type { Decision, DecisionCondition } from "@/lib/review/schema";

export const VERDICT_LABEL: Record<Decision["verdict"], string> = {
  approved: "Approved",
  approved_with_conditions: "Approved with conditions",
  rejected: "Rejected",
};
const VERDICT_BADGE: Record<Decision["verdict"], string> = {
  approved: "badge badge-ok",
  approved_with_conditions: "badge badge-warn",
  rejected: "badge badge-danger",
};
const STALE_WHAT: Record<string, string> = {
  surface: "surface",
  pin: "pin",
  image_digest: "image digest",
  tool_set: "tool set",
  controls: "controls",
  granted_scopes: "OAuth grant",
  agent_removed: "agent removed",
  server_removed: "server removed",
};

const dateFormat = new Intl.DateTimeFormat("en-GB", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});
const short = (sha: string | null) => (sha === null ? "none" : `${sha.slice(0, 12)}…`);
export const conditionKey = (c: DecisionCondition) => JSON.stringify(c);

/** Only names are read, so the share view's reduced review fits too. */
type Names = {
  servers: readonly { id: string; name: string }[];
  agents: readonly { id: string; name: string }[];
};

export function describeCondition(c: DecisionCondition, review: Names): string {
  const server = (id: string) => review.servers.find((s) => s.id === id)?.name ?? id;
  const agent = (id: string) => review.agents.find((a) => a.id === id)?.name ?? id;
  switch (c.kind) {
    case "tool_absent_from_agent":
      return `${c.tool.tool} on ${server(c.tool.serverId)} is not in the agent's tool set`;
    case "egress_default_deny":
      return `egress of ${server(c.serverId)} is default-deny (an allowlist)`;
    case "credential_read_only":
      return `the credential of ${server(c.serverId)} is read-only`;
    case "approval_out_of_band":
      return `approval for ${agent(c.agentId)} is out of band of the agent`;
    case "surface_pinned_block":
      return `${server(c.serverId)} is pinned and blocks on a surface change`;
  }
}

export function HoldsBadge({ holds }: { holds: boolean | null }) {
  if (holds === true) return <span className="badge badge-ok">holds</span>;
  if (holds === false) return <span className="badge badge-danger">does not hold</span>;
  return <span className="badge badge-warn">cannot be checked</span>;
}

/** Current, or STALE with every change to what the decision is bound to. Shared with the share view. */
export function DecisionStatusBlock({ view }: { view: DecisionView }) {
  if (view.status.state === "current") {
    return (
      <div className="callout ok small" data-testid="decision-status" data-state="current">
        <strong>Current.</strong> The surface, image digest, tool set and controls are as they were
        when this was decided.
      </div>
    );
  }
  return (
    <div
      className="callout danger small"
      role="status"
      data-testid="decision-status"
      data-state="stale"
    >
      <strong>STALE: decide again.</strong> What changed since the decision:
      <ul style={{ margin: "0.3rem 0 0", paddingLeft: "1.1rem" }}>
        {view.status.changes.map((c, i) => (
          <li key={`${c.what}-${i}`} data-what={c.what}>
            <strong>{STALE_WHAT[c.what] ?? c.what}</strong>: {c.message}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What a decision names and is bound to. Shared with the share view. */
export function DecisionDetails({ view, review }: { view: DecisionView; review: Names }) {
  const { decision: d } = view;
  const serverName = review.servers.find((s) => s.id === d.serverId)?.name ?? d.serverId;
  const agentName = review.agents.find((a) => a.id === d.agentId)?.name ?? d.agentId;
  return (
    <div className="stack" style={{ gap: "0.5rem" }}>
      <div className="row">
        <span className={VERDICT_BADGE[d.verdict]} data-testid="decision-verdict">
          {VERDICT_LABEL[d.verdict]}
        </span>
        <strong>
          {serverName} into {agentName}
        </strong>
        <span className="small muted">
          by {d.reviewer}, {dateFormat.format(new Date(d.decidedAt))} UTC, on revision{" "}
          {d.bound.revision}
        </span>
      </div>
      <p style={{ margin: 0, whiteSpace: "pre-wrap" }} className="small">
        {d.rationale}
      </p>
      <dl className="kv small">
        <dt>Tool set</dt>
        <dd data-testid="decision-tool-set">
          {d.toolSet.length} tools: {d.toolSet.map((t) => t.tool).join(", ")}
        </dd>
        <dt>Basis</dt>
        <dd>{view.basis.label}</dd>
        <dt>Surface</dt>
        <dd className="mono">{short(d.bound.surfaceSha256)}</dd>
        <dt>Image digest</dt>
        <dd className="mono" style={{ wordBreak: "break-all" }}>
          {d.bound.imageDigest ?? "none recorded"}
        </dd>
        <dt>Tool set SHA-256</dt>
        <dd className="mono">{short(d.bound.toolSetSha256)}</dd>
        <dt>Controls SHA-256</dt>
        <dd className="mono">{short(d.bound.controlsSha256)}</dd>
      </dl>
      {d.conditions.length > 0 && (
        <div className="stack" style={{ gap: "0.3rem" }}>
          <strong className="small">Conditions, checked against the review now</strong>
          <ul
            className="small"
            style={{ margin: 0, paddingLeft: "1.1rem" }}
            data-testid="decision-conditions"
          >
            {d.conditions.map((c, i) => {
              const check = view.conditionChecks[i];
              return (
                <li key={conditionKey(c)}>
                  {describeCondition(c, review)} {check && <HoldsBadge holds={check.holds} />}{" "}
                  {check && <span className="muted">{check.reason}</span>}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <DecisionStatusBlock view={view} />
    </div>
  );
}
