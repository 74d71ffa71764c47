/**
 * The common shape of a control: its evaluation (computed from configuration only, never from
 * prose; `status` is a value, including the expected outcomes "absent" and "cannot_evaluate" with a
 * reason), and the definition a control module exports to the registry (registry.ts), which is
 * everything the analysis, the decision binding, the graph and the UI need to know about it.
 * How to add a control: docs/controls.md.
 */
import type { Finding, Severity } from "@/lib/model/findings";
import type { NodeId, ToolKey } from "@/lib/model/ids";
import type { AnalysisModel, ResolvedAgent } from "@/lib/model/model";
import type { AgentId, ServerId } from "@/lib/ids";
import type { Controls, Review } from "@/lib/review/schema";
import type { ControlCatalogEntry, ControlPosition } from "./catalog";

export type ControlStatus =
  /** Configured, and the configuration meets the control's conditions. */
  | "holds"
  /** Configured, and some condition fails (see findings). */
  | "fails"
  /** Not configured where it would sit. */
  | "absent"
  /** Configured, but the configuration cannot be read (e.g. malformed policy YAML). */
  | "cannot_evaluate";

export type ControlScope =
  { kind: "server"; serverId: ServerId } | { kind: "agent"; agentId: AgentId } | { kind: "review" };

export type ControlEvaluationBase = {
  /** A registry id (registry.ts). */
  controlId: string;
  scope: ControlScope;
  status: ControlStatus;
  sitsAt: ControlPosition;
  /** Whether this control, as configured, removes the source-to-sink path. Only separation can. */
  cutsPath: boolean;
  stops: string;
  residue: string;
  /** One sentence for the UI. */
  summary: string;
  findings: Finding[];
  /** Graph nodes the control is drawn on. */
  attachesTo: NodeId[];
};

/** What every control's evaluation reads besides the review: the resolved model and names for prose. */
export type ControlContext = {
  model: AnalysisModel;
  /** Servers with at least one tool returning untrusted text, sorted: the servers a server-scoped control is about. */
  relayServers: readonly ServerId[];
  /** The graph nodes of a relay server's returning tools (empty for any other server). */
  serverNodes: (serverId: ServerId) => NodeId[];
  /** Names as a sentence shows them (hidden characters revealed). */
  serverName: (serverId: ServerId) => string;
  agentName: (agentId: AgentId) => string;
  /** "tool on server". */
  toolName: (key: ToolKey) => string;
};

/** A place where the control would sit and no configuration of it is recorded. */
export type MissingControl = {
  scope: Exclude<ControlScope, { kind: "review" }>;
  subject: Finding["subject"];
  /** The finding id's subject part. */
  key: string;
  reason: string;
  attachesTo: NodeId[];
};

/**
 * One clause of the composed residue. `at` is its place in the sentence: 0 the payload and where
 * it sits, 1 what guards the server, 2 the session, 3 the sink call; clauses at one place keep the
 * registry's order.
 */
export type PlacedResidueClause = {
  at: number;
  controlIds: string[];
  present: boolean;
  text: string;
};

/** The review field a control's configurations live in, and what each configuration is attached to. */
export type ControlConfigSlot<C> = {
  /** A key of the review's `controls` (lib/review/schema.ts ControlsSchema). */
  key: Exclude<keyof Controls, "statementsOfIntent">;
  /**
   * The configuration without a removed server's references, or null to drop it (a server's
   * credential goes with the server; an approval only loses that server's tools).
   */
  withoutServer: (config: C, serverId: ServerId) => C | null;
  /** The same for a removed agent. */
  withoutAgent: (config: C, agentId: AgentId) => C | null;
  /**
   * The configuration after its agent was split (split.ts `applySplit`): the reference agent
   * keeps the agent's id and its returning tools, the deploy agent gets its sinks. Absent: the
   * configuration stays with the reference agent.
   */
  afterSplit?: (config: C, agentId: AgentId, deployAgentId: AgentId) => C;
  /** The configuration as an item of the revision diff (lib/reviews/revision-diff.ts). */
  revisionItem: {
    /** Its identity across revisions, unique among the review's configurations: `credential:<server>`. */
    key: (config: C) => string;
    /** A person's name for it: `Credential of <server name>`. */
    label: (config: C, names: ConfigNames) => string;
  };
};

/** Server and agent names by id, as they stand in the revision a configuration belongs to. */
export type ConfigNames = { server: (id: string) => string; agent: (id: string) => string };

/**
 * A finding kind a control raises, described for the SARIF export (lib/exports/sarif-rules.ts),
 * whose rule id is `<control id>.<kind>`: the stable part of every finding id it raises.
 */
export type ControlFindingRule = {
  kind: string;
  /** PascalCase, as SARIF's `reportingDescriptor.name` wants it. */
  name: string;
  /** The severity most findings of the kind carry; each result carries its own. */
  severity: Severity;
  short: string;
  help: string;
};

/** The rule of a control's `absent` finding: where it would sit, nothing is recorded. */
export function absentRule(name: string, what: string): ControlFindingRule {
  return {
    kind: "absent",
    name: `No${name}`,
    severity: "medium",
    short: `No ${what} is configured`,
    help: `The control would sit here and nothing is recorded for it. Enter its configuration in Controls; a statement of intent in a document does not count.`,
  };
}

