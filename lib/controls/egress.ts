/**
 * The network-egress control for one server, evaluated from its NetworkPolicy YAML. It sits at the
 * server's outbound traffic and stops the exfiltration half of an attack and new fetch features
 * (a new destination is denied by construction only by an allowlist); it leaves the payloads
 * already sitting in the sources. A malformed policy is "cannot_evaluate", with line and column.
 */
import { findingId, type NodeId } from "@/lib/model/ids";
import { why, type Finding } from "@/lib/model/findings";
import type { ServerId } from "@/lib/ids";
import type { EgressConfig } from "@/lib/review/schema";
import { CONTROLS_SECTION, SEED_DOCUMENT, type ControlCatalogEntry } from "./catalog";
import {
  admittedDestinations,
  classifyEgress,
  wouldAllow,
  type AdmittedDestination,
  type EgressShape,
  type WouldAllowResult,
} from "./egress/evaluate";
import { formatPolicyIssue, parseNetworkPolicies, type PolicyIssue } from "./egress/policy";
import {
  absentRule,
  type ControlEvaluationBase,
  type ControlFindingRule,
  defineControl,
  perRelayServer,
} from "./types";

export const EGRESS_ENTRY = {
  id: "egress",
  name: "Network egress boundary",
  sitsAt: "server_egress",
  acts: "source_end",
  canCutPath: false,
  stops: "the exfiltration half of an attack, and new fetch features",
  residue: "payloads already sitting in the sources",
  source: {
    document: SEED_DOCUMENT,
    section: CONTROLS_SECTION,
    quote:
      "The network boundary matters more than it looks, because it is what stops the second half of most attacks",
  },
} as const satisfies ControlCatalogEntry;

/**
 * The destination used to ask "would a new external fetch get out?": an address outside every
 * private range (example.com's long-standing address) on HTTPS, the port a new fetch feature uses.
 */
export const NEW_EXTERNAL_FETCH_PROBE = {
  ip: "93.184.216.34",
  port: 443,
  protocol: "TCP",
} as const;

export type EgressEvaluation = ControlEvaluationBase & {
  controlId: "egress";
  scope: { kind: "server"; serverId: ServerId };
  shape: EgressShape | null;
  deniesUnlistedByConstruction: boolean;
  admitted: AdmittedDestination[];
  newExternalFetch: WouldAllowResult | null;
  issues: PolicyIssue[];
  notes: string[];
};

/** Evaluate the egress policy configured for one server. */
export function evaluateEgress(
  config: EgressConfig,
  index: number,
  attachesTo: NodeId[] = [],
): EgressEvaluation {
  const entry = EGRESS_ENTRY;
  const base = {
    controlId: "egress" as const,
    scope: { kind: "server" as const, serverId: config.serverId },
    sitsAt: entry.sitsAt,
    cutsPath: false,
    stops: entry.stops,
    residue: entry.residue,
    attachesTo,
  };
  const field = `controls.egress.${index}.policyYaml`;
  const parsed = parseNetworkPolicies(config.policyYaml);
  if (!parsed.ok) {
    const findings: Finding[] = [
      {
        id: findingId("egress.cannot_evaluate", config.serverId),
        kind: "egress.cannot_evaluate",
        severity: "medium",
        title: "Egress policy cannot be evaluated",
        controlId: "egress",
        subject: { serverId: config.serverId },
        why: why(
          `the policy does not parse or validate: ${parsed.issues.map(formatPolicyIssue).join("; ")}`,
          {
            config: parsed.issues.map((i) => ({
              path: `${field} ${i.path}`,
              value: i.message,
              line: i.line,
              column: i.column,
            })),
          },
        ),
        nodeIds: [],
        pathIds: [],
      },
    ];
    return {
      ...base,
      status: "cannot_evaluate",
      summary: `the policy cannot be evaluated: ${parsed.issues.length} problem(s), first at ${parsed.issues[0] ? formatPolicyIssue(parsed.issues[0]) : "?"}`,
      findings,
      shape: null,
      deniesUnlistedByConstruction: false,
      admitted: [],
      newExternalFetch: null,
      issues: parsed.issues,
      notes: parsed.notes,
    };
  }
  const shape = classifyEgress(parsed.policies);
  const admitted = admittedDestinations(parsed.policies);
  const probe = wouldAllow(parsed.policies, NEW_EXTERNAL_FETCH_PROBE);
  const findings: Finding[] = [];
  if (!shape.deniesUnlistedByConstruction) {
    findings.push({
      id: findingId(`egress.${shape.kind}`, config.serverId),
      kind: `egress.${shape.kind}`,
      severity: "high",
      title:
        shape.kind === "denylist"
          ? "Egress is a denylist: it admits any destination nobody thought of"
          : shape.kind === "default_allow"
            ? "Egress has a default-allow rule"
            : "The policy does not restrict egress",
      controlId: "egress",
      subject: { serverId: config.serverId },
      why: why(
        `${shape.reason}; a new external fetch (${probe.destination}) would be ${probe.outcome}`,
        {
          config: shape.rules.map((r) => ({
            path: `${field} ${r.path}`,
            value: `${r.policy} rule ${r.ruleIndex}`,
            line: r.line,
            column: r.column,
          })),
        },
      ),
      nodeIds: [],
      pathIds: [],
    });
  }
  const summary = shape.deniesUnlistedByConstruction
    ? `allowlist: admits ${admitted.length ? admitted.map((a) => `${a.to.join(" | ")} on ${a.ports.join(", ")}`).join("; ") : "nothing"}; everything else, a new external fetch included, is denied`
    : `${shape.kind.replace("_", "-")}: ${shape.reason}`;
  return {
    ...base,
    status: shape.deniesUnlistedByConstruction ? "holds" : "fails",
    summary,
    findings,
    shape,
    deniesUnlistedByConstruction: shape.deniesUnlistedByConstruction,
    admitted,
    newExternalFetch: probe,
    issues: [],
    notes: parsed.notes,
  };
}

