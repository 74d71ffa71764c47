/**
 * All controls of a review, evaluated from configuration over the shared analysis model, plus the
 * statements of intent (shown, never counted) and the composed residue. Detection flags are not an
 * input here at all: they are never a control (catalog.ts § NOT_CONTROLS).
 *
 * "Relay servers" are the servers with at least one tool returning untrusted text: those are the
 * servers whose token and outbound traffic the credential and egress controls are about, so a relay
 * server without them has the control "absent".
 */
import {
  findingId,
  nodeIds,
  splitToolKey,
  toolKey,
  type NodeId,
  type ToolKey,
} from "@/lib/model/ids";
import { why, type Finding } from "@/lib/model/findings";
import {
  agentHoldsBoth,
  agentSinkTools,
  serverName as modelServerName,
  type AnalysisModel,
} from "@/lib/model/model";
import { namesInProse, shownName } from "@/lib/model/prose";
import type { AgentId, ServerId } from "@/lib/ids";
import { evaluateApproval, type ApprovalEvaluation } from "./approval";
import { controlEntry, NOT_CONTROLS, type ControlId, type NotAControl } from "./catalog";
import { evaluateCredential, type CredentialEvaluation } from "./credential";
import { evaluateEgress, type EgressEvaluation } from "./egress";
import { statementsOfIntent, type StatementOfIntentView } from "./intent";
import { composeResidue, type ResidueStatement } from "./residue";
import { evaluateSeparation, type SeparationEvaluation } from "./separation";
import type { ControlEvaluationBase, ControlScope } from "./types";

export type AbsentControl = ControlEvaluationBase & { status: "absent"; reason: string };

export type ControlsEvaluation = {
  credentials: CredentialEvaluation[];
  egress: EgressEvaluation[];
  approvals: ApprovalEvaluation[];
  separation: SeparationEvaluation;
  /** Controls missing where they would sit. */
  absent: AbsentControl[];
  statementsOfIntent: StatementOfIntentView[];
  notControls: readonly NotAControl[];
  residue: ResidueStatement;
  /** Every control finding, in evaluation order. */
  findings: Finding[];
};

function absent(
  controlId: ControlId,
  scope: ControlScope,
  subject: Finding["subject"],
  key: string,
  reason: string,
  attachesTo: NodeId[],
): AbsentControl {
  const entry = controlEntry(controlId);
  return {
    controlId,
    scope,
    status: "absent",
    sitsAt: entry.sitsAt,
    cutsPath: false,
    stops: entry.stops,
    residue: entry.residue,
    summary: reason,
    reason,
    attachesTo,
    findings: [
      {
        id: findingId(`${controlId}.absent`, key),
        kind: `${controlId}.absent`,
        severity: "medium",
        title: `No ${entry.name.toLowerCase()} configured`,
        controlId,
        subject,
        why: why(reason),
        nodeIds: attachesTo,
        pathIds: [],
      },
    ],
  };
}

