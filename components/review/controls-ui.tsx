"use client";
/**
 * The UI side of the control registry, kept in one place: per control id, the parts of its section
 * in the Controls section that are its own (the details of its evaluation, its configuration form,
 * and anything after the form). Everything else a section shows (name, status, where it sits, what
 * it stops and leaves, findings) comes from the registry and the analysis, in controls-section.tsx.
 * Keyed by `ControlId`, so a control added to the registry does not typecheck until it has an
 * entry here.
 */
import { useMemo, useState, type ReactNode } from "react";
import { ApprovalForm, CredentialForm, EgressForm } from "@/components/review/controls-forms";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import type { ApprovalEvaluation } from "@/lib/controls/approval";
import type { EgressEvaluation } from "@/lib/controls/egress";
import { wouldAllow, type WouldAllowResult } from "@/lib/controls/egress/evaluate";
import {
  formatPolicyIssue,
  parseNetworkPolicies,
  PROTOCOLS,
  type Protocol,
} from "@/lib/controls/egress/policy";
import type { ControlId } from "@/lib/controls/registry";
import type { SeparationEvaluation } from "@/lib/controls/separation";
import type { ControlEvaluationBase } from "@/lib/controls/types";
import type { Agent, RelayServer, Review } from "@/lib/review/schema";

/** What a control's own parts are rendered with: the review, its editor, and the scope's subject. */
export type ControlUiProps = {
  editor: ReviewEditor;
  review: Review;
  /** The evaluation of this control at this scope; null when it is absent or not evaluated yet. */
  evaluation: ControlEvaluationBase | null;
  server?: RelayServer;
  agent?: Agent;
};

export type ControlUi = {
  /** The section's accessible name, and its test id, for a scope's subject (a server's or agent's name and id). */
  sectionLabel?: (name: string) => string;
  testId?: (id: string) => string;
  /** Before "Stops / Leaves": what the evaluation found (default: its summary). */
  details?: (props: ControlUiProps) => ReactNode;
  /** After "Stops / Leaves", before the findings. */
  afterStops?: (props: ControlUiProps) => ReactNode;
  /** The configuration form, after the findings. */
  form?: (props: ControlUiProps) => ReactNode;
  /** After the form. */
  afterForm?: (props: ControlUiProps) => ReactNode;
};

function Summary({ evaluation }: { evaluation: ControlEvaluationBase | null }) {
  if (!evaluation) return null;
  return (
    <p className="small" style={{ margin: 0 }}>
      {evaluation.summary}
    </p>
  );
}

export const defaultDetails = (props: ControlUiProps) => <Summary evaluation={props.evaluation} />;

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

function EgressDetails({
  egress,
  serverId,
}: {
  egress: EgressEvaluation | null;
  serverId: string;
}) {
  if (!egress) return null;
  return (
    <div className="small" data-testid={`egress-summary-${serverId}`}>
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
  );
}

/** Per registry id, the parts of its section that are the control's own. */
export const CONTROL_UI: Record<ControlId, ControlUi> = {
  credential: {
    sectionLabel: (name) => `Scoped credential of ${name}`,
    testId: (id) => `credential-${id}`,
    form: ({ editor, review, server }) =>
      server && (
        <CredentialForm
          key={`cred-${server.id}-${review.controls.credentials.length}`}
          editor={editor}
          review={review}
          server={server}
        />
      ),
  },
  egress: {
    sectionLabel: (name) => `Network egress of ${name}`,
    details: (p) =>
      p.server && (
        <EgressDetails egress={p.evaluation as EgressEvaluation | null} serverId={p.server.id} />
      ),
    form: ({ editor, review, server }) =>
      server && (
        <EgressForm key={`egress-${server.id}`} editor={editor} review={review} server={server} />
      ),
    afterForm: ({ review, server }) => {
      if (!server) return null;
      const policyYaml =
        review.controls.egress.find((e) => e.serverId === server.id)?.policyYaml ?? "";
      return (
        <>
          <h4 style={{ margin: 0 }}>Would a fetch to this destination be allowed?</h4>
          {policyYaml.trim() === "" ? (
            <p className="callout warn small" style={{ margin: 0 }}>
              No egress policy is recorded for {server.name}: nothing recorded here restricts its
              outbound traffic.
            </p>
          ) : (
            <EgressQuery policyYaml={policyYaml} />
          )}
        </>
      );
    },
  },
  separation: {
    testId: () => "separation",
    afterStops: ({ review, evaluation }) =>
      (evaluation as SeparationEvaluation | null)?.agents
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
        )),
  },
  approval: {
    sectionLabel: (name) => `Approval in ${name}`,
    testId: (id) => `approval-${id}`,
    details: ({ evaluation }) => {
      const e = evaluation as ApprovalEvaluation | null;
      return (
        e && (
          <p className="small" style={{ margin: 0 }}>
            {e.promptsPerDay} prompts a day × {e.medianSecondsToApprove} s median ={" "}
            <strong>{e.attentionSecondsPerDay} s of human attention a day</strong>: {e.verdict};
            habituation {e.habituation}.
          </p>
        )
      );
    },
    form: ({ editor, review, agent }) =>
      agent && (
        <ApprovalForm
          key={`approval-${agent.id}-${agent.tools.length}`}
          editor={editor}
          review={review}
          agent={agent}
        />
      ),
  },
};