/** A decision condition a control offers ("the credential is read-only"), checked in lib/decisions/staleness.ts. */
export type ControlCondition = { kind: string; on: "server" | "agent" };

/**
 * Where the graph draws the control (components/graph/placement.ts): on the server's group of
 * returning tools, on each agent → sink call it covers (`attachesTo`), or on each agent session's
 * boundary with a mark per agent.
 */
export type ControlGraphPlacement =
  | { kind: "server_group" }
  | { kind: "sink_call" }
  | {
      kind: "agent_sessions";
      /** Per agent: whether the control holds at its session, and whether it cuts the path there. */
      sessions: (evaluation: ControlEvaluationBase) => SessionMark[];
    };

export type SessionMark = {
  agentId: AgentId;
  status: ControlStatus;
  cutsPath: boolean;
  /** Why, in a sentence naming the agent with `agentName`. */
  summary: (agentName: string) => string;
  /** Where the control cuts the path at this session: why, for the cut mark's tooltip. */
  cut?: (agentName: string) => string;
};

/**
 * A control, as one module declares it. `E` is its evaluation; `K` the key its evaluations have
 * under the analysis's `controls`; `S` whether it has one review-wide evaluation rather than one per
 * configuration.
 */
export type ControlDefinition<
  E extends ControlEvaluationBase = ControlEvaluationBase,
  K extends string = string,
  S extends boolean = boolean,
  C = unknown,
  I extends string = string,
> = {
  /** Its id, where it sits, what it stops and leaves, and the seed text it comes from. */
  entry: ControlCatalogEntry & { id: I };
  /** What one evaluation is about: a server, an agent, or the whole review (one evaluation). */
  scope: ControlScope["kind"];
  /** Where the analysis JSON keeps its evaluations: `controls[key]`, one object when `single`. */
  output: { key: K; single: S };
  /** Its configurations in the review; null for a control evaluated from the review's composition. */
  config: ControlConfigSlot<C> | null;
  /** Evaluate every configuration (or, for a review-wide control, the review once). */
  evaluate: (ctx: ControlContext) => E[];
  /** Where it would sit and is not configured. */
  missing: (ctx: ControlContext) => MissingControl[];
  /** Whether the control counts as present in the composed residue. */
  present: (evaluations: readonly E[], ctx: ControlContext) => boolean;
  /** Its clauses of the composed residue, knowing which controls are present (residues compose). */
  residue: (
    isPresent: (controlId: string) => boolean,
    ctx: ControlContext,
  ) => PlacedResidueClause[];
  /** The caveat a configured evaluation that does not hold adds to the residue; null for none. */
  caveat: (evaluation: E, ctx: ControlContext) => string | null;
  /** Its summary on one agent's path, when that differs from the evaluation's own (review-wide controls). */
  summaryOnPath?: (evaluation: E, agent: ResolvedAgent) => string;
  /**
   * What a decision about (server, agent) binds of its configuration, hashed into the decision's
   * `controlsSha256` under `key` (docs/decision-record.md); null when its configuration is bound
   * otherwise (separation's is the agent's tool set, bound as `toolSetSha256`).
   */
  binding: {
    key: string;
    select: (review: Review, serverId: ServerId, agentId: AgentId) => unknown[];
  } | null;
  conditions: readonly ControlCondition[];
  /** Every finding kind it raises, for the SARIF export; a test fails on a kind raised and not listed. */
  findingRules: readonly ControlFindingRule[];
  graph: ControlGraphPlacement;
};

/** Any control definition (the registry's element type, and a test's own registry's). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each definition is checked against its own evaluation type where it is written
export type AnyControlDefinition = ControlDefinition<any, string, boolean, any, string>;

/**
 * Declare a control, keeping its literal output key and cardinality for the analysis's types.
 * Identity at run time.
 */
export function defineControl<
  E extends ControlEvaluationBase,
  const K extends string,
  const S extends boolean,
  const I extends string,
  C = unknown,
>(definition: ControlDefinition<E, K, S, C, I>): ControlDefinition<E, K, S, C, I> {
  return definition;
}

/**
 * The `missing` and `present` rules of a control configured once per relay server (credential,
 * egress): a relay server with no configuration is a missing control, and the control is present
 * when every relay server has one that holds.
 */
export function perRelayServer(
  configured: (ctx: ControlContext) => readonly { serverId: ServerId }[],
  missingWhat: string,
): Pick<
  ControlDefinition<ControlEvaluationBase, string, boolean, unknown, string>,
  "missing" | "present"
> {
  return {
    missing: (ctx) =>
      ctx.relayServers
        .filter((id) => !configured(ctx).some((c) => c.serverId === id))
        .map((serverId) => ({
          scope: { kind: "server", serverId },
          subject: { serverId },
          key: serverId,
          reason: `${ctx.serverName(serverId)} returns untrusted text and no ${missingWhat} is recorded for it`,
          attachesTo: ctx.serverNodes(serverId),
        })),
    present: (evaluations, ctx) =>
      ctx.relayServers.length > 0 &&
      ctx.relayServers.every((id) =>
        evaluations.some(
          (e) => e.scope.kind === "server" && e.scope.serverId === id && e.status === "holds",
        ),
      ),
  };
}