/** Evaluate every control of the review. */
export function evaluateControls(model: AnalysisModel): ControlsEvaluation {
  const { review } = model;
  // Per relay server, the graph nodes of its returning tools (the tools' own node ids, in key order).
  const returningByServer = new Map<ServerId, NodeId[]>();
  const all = model.toolsInOrder;
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    if (t.headNodes.length === 0) continue;
    const list = returningByServer.get(t.serverId);
    if (list) list.push(t.returningNodeId);
    else returningByServer.set(t.serverId, [t.returningNodeId]);
  }
  const relayServers = [...returningByServer.keys()].sort();
  const serverNodes = (id: ServerId) => returningByServer.get(id) ?? [];
  const serverName = (id: ServerId) => shownName(modelServerName(model, id));
  const agentName = (id: AgentId) => model.agents.find((a) => a.id === id)?.name ?? id;
  // A tool as a sentence names it: its name, and its server's name where it could be another's.
  const toolName = (key: ToolKey) => {
    const { serverId, tool } = splitToolKey(key);
    return `${shownName(tool)} on ${serverName(serverId)}`;
  };

  const credentials = review.controls.credentials.map((c, i) =>
    evaluateCredential(c, i, serverNodes(c.serverId)),
  );
  const egress = review.controls.egress.map((c, i) =>
    evaluateEgress(c, i, serverNodes(c.serverId)),
  );
  const separation = evaluateSeparation(model);

  const approvals: ApprovalEvaluation[] = [];
  const absentControls: AbsentControl[] = [];
  review.controls.approvals.forEach((config, i) => {
    const agent = model.agents.find((a) => a.id === config.agentId);
    const held = new Set(agent?.tools ?? []);
    const sinks = agent ? agentSinkTools(model, agent).map((t) => t.key) : [];
    const approved = config.tools
      .map((t) => toolKey(t.serverId, t.tool))
      .filter((k) => held.has(k));
    approvals.push(evaluateApproval(config, i, held, sinks, approved.map(nodeIds.sink), toolName));
  });

  for (const serverId of relayServers) {
    if (!review.controls.credentials.some((c) => c.serverId === serverId))
      absentControls.push(
        absent(
          "credential",
          { kind: "server", serverId },
          { serverId },
          serverId,
          `${serverName(serverId)} returns untrusted text and no credential configuration is recorded for it`,
          serverNodes(serverId),
        ),
      );
    if (!review.controls.egress.some((c) => c.serverId === serverId))
      absentControls.push(
        absent(
          "egress",
          { kind: "server", serverId },
          { serverId },
          serverId,
          `${serverName(serverId)} returns untrusted text and no egress policy is recorded for it`,
          serverNodes(serverId),
        ),
      );
  }
  let everySinkApproved = true;
  let anySink = false;
  for (const agent of model.agents) {
    const sinkTools = agentSinkTools(model, agent);
    const sinks = sinkTools.map((t) => t.key);
    if (sinks.length === 0) continue;
    anySink = true;
    const covered = new Set(
      review.controls.approvals
        .filter((a) => a.agentId === agent.id)
        .flatMap((a) => a.tools.map((t) => toolKey(t.serverId, t.tool))),
    );
    const uncovered = sinks.filter((s) => !covered.has(s));
    if (uncovered.length > 0) everySinkApproved = false;
    if (!review.controls.approvals.some((a) => a.agentId === agent.id))
      absentControls.push(
        absent(
          "approval",
          { kind: "agent", agentId: agent.id },
          { agentId: agent.id },
          agent.id,
          `${agent.name} holds sensitive sinks (${namesInProse(sinkTools.map((t) => t.name))}) and no approval is configured for it`,
          sinks.map(nodeIds.sink),
        ),
      );
  }

  const holdsFor = (list: readonly { scope: ControlScope; status: string }[], serverId: ServerId) =>
    list.some(
      (e) => e.scope.kind === "server" && e.scope.serverId === serverId && e.status === "holds",
    );
  const credentialPresent =
    relayServers.length > 0 && relayServers.every((s) => holdsFor(credentials, s));
  const egressPresent = relayServers.length > 0 && relayServers.every((s) => holdsFor(egress, s));
  const sinksSharingASession = model.agents
    .filter(agentHoldsBoth)
    .flatMap((a) => a.sinks.map((t) => t.name));
  const approvalPresent = anySink && everySinkApproved;
  const caveats = [
    ...approvals
      .filter((a) => a.status !== "holds")
      .map((a) => `approval for ${agentName(a.scope.agentId)}: ${a.summary}`),
    ...credentials
      .filter((c) => c.status !== "holds")
      .map((c) => `credential for ${serverName(c.scope.serverId)}: ${c.summary}`),
    ...egress
      .filter((e) => e.status !== "holds")
      .map((e) => `egress for ${serverName(e.scope.serverId)}: ${e.summary}`),
  ];
  const residue = composeResidue({
    credentialPresent,
    egressPresent,
    separationInPlace: separation.inPlace,
    sinksSharingASession,
    approvalPresent,
    caveats,
  });

  const findings = [
    ...credentials.flatMap((c) => c.findings),
    ...egress.flatMap((e) => e.findings),
    ...separation.findings,
    ...approvals.flatMap((a) => a.findings),
    ...absentControls.flatMap((a) => a.findings),
  ];
  return {
    credentials,
    egress,
    approvals,
    separation,
    absent: absentControls,
    statementsOfIntent: statementsOfIntent(review.controls.statementsOfIntent),
    notControls: NOT_CONTROLS,
    residue,
    findings,
  };
}
