/**
 * The SARIF rules: one per finding kind the analysis, the controls or the surface scan can raise,
 * as data. A rule's id is the finding kind itself (`path.to_sensitive_sink`,
 * `credential.scope_write`, `surface.flag.hidden_unicode`): the kinds are already the stable part
 * of every finding id (lib/analysis/ids.ts `findingId`), so a rule id never changes with a title's
 * wording. A control's rules cite the control catalog (lib/controls/catalog.ts) and the seed
 * passage it comes from; the surface flags cite `NOT_CONTROLS`, since detection is not a control.
 * A kind missing here still exports, under a generic rule (`sarifRuleFor`), and a test fails.
 */
import type { Severity } from "@/lib/analysis/findings";
import type { ControlId } from "@/lib/controls/catalog";
import { SUSPICIOUS_KINDS, type SuspiciousKind } from "@/lib/surface/suspicious";

export type SarifRuleSpec = {
  /** The finding kind, and the SARIF rule id. */
  id: string;
  /** PascalCase, as SARIF's `reportingDescriptor.name` wants it. */
  name: string;
  /** The severity most findings of the kind carry; each result carries its own. */
  severity: Severity;
  short: string;
  help: string;
  /** The control the kind is about (its catalog entry is cited), or a thing that is not a control. */
  control?: ControlId;
  notAControl?: "detection_flags";
};

const UNION =
  "Once tools share an agent session, text returned by any of them can reach every tool in it, whichever server each came from (union property).";

/** Path analysis: what the graph of writers, sources, returning tools, agents and sinks shows. */
const ANALYSIS_RULES: SarifRuleSpec[] = [
  {
    id: "path.to_sensitive_sink",
    name: "PathToSensitiveSink",
    severity: "high",
    short: "Text written outside the trust boundary can reach a sensitive sink",
    help: `An agent holds a tool that returns text from a source others may write into, and in the same session a sensitive sink (writes, deploys or destroys, reaches the network or shares). ${UNION} Critical when the writers are unbounded (everyone with an email address, anyone with a web server). Only tool-set separation cuts the path: move the sinks into an agent that holds no returning tool, with a person carrying the value between them.`,
  },
  {
    id: "agent.lethal_trifecta",
    name: "LethalTrifecta",
    severity: "critical",
    short: "An agent holds untrusted input, private data and outbound communication",
    help: `One session holds all three legs of the lethal trifecta: a tool returning untrusted text, a tool reading private data, and a tool that communicates outward. ${UNION} Remove one leg from the session.`,
  },
  {
    id: "agent.rule_of_two",
    name: "RuleOfTwo",
    severity: "high",
    short: "An agent has more than two of the Rule of Two's properties",
    help: "An agent should hold at most two of: untrusted input, sensitive data or systems, state change, outbound communication. Split the agent until each session has two or fewer.",
  },
  {
    id: "roles.unconfirmed",
    name: "UnconfirmedRoles",
    severity: "medium",
    short: "The analysis of an agent rests on suggested tool roles",
    help: "Roles were suggested from names, descriptions and annotations (server-authored claims), not confirmed by a reviewer. A missed sink hides a path; confirm each tool's role in the tool assessment.",
  },
  {
    id: "tools.not_listed",
    name: "ToolsNotListed",
    severity: "low",
    short: "An agent holds tools its server does not list",
    help: "The agent's tool set names tools that are not in the server's inspected or declared tool list; their roles come from their names alone. Inspect the server again or correct the tool set.",
  },
  {
    id: "tools.unmapped_sources",
    name: "UnmappedSources",
    severity: "medium",
    short: "Items return text from no mapped source",
    help: "These tools or resources return text but no input source is mapped to them, so their writers are unknown and counted as outside the boundary. Map each to the sources whose text it returns and enter who may write into them.",
  },
  {
    id: "tools.annotation_contradicts_name",
    name: "AnnotationContradictsName",
    severity: "medium",
    short: "A tool's annotation claim contradicts its name",
    help: "Annotations (readOnlyHint, destructiveHint, openWorldHint) are the server's claims. A claim its name contradicts misleads any client that trusts it (auto-approving read-only tools, say); the analysis keeps the safer reading.",
  },
  {
    id: "server.blocked",
    name: "ServerBlocked",
    severity: "high",
    short: "A server's live surface differs from its pin",
    help: 'The current inspection differs from the pinned fingerprint under on_surface_change "block". No decision, export or gate may rest on it until a reviewer reads the change and re-pins with a reason.',
  },
  {
    id: "surface.mentions_held_tool",
    name: "DescriptionMentionsHeldTool",
    severity: "medium",
    short: "A description names another tool the agent holds",
    help: "A description is server-authored text the model reads as guidance; naming another tool of the session, on another server especially, can steer calls to it. This is a flag on where to look, not a control.",
    notAControl: "detection_flags",
  },
  {
    id: "surface.shadowing",
    name: "Shadowing",
    severity: "medium",
    short: "Items of one kind named alike in one agent session",
    help: "Two tools, resources or prompts whose names are equal once case is folded, Unicode is normalised (NFKC) and hidden characters are removed. A client may call the wrong one, and a description on one can redirect calls meant for the other.",
    notAControl: "detection_flags",
  },
];

