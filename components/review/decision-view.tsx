"use client";
/**
 * Read-only pieces of a decision: what it names and is bound to, its conditions with whether each
 * holds now, and its status (current, or STALE saying what changed). Presentational: shared by the
 * workbench's Decision section and the share view, and they fetch nothing.
 */
import type { DecisionView } from "@/lib/decisions/api";
import type { Decision, DecisionCondition } from "@/lib/review/schema";
import { utcDay, utcMinute } from "@/lib/format/utc-time";

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
  finding_unaccepted: "finding not accepted",
  acceptance_expired: "acceptance ended",
};

/** The accepted risks of an approval ([] for one that accepts none, and for a rejection). */
const acceptedOf = (d: Decision) => (d.verdict === "rejected" ? [] : (d.acceptedRisks ?? []));
/** The earliest end date among an approval's acceptances, as a day. */
const earliestUntil = (d: Decision) => {
  const first = acceptedOf(d)
    .map((r) => r.until)
    .sort()[0];
  return first ? utcDay(first) : null;
};
/** "1 critical, 8 high" */
const severityCounts = (d: Decision) => {
  const counts = new Map<string, number>();
  for (const r of acceptedOf(d)) counts.set(r.severity, (counts.get(r.severity) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).join(", ");
};

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

/**
 * Superseded, current, current while accepting risk (never plain green: it says what it accepts
 * and until when), or STALE with every change. Shared with the share view.
 */
export function DecisionStatusBlock({ view }: { view: DecisionView }) {
  const pending = pendingOf(view.decision);
  if (pending && !view.supersededBy && view.status.state === "current") {
    return (
      <div className="callout warn small" data-testid="decision-status" data-state="pending">
        <strong>
          Pending proposal: {pending.approvals} of {pending.required} approval
          {pending.required === 1 ? "" : "s"}.
        </strong>{" "}
        Not in force until an approver other than its author approves it (four eyes).
      </div>
    );
  }
  if (view.supersededBy) {
    return (
      <div className="callout small" data-testid="decision-status" data-state="superseded">
        <strong>Superseded</strong> by decision <span className="mono">{view.supersededBy}</span>{" "}
        for the same server and agent: no longer in force, and it no longer counts toward the
        review&apos;s state.
      </div>
    );
  }
  const accepted = acceptedOf(view.decision);
  if (view.status.state === "current" && accepted.length > 0) {
    return (
      <div
        className="callout warn small"
        data-testid="decision-status"
        data-state="current-accepting-risk"
      >
        <strong>
          Current, accepting risk: {accepted.length} open finding{accepted.length === 1 ? "" : "s"}{" "}
          ({severityCounts(view.decision)}) until {earliestUntil(view.decision)} at the earliest.
        </strong>{" "}
        The surface, image digest, tool set and controls are as they were when this was decided; the
        accepted findings are listed above.
      </div>
    );
  }
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

/** Four eyes: how far a proposal has got, or null when it is not pending (lib/decisions/four-eyes.ts). */
export function pendingOf(d: Decision): { approvals: number; required: number } | null {
  const approvals = d.approvals?.length ?? 0;
  const required = d.requiredApprovals ?? 0;
  return approvals < required ? { approvals, required } : null;
}

/** What a decision names and is bound to. Shared with the share view. */
export function DecisionDetails({ view, review }: { view: DecisionView; review: Names }) {
  const { decision: d } = view;
  const serverName = review.servers.find((s) => s.id === d.serverId)?.name ?? d.serverId;
  const agentName = review.agents.find((a) => a.id === d.agentId)?.name ?? d.agentId;
  return (
    <div className="stack" style={{ gap: "0.5rem" }}>
      <div className="row">
        <span
          className={acceptedOf(d).length > 0 ? "badge badge-warn" : VERDICT_BADGE[d.verdict]}
          data-testid="decision-verdict"
        >
          {VERDICT_LABEL[d.verdict]}
          {acceptedOf(d).length > 0 &&
            `, accepting ${acceptedOf(d).length} finding${acceptedOf(d).length === 1 ? "" : "s"}`}
        </span>
        <strong>
          {serverName} into {agentName}
        </strong>
        <span className="small muted" data-testid="decision-author">
          {d.author ? "proposed by" : "by"} {d.author?.name ?? d.reviewer}
          {d.author ? "" : " (owner token)"}, {utcMinute(d.decidedAt)}, on revision{" "}
          {d.bound.revision}
        </span>
      </div>
      {pendingOf(d) && (
        <div className="callout warn small" data-testid="decision-pending">
          <strong>PENDING</strong>: a proposal with {pendingOf(d)!.approvals} of{" "}
          {pendingOf(d)!.required} required approvals by someone other than its author; not in
          force.
        </div>
      )}
      {(d.approvals ?? []).length > 0 && (
        <p className="small" style={{ margin: 0 }} data-testid="decision-approvals">
          Approved by {(d.approvals ?? []).map((a) => `${a.name}, ${utcMinute(a.at)}`).join("; ")}
        </p>
      )}
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
        {d.supersedes && (
          <>
            <dt>Supersedes</dt>
            <dd className="mono">{d.supersedes}</dd>
          </>
        )}
      </dl>
      {acceptedOf(d).length > 0 && (
        <div className="callout warn stack small" style={{ gap: "0.3rem" }}>
          <strong>
            Accepts {acceptedOf(d).length} open finding{acceptedOf(d).length === 1 ? "" : "s"} (
            {severityCounts(d)}), until {earliestUntil(d)} at the earliest
          </strong>
          <ul style={{ margin: 0, paddingLeft: "1.1rem" }} data-testid="decision-accepted-risks">
            {acceptedOf(d).map((r) => (
              <li key={r.findingId} data-finding-id={r.findingId} data-severity={r.severity}>
                <span
                  className={r.severity === "critical" ? "badge badge-danger" : "badge badge-warn"}
                >
                  {r.severity}
                </span>{" "}
                {r.text}{" "}
                <span className="muted">
                  accepted by {r.owner} until {utcDay(r.until)}: {r.why}
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {d.verdict !== "rejected" && d.acceptedRisks === undefined && (
        <p className="small muted" style={{ margin: 0 }}>
          Made before approvals said what they accept: any open critical or high finding makes it
          stale.
        </p>
      )}
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
