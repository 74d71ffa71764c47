"use client";

/**
 * The Summary section, where a review opens (issue 29, item 5): the review's state in one word,
 * then per agent its open paths by severity, the trifecta and the Rule of Two, and each control on
 * its paths; each server's pin; each decision with where it is in its life and what it accepts.
 * Everything is computed on the server (GET /api/reviews/[id]/summary, from the same review
 * context as the state route); names come from the review and the servers: rendered as text.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { reviewSummaryOptions } from "@/components/reviews/summary-queries";
import { DetectionCounts } from "@/components/review/detection-counts";
import { HeldResults } from "@/components/review/held-results";
import { usePaintedMark } from "@/components/ui/painted-mark";
import type {
  AgentSummary,
  DecisionSummary,
  ReviewSummaryView,
  SeverityCounts,
} from "@/lib/reviews/summary";

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });

const STATE_BADGE: Record<ReviewSummaryView["flags"]["state"], string> = {
  current: "badge badge-ok",
  stale: "badge badge-warn",
  blocked: "badge badge-danger",
  failing: "badge badge-warn",
};
const DECISION_BADGE: Record<DecisionSummary["status"], string> = {
  current: "badge badge-ok",
  stale: "badge badge-warn",
  pending: "badge badge-accent",
  superseded: "badge badge-neutral",
};
const VERDICT_WORD: Record<DecisionSummary["verdict"], string> = {
  approved: "Approved",
  approved_with_conditions: "Approved with conditions",
  rejected: "Rejected",
};
const CONTROL_BADGE = {
  holds: "badge badge-ok",
  fails: "badge badge-danger",
  absent: "badge badge-warn",
  cannot_evaluate: "badge badge-neutral",
} as const;
const CONTROL_WORD = {
  holds: "holds",
  fails: "fails",
  absent: "absent",
  cannot_evaluate: "cannot be evaluated",
} as const;

function Counts({ counts, label }: { counts: SeverityCounts; label: string }) {
  const parts = (["critical", "high", "medium", "low"] as const).filter((k) => counts[k] > 0);
  if (parts.length === 0) return <span className="muted">none</span>;
  return (
    <span aria-label={`${label}: ${parts.map((k) => `${counts[k]} ${k}`).join(", ")}`}>
      {parts.map((k) => (
        <span
          key={k}
          className={k === "critical" || k === "high" ? "badge badge-danger" : "badge badge-warn"}
          style={{ marginRight: "0.25rem" }}
        >
          {counts[k]} {k}
        </span>
      ))}
    </span>
  );
}

function Leg({ name, leg }: { name: string; leg: { present: boolean; tools: number } }) {
  return (
    <li>
      {name}:{" "}
      {leg.present ? (
        <strong>
          present ({leg.tools} tool{leg.tools === 1 ? "" : "s"})
        </strong>
      ) : (
        <span className="muted">absent</span>
      )}
    </li>
  );
}

function AgentCard({ agent }: { agent: AgentSummary }) {
  return (
    <section
      className="card stack"
      aria-labelledby={`summary-agent-${agent.agentId}`}
      data-testid={`summary-agent-${agent.agentId}`}
    >
      <h3 id={`summary-agent-${agent.agentId}`} style={{ margin: 0 }}>
        {agent.name}{" "}
        <span className="small muted">
          {agent.toolCount} tool{agent.toolCount === 1 ? "" : "s"}
        </span>
      </h3>
      <dl className="kv">
        <dt>Open paths</dt>
        <dd data-testid="summary-paths">
          <Counts counts={agent.paths} label="Open paths" />
        </dd>
        <dt>Other findings</dt>
        <dd>
          <Counts counts={agent.findings} label="Other findings" />
        </dd>
        <dt>Lethal trifecta</dt>
        <dd data-testid="summary-trifecta">
          {agent.trifecta.met ? (
            <span className="badge badge-danger">met</span>
          ) : (
            <span className="badge badge-ok">not met</span>
          )}
          <ul className="small" style={{ margin: "0.25rem 0 0", paddingLeft: "1.25rem" }}>
            <Leg name="Untrusted input" leg={agent.trifecta.untrustedInput} />
            <Leg name="Private data" leg={agent.trifecta.privateData} />
            <Leg name="Outbound communication" leg={agent.trifecta.outboundCommunication} />
          </ul>
        </dd>
        <dt>Rule of Two</dt>
        <dd data-testid="summary-rule-of-two">
          {agent.ruleOfTwo.violated ? (
            <span className="badge badge-danger">broken</span>
          ) : (
            <span className="badge badge-ok">kept</span>
          )}{" "}
          <span className="small muted">{agent.ruleOfTwo.count} of 4 properties held</span>
        </dd>
        <dt>Controls on its paths</dt>
        <dd>
          {agent.controls.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul style={{ margin: 0, paddingLeft: "1.25rem" }}>
              {agent.controls.map((c) => (
                <li key={`${c.controlId} ${c.scope}`}>
                  {c.name} <span className="small muted">({c.scope})</span>:{" "}
                  <span className={CONTROL_BADGE[c.status]}>{CONTROL_WORD[c.status]}</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </section>
  );
}

function Decisions({ decisions, id }: { decisions: DecisionSummary[]; id: string }) {
  if (decisions.length === 0)
    return (
      <p className="muted">
        No decision yet.{" "}
        <Link href={`/reviews/${id}?section=decision`} prefetch={false}>
          Decide
        </Link>
      </p>
    );
  return (
    <table className="data" aria-label="Decisions">
      <thead>
        <tr>
          <th scope="col">Decision</th>
          <th scope="col">State</th>
          <th scope="col">Accepts</th>
          <th scope="col">Decided</th>
        </tr>
      </thead>
      <tbody>
        {decisions.map((d) => (
          <tr key={d.decisionId} data-testid={`summary-decision-${d.decisionId}`}>
            <td>
              {VERDICT_WORD[d.verdict]}: {d.serverName} into {d.agentName}
            </td>
            <td>
              <span className={DECISION_BADGE[d.status]}>{d.status}</span>
              {d.expiresAt && (
                <span className="badge badge-warn" style={{ marginLeft: "0.25rem" }}>
                  expiring {dateFormat.format(new Date(d.expiresAt))}
                </span>
              )}
              {d.status === "stale" && d.staleBecause.length > 0 && (
                <ul className="small" style={{ margin: "0.25rem 0 0", paddingLeft: "1.25rem" }}>
                  {d.staleBecause.map((why, i) => (
                    <li key={i}>{why}</li>
                  ))}
                </ul>
              )}
            </td>
            <td>
              {d.accepts.length === 0 ? (
                <span className="muted">nothing</span>
              ) : (
                <ul className="small" style={{ margin: 0, paddingLeft: "1.25rem" }}>
                  {d.accepts.map((a, i) => (
                    <li key={i}>
                      <span
                        className={
                          a.severity === "critical" || a.severity === "high"
                            ? "badge badge-danger"
                            : "badge badge-warn"
                        }
                      >
                        {a.severity}
                      </span>{" "}
                      {a.text} (owner {a.owner}, until {dateFormat.format(new Date(a.until))})
                    </li>
                  ))}
                </ul>
              )}
            </td>
            <td className="small">
              {dateFormat.format(new Date(d.decidedAt))}
              <br />
              <span className="muted">{d.reviewer}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SummarySection({ id, revision }: { id: string; revision: number }) {
  const summary = useQuery(reviewSummaryOptions(id, revision));
  // Once the summary has been painted (the bench reads it).
  usePaintedMark("summary-painted", summary.data !== undefined);
  if (summary.isPending)
    return <div className="skeleton" style={{ height: "16rem" }} aria-busy="true" />;
  if (summary.isError)
    return (
      <div className="callout danger" role="alert">
        Could not load the summary: {summary.error.message}{" "}
        <button type="button" className="btn btn-ghost" onClick={() => void summary.refetch()}>
          Retry
        </button>
      </div>
    );
  const s = summary.data;
  const pins = {
    pinned: s.servers.filter((x) => x.pin === "pinned").length,
    blocked: s.servers.filter((x) => x.pin === "blocked").length,
    unpinned: s.servers.filter((x) => x.pin === "unpinned").length,
  };
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="summary-heading">
        <h2 id="summary-heading" style={{ margin: 0 }}>
          Summary{" "}
          <span className={STATE_BADGE[s.flags.state]} data-testid="summary-state">
            {s.flags.state}
          </span>
        </h2>
        <p className="small muted" style={{ margin: 0 }}>
          Revision {s.revision}. {s.flags.stale} stale, {s.flags.pending} pending,{" "}
          {s.flags.expiring} expiring decision{s.flags.expiring === 1 ? "" : "s"}; {pins.pinned}{" "}
          pinned, {pins.blocked} blocked, {pins.unpinned} unpinned server
          {s.servers.length === 1 ? "" : "s"}.
        </p>
      </section>
      <section className="stack" aria-labelledby="summary-agents-heading">
        <h2 id="summary-agents-heading" style={{ margin: 0 }}>
          Agents
        </h2>
        {s.agents.length === 0 ? (
          <p className="muted">No agent yet.</p>
        ) : (
          <div className="grid-2">
            {s.agents.map((a) => (
              <AgentCard key={a.agentId} agent={a} />
            ))}
          </div>
        )}
      </section>
      <section className="card stack" aria-labelledby="summary-pins-heading">
        <h2 id="summary-pins-heading" style={{ margin: 0 }}>
          Servers and pins
        </h2>
        <table className="data" aria-label="Servers and pins">
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Pin</th>
              <th scope="col">Inspection</th>
            </tr>
          </thead>
          <tbody>
            {s.servers.map((x) => (
              <tr key={x.serverId} data-testid={`summary-server-${x.serverId}`}>
                <td>{x.name}</td>
                <td>
                  <span
                    className={
                      x.pin === "blocked"
                        ? "badge badge-danger"
                        : x.pin === "pinned"
                          ? "badge badge-ok"
                          : "badge badge-neutral"
                    }
                  >
                    {x.pin}
                  </span>
                  {x.blockedReason && <div className="small">{x.blockedReason}</div>}
                </td>
                <td className="small">
                  {x.failing ? "latest failed" : x.inspected ? "inspected" : "never inspected"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card stack" aria-labelledby="summary-decisions-heading">
        <h2 id="summary-decisions-heading" style={{ margin: 0 }}>
          Decisions
        </h2>
        <Decisions decisions={s.decisions} id={id} />
      </section>
      <DetectionCounts detection={s.detection} />
      <HeldResults reviewId={id} />
    </div>
  );
}
