/**
 * The SARIF rules: one per finding kind the analysis, the controls or the surface scan can raise,
 * as data. A rule's id is the finding kind itself (`path.to_sensitive_sink`,
 * `credential.scope_write`, `surface.flag.hidden_unicode`): the kinds are already the stable part
 * of every finding id (lib/analysis/ids.ts `findingId`), so a rule id never changes with a title's
 * wording. A control's rules cite the control catalog (lib/controls/catalog.ts) and the seed
 * passage it comes from, and each control module lists its own kinds (`findingRules`); the surface
 * flags cite `NOT_CONTROLS`, since detection is not a control.
 * A kind missing here still exports, under a generic rule (`sarifRuleFor`), and a test fails.
 */
import type { Severity } from "@/lib/model/findings";
import { CONTROL_IDS, CONTROLS, type ControlId } from "@/lib/controls/registry";
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
    id: "surface.header_mirrors_sensitive_argument",
    name: "HeaderMirrorsSensitiveArgument",
    severity: "medium",
    short: "A tool copies a sensitive-looking argument into an HTTP header",
    help: "The tool's input schema marks an argument x-mcp-header (protocol 2026-07-28), so the client sends its value as an Mcp-Param-* request header. Proxies, load balancers and access logs record headers; a secret or personal value there leaves the protection the request body gets.",
    notAControl: "detection_flags",
  },
  {
    id: "surface.shared_cache_public",
    name: "SharedCacheAcrossCredentials",
    severity: "high",
    short: "A list that differs between credentials is declared cacheScope public",
    help: "The server lists different tools, resources or prompts under two credentials, yet declares the list cacheScope \"public\" (protocol 2026-07-28). A shared cache (a proxy, a CDN, a gateway) may then serve one credential's list to a client holding another: tools only an administrator should see reach every client, and tools a user should see are hidden. Each credential's surface is reviewed and pinned on its own; such a list must not be declared public.",
  },
  {
    id: "apps.connect_domain_not_admitted",
    name: "AppConnectDomainNotAdmitted",
    severity: "high",
    short: "An MCP App's UI connects to a domain the egress policy does not admit",
    help: "A ui:// resource's CSP declares connectDomains: where the rendered UI may send data (fetch, XHR, WebSocket). The UI runs in the user's host, outside the server's pod, so the server's egress policy does not bound it; a domain the policy does not admit is egress the review did not approve.",
    control: "egress",
  },
  {
    id: "apps.resource_domain_not_admitted",
    name: "AppResourceDomainNotAdmitted",
    severity: "high",
    short: "An MCP App's UI loads scripts or media from a domain the egress policy does not admit",
    help: "A ui:// resource's CSP declares resourceDomains: where the rendered UI may load scripts, styles, images and fonts from. A script from there runs with the UI's authority (it can call the server's tools, app-only ones included), and each load carries what the UI puts in its URL to that domain.",
    control: "egress",
  },
  {
    id: "apps.frame_domain_not_admitted",
    name: "AppFrameDomainNotAdmitted",
    severity: "high",
    short: "An MCP App's UI frames a domain the egress policy does not admit",
    help: "A ui:// resource's CSP declares frameDomains: origins the rendered UI may embed. A framed page runs under its own origin's policy, not the UI's declared CSP, so it may load and send anything, and shows what its operator serves inside the user's host.",
    control: "egress",
  },
  {
    id: "apps.app_only_tool_outside_tool_set",
    name: "AppOnlyToolOutsideToolSet",
    severity: "medium",
    short: "An agent renders a UI whose app-only tools are not in its tool set",
    help: "An app-only tool (visibility without \"model\") is called by the server's UI without the model. An agent that renders the UI holds those tools in effect, so the decision must name them to review them; the gate refuses a tool outside the tool set, and the UI's call fails.",
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

/** The controls' finding kinds, as each control module lists them, in registry order. */
const CONTROL_RULES: SarifRuleSpec[] = CONTROLS.flatMap((c) =>
  c.findingRules.map((r) => ({
    id: `${c.entry.id}.${r.kind}`,
    name: r.name,
    severity: r.severity,
    short: r.short,
    help: r.help,
    control: c.entry.id,
  })),
);

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
      ...(CONTROL_IDS.find((id) => id === control) ? { control: control as ControlId } : {}),
    },
    isKnown: false,
  };
}