const absent = (control: ControlId, name: string, what: string): SarifRuleSpec => ({
  id: `${control}.absent`,
  name: `No${name}`,
  severity: "medium",
  short: `No ${what} is configured`,
  help: `The control would sit here and nothing is recorded for it. Enter its configuration in Controls; a statement of intent in a document does not count.`,
  control,
});

const credential = (
  kind: string,
  name: string,
  severity: Severity,
  short: string,
  help: string,
): SarifRuleSpec => ({
  id: `credential.${kind}`,
  name: `Credential${name}`,
  severity,
  short,
  help,
  control: "credential",
});

const egress = (kind: string, name: string, short: string, help: string): SarifRuleSpec => ({
  id: `egress.${kind}`,
  name: `Egress${name}`,
  severity: kind === "cannot_evaluate" ? "medium" : "high",
  short,
  help,
  control: "egress",
});

const approval = (
  kind: string,
  name: string,
  severity: Severity,
  short: string,
  help: string,
): SarifRuleSpec => ({
  id: `approval.${kind}`,
  name: `Approval${name}`,
  severity,
  short,
  help,
  control: "approval",
});

/** The four controls, evaluated from configuration (lib/controls). */
const CONTROL_RULES: SarifRuleSpec[] = [
  {
    id: "separation.holds_both",
    name: "SeparationHoldsBoth",
    severity: "high",
    short: "An agent holds both returning tools and sensitive sinks",
    help: "Tool-set separation is not in place: the session that reads untrusted text can also call the sinks. Split the agent into one that reads and summarises and one that acts, with a person retyping the value between them.",
    control: "separation",
  },
  absent("credential", "ScopedCredential", "scoped credential"),
  absent("egress", "EgressBoundary", "network egress boundary"),
  absent("approval", "Approval", "approval on the sensitive path"),
  credential(
    "scope_admin",
    "ScopeAdmin",
    "critical",
    "The server's token has an administrative scope",
    "An administrative scope lets a compromised server do far more than read. Issue a read-only, project-scoped token.",
  ),
  credential(
    "scope_write",
    "ScopeWrite",
    "high",
    "The server's token can write",
    "A write scope is not needed to return text. Issue a read-only token.",
  ),
  credential(
    "scope_wildcard",
    "ScopeWildcard",
    "high",
    "The server's token has a wildcard scope",
    "A wildcard scope grants whatever the resource server adds to it later. Name the read scopes the server needs.",
  ),
  credential(
    "scope_not_read_only",
    "ScopeNotReadOnly",
    "high",
    "The server's token has a scope that is not read-only",
    "Only read:… scopes count as read-only. Replace the others.",
  ),
  credential(
    "scope_private_read",
    "ScopePrivateRead",
    "medium",
    "The server's token reads people's accounts",
    "read:user reads people, not the content the server serves. Drop it.",
  ),
  credential(
    "no_scopes",
    "NoScopes",
    "medium",
    "No scopes are recorded for the server's token",
    "Without the scopes, the token's reach cannot be checked. Record them.",
  ),
  credential(
    "sensitive_project",
    "SensitiveProject",
    "high",
    "The server's token is granted a sensitive project",
    "A project listed as sensitive is granted to the token. Exclude it.",
  ),
  credential(
    "no_projects",
    "NoProjects",
    "medium",
    "The server's token is not scoped to named projects",
    "With no projects named, the token may read every project, the sensitive ones included. Name them.",
  ),
  credential(
    "person_identity",
    "PersonIdentity",
    "high",
    "The server's token belongs to a person",
    "A person's token carries everything that person may do, and leaves with them. Issue it to a service identity.",
  ),
  credential(
    "unknown_identity",
    "UnknownIdentity",
    "low",
    "The identity holding the server's token is not recorded",
    "Record whether the token belongs to a service identity or a person.",
  ),
  credential(
    "no_expiry",
    "NoExpiry",
    "high",
    "The server's token never expires",
    "A leaked token without a TTL stays valid indefinitely. Give it a bounded TTL.",
  ),
  credential(
    "long_ttl",
    "LongTtl",
    "medium",
    "The server's token lives longer than the bound",
    "A TTL above the bound is not counted as bounded. Shorten it.",
  ),
  credential(
    "no_rotation",
    "NoRotation",
    "medium",
    "The server's token is not rotated",
    "No rotation is recorded. Rotate the token on a schedule.",
  ),
  egress(
    "cannot_evaluate",
    "CannotEvaluate",
    "The server's egress policy cannot be evaluated",
    "The recorded NetworkPolicy does not parse or validate, so what it admits is unknown. Fix the policy text.",
  ),
  egress(
    "denylist",
    "Denylist",
    "The server's egress policy is a denylist",
    "A denylist admits every destination nobody thought of, a new fetch feature's included. Make it default-deny with the destinations the server needs.",
  ),
  egress(
    "default_allow",
    "DefaultAllow",
    "The server's egress policy has a default-allow rule",
    "A default-allow rule admits any destination. Make the policy default-deny with the destinations the server needs.",
  ),
  egress(
    "not_restricting",
    "NotRestricting",
    "The server's egress policy does not restrict egress",
    "The policy selects no egress to restrict. Make it default-deny with the destinations the server needs.",
  ),
  approval(
    "in_band",
    "InBand",
    "high",
    "The approval prompt is in band of the agent",
    "A prompt inside the agent's own channel can be answered by text in its context. Move it out of band.",
  ),
  approval(
    "unresolved_arguments",
    "UnresolvedArguments",
    "high",
    "The approval does not show resolved arguments",
    "The approver sees the model's description of the call, not its final argument values. Show the resolved arguments.",
  ),
  approval(
    "not_rare",
    "NotRare",
    "medium",
    "The approval fires too often to stay a review",
    "Habituation grows with frequency: a frequent prompt is approved without reading. Narrow what needs approval.",
  ),
  approval(
    "click_not_review",
    "ClickNotReview",
    "high",
    "The approval is a click, not a review",
    "Prompts per day × median seconds to approve is the human attention spent a day; below the minimum per prompt, nobody reads the arguments.",
  ),
  approval(
    "tool_not_held",
    "ToolNotHeld",
    "low",
    "The approval names a tool the agent does not hold",
    "The approval configuration covers a tool outside the agent's tool set. Correct it.",
  ),
  approval(
    "sink_unapproved",
    "SinkUnapproved",
    "medium",
    "A sensitive sink the agent holds needs no approval",
    "The agent holds this sink and the approval configuration does not cover it.",
  ),
];

