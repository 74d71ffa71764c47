"use client";

import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { analysisOptions } from "@/components/review/analysis-queries";
import {
  ApprovalForm,
  CredentialForm,
  EgressForm,
  StatementsForm,
} from "@/components/review/controls-forms";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import type { Analysis } from "@/lib/analysis/analyze";
import type { Finding } from "@/lib/model/findings";
import { CONTROL_CATALOG } from "@/lib/controls/catalog";
import type { ControlStatus } from "@/lib/controls/types";
import { wouldAllow, type WouldAllowResult } from "@/lib/controls/egress/evaluate";
import {
  formatPolicyIssue,
  parseNetworkPolicies,
  PROTOCOLS,
  type Protocol,
} from "@/lib/controls/egress/policy";
import type { RelayServer, Review } from "@/lib/review/schema";

const STATUS_BADGE: Record<ControlStatus, { className: string; label: string }> = {
  holds: { className: "badge badge-ok", label: "holds" },
  fails: { className: "badge badge-danger", label: "fails" },
  absent: { className: "badge badge-warn", label: "absent" },
  cannot_evaluate: { className: "badge badge-danger", label: "cannot evaluate" },
};

function StatusBadge({ status }: { status: ControlStatus }) {
  const b = STATUS_BADGE[status];
  return <span className={b.className}>{b.label}</span>;
}

function FindingList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return null;
  return (
    <ul className="stack" style={{ listStyle: "none", padding: 0, margin: 0, gap: "0.4rem" }}>
      {findings.map((f) => (
        <li
          key={f.id}
          className={`callout ${f.severity === "critical" || f.severity === "high" ? "danger" : "warn"}`}
        >
          <strong>{f.title}</strong> <span className="badge badge-neutral">{f.severity}</span>
          <div className="small">{f.why.summary}</div>
          {f.why.reliesOnSuggestions && (
            <div className="small muted">Relies on an unconfirmed role suggestion.</div>
          )}
        </li>
      ))}
    </ul>
  );
}

function StopsLeaves({ stops, residue, cuts }: { stops: string; residue: string; cuts: boolean }) {
  return (
    <dl className="kv small">
      <dt>Stops</dt>
      <dd>{stops}</dd>
      <dt>Leaves</dt>
      <dd>{residue}</dd>
      <dt>Path</dt>
      <dd>
        {cuts ? (
          <strong>cuts the source-to-sink path</strong>
        ) : (
          "narrows an end of the path; does not cut it"
        )}
      </dd>
    </dl>
  );
}

function describeVerdict(r: WouldAllowResult): { tone: "ok" | "danger" | "warn"; text: string } {
  switch (r.outcome) {
    case "allowed":
      return { tone: "danger", text: `Allowed: ${r.reason}` };
    case "denied":
      return { tone: "ok", text: `Denied: ${r.reason}` };
    case "depends_on_dns":
      return {
        tone: "warn",
        text: `${r.reason}${r.ifResolved ? ` — for the given addresses: ${r.ifResolved}` : ""}`,
      };
    case "invalid_destination":
      return { tone: "warn", text: `Not a destination: ${r.reason}` };
  }
}