/**
 * Whether the server's egress policy denies a destination nobody listed: true for an allowlist,
 * false for a denylist or default-allow, null when the policy cannot be evaluated. What the
 * decision condition `egress_default_deny` checks.
 */
export function egressDefaultDeny(policyYaml: string): boolean | null {
  const parsed = parseNetworkPolicies(policyYaml);
  if (!parsed.ok) return null;
  return classifyEgress(parsed.policies).deniesUnlistedByConstruction;
}

/** Its finding kinds, as the SARIF export describes them. */
const EGRESS_FINDING_RULES: readonly ControlFindingRule[] = [
  absentRule("EgressBoundary", "network egress boundary"),
  {
    kind: "cannot_evaluate",
    name: "EgressCannotEvaluate",
    severity: "medium",
    short: "The server's egress policy cannot be evaluated",
    help: "The recorded NetworkPolicy does not parse or validate, so what it admits is unknown. Fix the policy text.",
  },
  {
    kind: "denylist",
    name: "EgressDenylist",
    severity: "high",
    short: "The server's egress policy is a denylist",
    help: "A denylist admits every destination nobody thought of, a new fetch feature's included. Make it default-deny with the destinations the server needs.",
  },
  {
    kind: "default_allow",
    name: "EgressDefaultAllow",
    severity: "high",
    short: "The server's egress policy has a default-allow rule",
    help: "A default-allow rule admits any destination. Make the policy default-deny with the destinations the server needs.",
  },
  {
    kind: "not_restricting",
    name: "EgressNotRestricting",
    severity: "high",
    short: "The server's egress policy does not restrict egress",
    help: "The policy selects no egress to restrict. Make it default-deny with the destinations the server needs.",
  },
];

/**
 * The egress control in the registry: one evaluation per recorded policy, "absent" on a relay
 * server with none, present in the residue when every relay server's policy is an allowlist.
 */
export const egressControl = defineControl({
  entry: EGRESS_ENTRY,
  scope: "server",
  output: { key: "egress", single: false },
  config: {
    key: "egress",
    withoutServer: (c: EgressConfig, serverId) => (c.serverId === serverId ? null : c),
    withoutAgent: (c: EgressConfig) => c,
    revisionItem: {
      key: (c: EgressConfig) => `egress:${c.serverId}`,
      label: (c: EgressConfig, names) => `Egress policy of ${names.server(c.serverId)}`,
    },
  },
  evaluate: (ctx) =>
    ctx.model.review.controls.egress.map((c, i) =>
      evaluateEgress(c, i, ctx.serverNodes(c.serverId)),
    ),
  ...perRelayServer((ctx) => ctx.model.review.controls.egress, "egress policy"),
  // The payload's end of the sentence: with the credential present too, this one clause is both's.
  residue: (isPresent) =>
    isPresent("egress")
      ? [
          {
            at: 0,
            controlIds: isPresent("credential") ? ["credential", "egress"] : ["egress"],
            present: true,
            text: "a payload already in the source",
          },
        ]
      : isPresent("credential")
        ? [
            {
              at: 1,
              controlIds: [],
              present: false,
              text: "or on any host the server can fetch from, with a way out to any host",
            },
          ]
        : [
            {
              at: 0,
              controlIds: [],
              present: false,
              text: "a payload in the source or on any host the server can fetch from, with a way out to any host",
            },
          ],
  caveat: (e, ctx) => `egress for ${ctx.serverName(e.scope.serverId)}: ${e.summary}`,
  // The exact YAML text: a whitespace or comment edit counts as a change (docs/decision-record.md).
  binding: {
    key: "egress",
    select: (review, serverId) =>
      review.controls.egress
        .filter((e) => e.serverId === serverId)
        .map((e) => ({ policyYaml: e.policyYaml })),
  },
  conditions: [{ kind: "egress_default_deny", on: "server" }],
  findingRules: EGRESS_FINDING_RULES,
  graph: { kind: "server_group" },
});