const FLAG_WORDS: Record<SuspiciousKind, [string, Severity, string, string]> = {
  hidden_unicode: [
    "HiddenUnicode",
    "medium",
    "Server-authored text carries hidden characters",
    "Zero-width, bidirectional-control, tag-block or other invisible characters in a name, description or schema: the model reads them, a person does not see them. Shown revealed as ⟦U+…⟧.",
  ],
  ansi_escape: [
    "AnsiEscape",
    "medium",
    "Server-authored text carries ANSI escape sequences",
    "Terminal escape sequences can hide or rewrite what a person sees in a terminal. Shown revealed as ⟦ANSI …⟧.",
  ],
  markup: [
    "Markup",
    "low",
    "Server-authored text carries markup",
    "HTML or similar markup in a description, which a client may render.",
  ],
  instruction_phrase: [
    "InstructionPhrase",
    "medium",
    "Server-authored text reads like an instruction to the model",
    "Phrasing such as “ignore previous instructions” in text the model reads as guidance.",
  ],
  concealment_phrase: [
    "ConcealmentPhrase",
    "medium",
    "Server-authored text asks to conceal something from the user",
    "Phrasing such as “do not tell the user” in text the model reads as guidance.",
  ],
  tool_mention: [
    "ToolMention",
    "low",
    "A description names another tool of the same server",
    "Naming another tool can steer the model's calls to it.",
  ],
};

/** The surface scan's flags (lib/surface/suspicious.ts): where to look, never a mitigation. */
const FLAG_RULES: SarifRuleSpec[] = SUSPICIOUS_KINDS.map((kind) => {
  const [name, severity, short, help] = FLAG_WORDS[kind];
  return {
    id: `surface.flag.${kind}`,
    name: `SurfaceFlag${name}`,
    severity,
    short,
    help: `${help} Detection is not a control: a clean scan is no evidence of a clean server.`,
    notAControl: "detection_flags",
  };
});

export const SARIF_RULES: readonly SarifRuleSpec[] = [
  ...ANALYSIS_RULES,
  ...CONTROL_RULES,
  ...FLAG_RULES,
];

/** The rule id of a surface flag's kind. */
export const flagRuleId = (kind: SuspiciousKind) => `surface.flag.${kind}`;

const BY_ID = new Map(SARIF_RULES.map((r) => [r.id, r]));

/** The rule for a finding kind; a kind this table does not know gets a generic rule (a test keeps that from happening). */
export function sarifRuleFor(kind: string): { spec: SarifRuleSpec; isKnown: boolean } {
  const spec = BY_ID.get(kind);
  if (spec) return { spec, isKnown: true };
  const control = kind.split(".")[0];
  return {
    spec: {
      id: kind,
      name: "RelayReviewFinding",
      severity: "medium",
      short: "A Relay Review finding",
      help: "A finding of a kind this export has no description for; its message says what it found.",
      ...(control === "credential" ||
      control === "egress" ||
      control === "approval" ||
      control === "separation"
        ? { control }
        : {}),
    },
    isKnown: false,
  };
}