/** "Would a fetch to this host:port be allowed?", evaluated live against the policy text being edited. */
function EgressQuery({ policyYaml }: { policyYaml: string }) {
  const [host, setHost] = useState("93.184.216.34");
  const [port, setPort] = useState("443");
  const [protocol, setProtocol] = useState<Protocol>("TCP");
  const [resolved, setResolved] = useState("");
  const parsed = useMemo(() => parseNetworkPolicies(policyYaml), [policyYaml]);
  const result = useMemo(() => {
    if (!parsed.ok) return null;
    const isIp = /^[0-9.]+$/.test(host) || host.includes(":");
    const resolvedIps = resolved
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    return wouldAllow(parsed.policies, {
      ...(isIp ? { ip: host.trim() } : { host: host.trim(), resolvedIps }),
      port: Number(port),
      protocol,
    });
  }, [parsed, host, port, protocol, resolved]);
  const verdict = result ? describeVerdict(result) : null;
  return (
    <form
      className="stack"
      aria-label="Would a fetch be allowed?"
      onSubmit={(e) => e.preventDefault()}
    >
      <div className="row">
        <label className="field">
          <span className="label-text">Host or IP</span>
          <input className="mono" value={host} onChange={(e) => setHost(e.target.value)} />
        </label>
        <label className="field" style={{ width: "6rem" }}>
          <span className="label-text">Port</span>
          <input
            type="number"
            min={1}
            max={65535}
            value={port}
            onChange={(e) => setPort(e.target.value)}
          />
        </label>
        <label className="field">
          <span className="label-text">Protocol</span>
          <select value={protocol} onChange={(e) => setProtocol(e.target.value as Protocol)}>
            {PROTOCOLS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="field" style={{ flex: 1 }}>
          <span className="label-text">Resolved addresses (for a hostname, optional)</span>
          <input
            className="mono"
            value={resolved}
            onChange={(e) => setResolved(e.target.value)}
            placeholder="10.42.7.12, 93.184.216.34"
          />
        </label>
      </div>
      {!parsed.ok ? (
        <div className="callout danger small" role="alert" data-testid="egress-parse-errors">
          The policy does not parse: {parsed.issues.map(formatPolicyIssue).join("; ")}
        </div>
      ) : (
        verdict && (
          <div
            className={`callout ${verdict.tone} small`}
            role="status"
            data-testid="egress-verdict"
          >
            {verdict.text}
          </div>
        )
      )}
    </form>
  );
}

function ServerControls({
  editor,
  review,
  server,
  analysis,
}: {
  editor: ReviewEditor;
  review: Review;
  server: RelayServer;
  analysis: Analysis | null;
}) {
  const credential = analysis?.controls.credentials.find((c) => c.scope.serverId === server.id);
  const egress = analysis?.controls.egress.find((c) => c.scope.serverId === server.id);
  const absent =
    analysis?.controls.absent.filter(
      (a) => a.scope.kind === "server" && a.scope.serverId === server.id,
    ) ?? [];
  const policyYaml = review.controls.egress.find((e) => e.serverId === server.id)?.policyYaml ?? "";
  const credentialEntry = CONTROL_CATALOG.find((c) => c.id === "credential");
  const egressEntry = CONTROL_CATALOG.find((c) => c.id === "egress");
  return (
    <article className="card stack" aria-labelledby={`controls-${server.id}`}>
      <h3 id={`controls-${server.id}`}>{server.name}</h3>
      <section
        className="stack"
        aria-label={`Scoped credential of ${server.name}`}
        data-testid={`credential-${server.id}`}
      >
        <div className="row">
          <h4 style={{ margin: 0 }}>Scoped credential</h4>
          {credential ? (
            <StatusBadge status={credential.status} />
          ) : (
            absent.some((a) => a.controlId === "credential") && <StatusBadge status="absent" />
          )}
          <span className="small muted">sits at the server&apos;s token</span>
        </div>
        {credential && (
          <p className="small" style={{ margin: 0 }}>
            {credential.summary}
          </p>
        )}
        {credentialEntry && (
          <StopsLeaves
            stops={credentialEntry.stops}
            residue={credentialEntry.residue}
            cuts={false}
          />
        )}
        <FindingList
          findings={
            credential?.findings ??
            absent.filter((a) => a.controlId === "credential").flatMap((a) => a.findings)
          }
        />
        <CredentialForm
          key={`cred-${server.id}-${review.controls.credentials.length}`}
          editor={editor}
          review={review}
          server={server}
        />
      </section>
      <hr style={{ border: "none", borderTop: "1px solid var(--border)", width: "100%" }} />
      <section className="stack" aria-label={`Network egress of ${server.name}`}>
        <div className="row">
          <h4 style={{ margin: 0 }}>Network egress boundary</h4>
          {egress ? (
            <StatusBadge status={egress.status} />
          ) : (
            absent.some((a) => a.controlId === "egress") && <StatusBadge status="absent" />
          )}
          <span className="small muted">sits at the server&apos;s outbound traffic</span>
        </div>
        {egress && (
          <div className="small" data-testid={`egress-summary-${server.id}`}>
            <p style={{ margin: 0 }}>{egress.summary}</p>
            {egress.shape && (
              <p style={{ margin: 0 }}>
                Shape: <strong>{egress.shape.kind.replace(/_/g, " ")}</strong> —{" "}
                {egress.deniesUnlistedByConstruction
                  ? "a destination nobody listed is denied by construction"
                  : "a destination nobody listed is admitted"}
              </p>
            )}
            {egress.admitted.length > 0 && (
              <p style={{ margin: 0 }}>
                Admits:{" "}
                {egress.admitted.map((a) => (
                  <code
                    key={`${a.rule.path}`}
                  >{`${a.to.join(", ")} on ${a.ports.join(", ") || "all ports"} `}</code>
                ))}
              </p>
            )}
          </div>
        )}
        {egressEntry && (
          <StopsLeaves stops={egressEntry.stops} residue={egressEntry.residue} cuts={false} />
        )}
        <FindingList
          findings={
            egress?.findings ??
            absent.filter((a) => a.controlId === "egress").flatMap((a) => a.findings)
          }
        />
        <EgressForm key={`egress-${server.id}`} editor={editor} review={review} server={server} />
        <h4 style={{ margin: 0 }}>Would a fetch to this destination be allowed?</h4>
        {policyYaml.trim() === "" ? (
          <p className="callout warn small" style={{ margin: 0 }}>
            No egress policy is recorded for {server.name}: nothing recorded here restricts its
            outbound traffic.
          </p>
        ) : (
          <EgressQuery policyYaml={policyYaml} />
        )}
      </section>
    </article>
  );
}

export function ControlsSection(props: {
  editor: ReviewEditor;
  review: Review;
  analysis: Analysis | null;
  analysisError: string | null;
}) {
  const { editor, review, analysis } = props;
  const separation = analysis?.controls.separation;
  const separationEntry = CONTROL_CATALOG.find((c) => c.id === "separation");
  const approvalEntry = CONTROL_CATALOG.find((c) => c.id === "approval");
  const servers = review.servers.filter((s) => s.transport.kind !== "manual");
  return (
    <section className="stack" aria-labelledby="controls-heading">
      <div>
        <h2 id="controls-heading" style={{ marginBottom: 0 }}>
          Controls
        </h2>
        <p className="muted small" style={{ margin: 0 }}>
          Evaluated from machine-checkable configuration, never from prose. Only tool-set separation
          cuts the path itself; the others narrow its ends.
        </p>
      </div>
      {props.analysisError && (
        <div className="callout danger" role="alert">
          Could not evaluate the controls: {props.analysisError}
        </div>
      )}
      {analysis && (
        <div className="card" data-testid="residue-statement">
          <h3>What survives the controls present</h3>
          <p style={{ margin: 0 }}>{analysis.controls.residue.text}</p>
          {analysis.controls.residue.caveats.map((c) => (
            <p key={c} className="small muted" style={{ margin: 0 }}>
              {c}
            </p>
          ))}
        </div>
      )}
      <article className="card stack" aria-labelledby="separation-heading" data-testid="separation">
        <div className="row">
          <h3 id="separation-heading" style={{ margin: 0 }}>
            Tool-set separation
          </h3>
          {separation && <StatusBadge status={separation.status} />}
          <span className="small muted">sits at the agent session&apos;s composition</span>
        </div>
        {separation && (
          <p className="small" style={{ margin: 0 }}>
            {separation.summary}
          </p>
        )}
        {separationEntry && (
          <StopsLeaves stops={separationEntry.stops} residue={separationEntry.residue} cuts />
        )}
        {separation?.agents
          .filter((a) => a.holdsBoth)
          .map((a) => (
            <div key={a.agentId} className="callout danger small">
              <strong>{review.agents.find((x) => x.id === a.agentId)?.name ?? a.agentId}</strong>{" "}
              holds both <code>{a.returningTools.join(", ")}</code> and{" "}
              <code>{a.sinkTools.join(", ")}</code>.
              {a.split && (
                <>
                  {" "}
                  The split: <strong>{a.split.reference.name}</strong> (
                  {a.split.reference.tools.join(", ")}) and <strong>{a.split.deploy.name}</strong> (
                  {a.split.deploy.tools.join(", ")}); between them, {a.split.handoff.carries}. Apply
                  it from the Graph section.
                </>
              )}
            </div>
          ))}
        <FindingList findings={separation?.findings ?? []} />
      </article>
      {servers.map((s) => (
        <ServerControls key={s.id} editor={editor} review={review} server={s} analysis={analysis} />
      ))}
      <article className="card stack" aria-labelledby="approval-heading">
        <div className="row">
          <h3 id="approval-heading" style={{ margin: 0 }}>
            Approval on the sensitive path
          </h3>
          <span className="small muted">sits at the sink call</span>
        </div>
        {approvalEntry && (
          <StopsLeaves stops={approvalEntry.stops} residue={approvalEntry.residue} cuts={false} />
        )}
        {review.agents.map((agent) => {
          const evaluation = analysis?.controls.approvals.find((a) => a.scope.agentId === agent.id);
          const absent = analysis?.controls.absent.find(
            (a) =>
              a.controlId === "approval" &&
              a.scope.kind === "agent" &&
              a.scope.agentId === agent.id,
          );
          return (
            <section
              key={agent.id}
              className="stack"
              aria-label={`Approval in ${agent.name}`}
              data-testid={`approval-${agent.id}`}
            >
              <div className="row">
                <h4 style={{ margin: 0 }}>{agent.name}</h4>
                {evaluation ? (
                  <StatusBadge status={evaluation.status} />
                ) : (
                  absent && <StatusBadge status="absent" />
                )}
              </div>
              {evaluation && (
                <p className="small" style={{ margin: 0 }}>
                  {evaluation.promptsPerDay} prompts a day × {evaluation.medianSecondsToApprove} s
                  median ={" "}
                  <strong>{evaluation.attentionSecondsPerDay} s of human attention a day</strong>:{" "}
                  {evaluation.verdict}; habituation {evaluation.habituation}.
                </p>
              )}
              <FindingList findings={evaluation?.findings ?? absent?.findings ?? []} />
              <ApprovalForm
                key={`approval-${agent.id}-${agent.tools.length}`}
                editor={editor}
                review={review}
                agent={agent}
              />
            </section>
          );
        })}
      </article>
      <article className="card stack" aria-labelledby="intent-heading">
        <h3 id="intent-heading">Statements of intent</h3>
        <p className="small muted" style={{ margin: 0 }}>
          Prose is not a control: no process opens the document during a tool call.
        </p>
        <StatementsForm editor={editor} review={review} />
      </article>
      {analysis && analysis.controls.notControls.length > 0 && (
        <article className="card stack">
          <h3>Not controls</h3>
          <ul className="small" style={{ margin: 0 }}>
            {analysis.controls.notControls.map((n) => (
              <li key={n.id}>
                <strong>{n.name}</strong>: {n.reason}
              </li>
            ))}
          </ul>
        </article>
      )}
    </section>
  );
}

/** The Controls section with the server's analysis of the current revision. */
export function ControlsSectionLoader(props: {
  id: string;
  revision: number;
  editor: ReviewEditor;
  review: Review;
}) {
  const analysis = useQuery(analysisOptions(props.id, props.revision));
  return (
    <ControlsSection
      editor={props.editor}
      review={props.review}
      analysis={analysis.data ?? null}
      analysisError={analysis.isError ? analysis.error.message : null}
    />
  );
}
