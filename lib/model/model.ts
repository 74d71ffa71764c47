/**
 * The resolved model the analysis and the controls share (lib/model is the layer beneath both:
 * lib/analysis imports lib/controls, and both import this folder, never the other way round):
 * every tool of the review (listed, assessed, or only named by an agent) with the roles the
 * analysis uses and where they came from, every source with its writer bound, and every agent with
 * the tools it holds. It is a pure
 * function of the review and the tool lists; both the path analysis and the control evaluations
 * read it, so they cannot disagree about what a tool is.
 *
 * Role rules: a confirmed assessment is authoritative; otherwise the suggestion is used and marked.
 * A tool with mapped sources returns text from them whatever its roles say. A tool that returns
 * untrusted text with no source mapped has "unmapped" writers, which are treated as outside the
 * boundary: unknown is not safe.
 */
import type { AgentId, ServerId, SourceId } from "@/lib/ids";
import type { Agent, InputSource, Review, ToolAssessment, ToolRole } from "@/lib/review/schema";
import {
  newRoleCache,
  privateSourceReasons,
  resolveRoles,
  roleBit,
  roleMask,
  roleSet,
  type ResolvedRoles,
  type RoleCache,
  type RoleContext,
  type RoleReason,
} from "@/lib/roles/suggest";
import { sourceWriterBound, type WriterBoundResult } from "@/lib/sources/writer-bound";
import {
  ANNOTATION_HINTS,
  SPEC_DEFAULT_HINTS,
  type EffectiveAnnotations,
} from "@/lib/tools/annotations";
import type { RoleEvidence } from "./findings";
import { itemKey, nodeIds, type HeadRef, type ItemKind, type NodeId, type ToolKey } from "./ids";
import type { ListedTool, ServerToolList } from "./input";
import { isAppOnlyTool, toolResourceUri } from "@/lib/surface/apps";

/** Roles that make a tool a sensitive sink on a path. `reads_private_data` counts for the trifecta only. */
export const SENSITIVE_SINK_ROLES: readonly ToolRole[] = [
  "writes",
  "deploys_or_destroys",
  "network_or_shares",
];
export const SENSITIVE_SINK_MASK = roleMask(SENSITIVE_SINK_ROLES);
export const READS_PRIVATE_DATA_MASK = roleMask(["reads_private_data"]);
export const RETURNS_UNTRUSTED_TEXT_MASK = roleMask(["returns_untrusted_text"]);

export type ToolPresence =
  /** In the server's tool list (snapshot or declared). */
  | "listed"
  /** Assessed or held by an agent, but absent from the server's tool list. */
  | "not_listed";

/** A path head with its two graph node ids, built once per head rather than once per use. */
export type HeadNodes = { head: HeadRef; writers: NodeId; source: NodeId };

export type ResolvedTool = {
  key: ToolKey;
  /** A tool, or a resource or resource template (then `name` is its URI or URI template; it is never a sink). */
  item: ItemKind;
  /** As listed ("" when not listed): the server's text, read for mentions of other tools. */
  description: string;
  /** Position in `AnalysisModel.toolsInOrder`: per-tool caches are arrays indexed by it. */
  index: number;
  serverId: ServerId;
  name: string;
  presence: ToolPresence;
  listOrigin: "snapshot" | "declared" | null;
  annotations: EffectiveAnnotations;
  roles: ResolvedRoles;
  sourceIds: SourceId[];
  /**
   * Heads of text this tool returns that writers outside the boundary can author, with their node
   * ids: its mapped sources whose writers reach outside, or its one unmapped head when none is mapped.
   */
  headNodes: HeadNodes[];
  /** Node ids of this tool as a returning tool and as a sink. */
  returningNodeId: NodeId;
  sinkNodeId: NodeId;
  /** One evidence entry per role, in `roles.reasons` order: shared by every finding that cites the tool. */
  evidence: RoleEvidence[];
  sinkRoles: ToolRole[];
  readsPrivateData: boolean;
  /**
   * MCP Apps: the tool's visibility lacks "model", so the server's UI calls it without the model.
   * Still a tool the agent holds when its tool set names it: analysed like any other.
   */
  isAppOnly: boolean;
  /** MCP Apps: the listed tool names a UI resource (`_meta.ui.resourceUri`), so holding it renders the server's UI. */
  rendersUi: boolean;
};

export type ResolvedSource = { source: InputSource; bound: WriterBoundResult; head: HeadNodes };

export type ResolvedAgent = {
  id: AgentId;
  name: string;
  agent: Agent;
  /** Distinct tools the agent holds, sorted by key. */
  tools: ToolKey[];
  /** The held tools, resolved (computed once: every consumer reads these). */
  held: ResolvedTool[];
  /** Held tools returning text that writers outside the boundary can author. */
  returning: ResolvedTool[];
  /** Held sensitive sinks. */
  sinks: ResolvedTool[];
  /**
   * What a path through this agent rests on, built once for every finding about it (path,
   * separation, trifecta, Rule of Two); shared, read-only. `returnEvidence`: the returning tools'
   * `returns_untrusted_text` evidence; `pathEvidence`: that, then the sinks' sink-role evidence;
   * `pathTools`: the returning tools' keys, then the sinks'; `pathSources`: the sources the
   * returning tools' untrusted heads name, distinct and sorted.
   */
  returnEvidence: RoleEvidence[];
  pathEvidence: RoleEvidence[];
  pathTools: ToolKey[];
  pathSources: SourceId[];
};

export type AnalysisModel = {
  review: Review;
  toolLists: ServerToolList[];
  /** Every tool, sorted by key (`toolsInOrder[t.index] === t`). */
  toolsInOrder: ResolvedTool[];
  sources: Map<SourceId, ResolvedSource>;
  agents: ResolvedAgent[];
  /** Each server's name, for prose: a person reads names, never ids. */
  serverNames: Map<ServerId, string>;
};

/** A server's name as the review gives it (the id only for a server the review lacks). */
export function serverName(model: Pick<AnalysisModel, "serverNames">, serverId: ServerId): string {
  return model.serverNames.get(serverId) ?? serverId;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
/**
 * Distinct values, sorted, in a new array. A tool's sources are a handful, so they are sorted by
 * insertion: a Set and a sort per tool cost more than the sorting (1,600 mapped tools at scale).
 */
function uniqueSorted<T extends string>(values: readonly T[]): T[] {
  if (values.length > 32) return [...new Set(values)].sort(byString);
  const out: T[] = [];
  for (const v of values) {
    let at = out.length;
    while (at > 0 && v < out[at - 1]!) at--;
    if (at > 0 && out[at - 1] === v) continue;
    out.push(v);
    for (let j = out.length - 1; j > at; j--) out[j] = out[j - 1]!;
    out[at] = v;
  }
  return out;
}
/** Shared by every tool with no (known or unknown) sources, or no untrusted heads: most tools. Never mutated. */
const NO_SOURCES: SourceId[] = [];
const NO_HEADS: HeadNodes[] = [];

/** One evidence entry per role of the resolution, in its reasons' order (an exact-size array: kept to the end of the analysis). */
function evidenceOf(tool: ToolKey, roles: ResolvedRoles): RoleEvidence[] {
  const evidence = new Array<RoleEvidence>(roles.reasons.length);
  for (let i = 0; i < evidence.length; i++)
    evidence[i] = { tool, role: roles.reasons[i]!.role, origin: roles.origin };
  return evidence;
}

/** A tool while the model is built: what the review says of it, then its resolution. */
type ToolSlot = {
  key: ToolKey;
  item: ItemKind;
  serverId: ServerId;
  name: string;
  /** The first listing of the tool (snapshot or declared), if any. */
  listed: ListedTool | null;
  origin: "snapshot" | "declared" | null;
  assessment: ToolAssessment | null;
  resolved: ResolvedTool | null;
  /** The index of the last agent found holding it, so each agent lists it once. */
  lastAgent: number;
};

/**
 * The items of a review being collected: every tool it names, found by server id and name, and
 * per server its resources and templates (an agent holding any tool of a server holds them all).
 */
type SlotIndex = {
  byServer: Map<string, Map<string, ToolSlot>>;
  slots: ToolSlot[];
  resourcesByServer: Map<string, ToolSlot[]>;
};

/** The slot of an item, made on first sight: a lookup by the two strings the review already holds builds no key string. */
function slotFor(
  index: SlotIndex,
  serverId: ServerId,
  name: string,
  item: ItemKind = "tool",
): ToolSlot {
  const at = item === "tool" ? serverId : `${serverId}#${item}`;
  let named = index.byServer.get(at);
  if (!named) index.byServer.set(at, (named = new Map<string, ToolSlot>()));
  let slot = named.get(name);
  if (!slot) {
    slot = {
      key: itemKey(serverId, item, name),
      item,
      serverId,
      name,
      listed: null,
      origin: null,
      assessment: null,
      resolved: null,
      lastAgent: -1,
    };
    named.set(name, slot);
    index.slots.push(slot);
    if (item !== "tool") {
      const list = index.resourcesByServer.get(serverId);
      if (list) list.push(slot);
      else index.resourcesByServer.set(serverId, [slot]);
    }
  }
  return slot;
}

/** Annotations are a tool's: a resource has none, so it shows the spec's defaults, as an unannotated tool does. */
const NO_ANNOTATIONS = Object.fromEntries(
  ANNOTATION_HINTS.map((h) => [h, { value: SPEC_DEFAULT_HINTS[h], origin: "spec_default" }]),
) as EffectiveAnnotations;
/** The roles a resource can have: reading one changes nothing, so it returns text and may read private data, never a sink. */
const RESOURCE_ROLES = roleMask(["returns_untrusted_text", "reads_private_data"]);
const RESOURCE_RETURNS: Record<"resource" | "resource_template", RoleReason> = {
  resource: {
    role: "returns_untrusted_text",
    reasons: ["a resource's contents are returned into the agent's context, as a tool's result is"],
    confidence: 1,
  },
  resource_template: {
    role: "returns_untrusted_text",
    reasons: [
      "a resource template's contents are returned into the agent's context, as a tool's result is",
    ],
    confidence: 1,
  },
};

/**
 * A resource's roles: the reviewer's when confirmed (sink roles dropped), otherwise "returns text",
 * as for every resource, and "reads private data" when mapped to a confidential or secret source
 * or entered so by the reviewer.
 */
function resourceRoles(
  item: "resource" | "resource_template",
  assessment: ToolAssessment | null,
  context: RoleContext | undefined,
): ResolvedRoles {
  const suggested: RoleReason[] = [RESOURCE_RETURNS[item]];
  const privateReasons = privateSourceReasons(assessment?.sourceIds ?? [], context);
  if (assessment && !assessment.rolesConfirmed && assessment.roles.includes("reads_private_data"))
    privateReasons.push("entered by the reviewer, not confirmed");
  if (privateReasons.length > 0)
    suggested.push({ role: "reads_private_data", reasons: privateReasons, confidence: 0.9 });
  const suggestion = {
    roles: suggested,
    annotations: NO_ANNOTATIONS,
    confidence: 1,
    verb: null,
    conflicts: [],
    notes: [],
  };
  if (assessment?.rolesConfirmed) {
    const mask = roleMask(assessment.roles) & RESOURCE_ROLES;
    const roles = roleSet(mask);
    return {
      roles,
      mask,
      origin: "confirmed",
      reasons: roles.map((role) => ({
        role,
        reasons: ["confirmed by the reviewer"],
        confidence: 1,
      })),
      suggestion,
    };
  }
  const mask = roleMask(suggested.map((r) => r.role));
  return { roles: roleSet(mask), mask, origin: "suggested", reasons: suggested, suggestion };
}

function resolveTool(
  slot: ToolSlot,
  index: number,
  sources: ReadonlyMap<SourceId, ResolvedSource>,
  roleCache: RoleCache,
  contexts: ReadonlyMap<string, RoleContext>,
): ResolvedTool {
  const { key, serverId, name, assessment, item } = slot;
  const input: ListedTool = slot.listed ?? { name, description: "" };
  const context = contexts.get(serverId) ?? contexts.get("");
  const roles =
    item === "tool"
      ? resolveRoles(input, assessment, roleCache, context)
      : resourceRoles(item, assessment, context);
  const sourceIds =
    !assessment || assessment.sourceIds.length === 0
      ? NO_SOURCES
      : uniqueSorted(assessment.sourceIds);
  // Sources the review lacks are dropped (the schema rejects them; kept safe for raw input).
  let known = sourceIds;
  for (let i = 0; i < sourceIds.length; i++) {
    if (sources.has(sourceIds[i]!)) continue;
    known = sourceIds.filter((s) => sources.has(s));
    break;
  }
  let headNodes = NO_HEADS;
  if (known.length > 0) {
    headNodes = [];
    for (let i = 0; i < known.length; i++) {
      const r = sources.get(known[i]!);
      if (r?.bound.reachesOutsideBoundary) headNodes.push(r.head);
    }
  } else if (roles.roles.includes("returns_untrusted_text")) {
    const head: HeadRef = { kind: "unmapped", tool: key };
    headNodes = [{ head, writers: nodeIds.writers(head), source: nodeIds.source(head) }];
  }
  const resolved: ResolvedTool = {
    key,
    item,
    description: input.description,
    index,
    serverId,
    name,
    presence: slot.listed ? "listed" : "not_listed",
    listOrigin: slot.origin,
    annotations: roles.suggestion.annotations,
    roles,
    sourceIds: known,
    headNodes,
    returningNodeId: nodeIds.returning(key),
    sinkNodeId: nodeIds.sink(key),
    evidence: evidenceOf(key, roles),
    sinkRoles: item === "tool" ? roleSet(roles.mask & SENSITIVE_SINK_MASK) : roleSet(0),
    readsPrivateData: (roles.mask & READS_PRIVATE_DATA_MASK) !== 0,
    isAppOnly: item === "tool" && isAppOnlyTool(input._meta),
    rendersUi: item === "tool" && toolResourceUri(input._meta) !== undefined,
  };
  slot.resolved = resolved;
  return resolved;
}

function resolveAgent(agent: Agent, own: readonly ToolSlot[]): ResolvedAgent {
  // Tool order is key order, so sorting by index sorts by key without comparing strings.
  const held = own.map((slot) => slot.resolved!).sort((x, y) => x.index - y.index);
  const returning = held.filter((t) => t.headNodes.length > 0);
  const sinks = held.filter((t) => t.sinkRoles.length > 0);
  const returnEvidence = collectEvidence([], returning, RETURNS_UNTRUSTED_TEXT_MASK);
  const pathSources = new Set<SourceId>();
  for (const r of returning)
    for (const h of r.headNodes) if (h.head.kind === "source") pathSources.add(h.head.sourceId);
  return {
    id: agent.id,
    name: agent.name,
    agent,
    tools: held.map((t) => t.key),
    held,
    returning,
    sinks,
    returnEvidence,
    pathEvidence: collectEvidence(returnEvidence.slice(), sinks, SENSITIVE_SINK_MASK),
    pathTools: returning.map((t) => t.key).concat(sinks.map((t) => t.key)),
    pathSources: Array.from(pathSources).sort(byString),
  };
}

/**
 * Build the resolved model. Pure; cost is linear in tools + agent tool references. The work per
 * tool and per agent is in functions of their own, each short enough to read and to time alone
 * (`npm run bench -- analysis` measures this on the 5,000-tool review).
 */
export function buildModel(review: Review, toolLists: readonly ServerToolList[]): AnalysisModel {
  const sources = new Map<SourceId, ResolvedSource>();
  for (const source of review.sources) {
    const head: HeadRef = { kind: "source", sourceId: source.id };
    sources.set(source.id, {
      source,
      bound: sourceWriterBound(source),
      head: { head, writers: nodeIds.writers(head), source: nodeIds.source(head) },
    });
  }

  // Every tool the review names: listed, assessed, or held by an agent.
  const index: SlotIndex = { byServer: new Map(), slots: [], resourcesByServer: new Map() };
  const listItem = (
    list: ServerToolList,
    name: string,
    description: string | undefined,
    item: ItemKind,
    tool?: ListedTool,
  ) => {
    const slot = slotFor(index, list.serverId, name, item);
    if (slot.listed) return;
    slot.listed = tool ?? { name, description: description ?? "" };
    slot.origin = list.origin;
  };
  for (const list of toolLists) {
    list.tools.forEach((tool) => listItem(list, tool.name, tool.description, "tool", tool));
    list.resources?.forEach((r) => listItem(list, r.uri, r.description, "resource"));
    list.resourceTemplates?.forEach((r) =>
      listItem(list, r.uriTemplate, r.description, "resource_template"),
    );
  }
  review.tools.forEach((a) => {
    slotFor(index, a.serverId, a.tool, a.item ?? "tool").assessment = a;
  });
  // Each agent's distinct tools: a slot remembers the last agent that took it.
  // An agent holding any tool of a server holds that server's resources and templates: the client
  // that connects for the tool can read every resource the server lists.
  const agentSlots = review.agents.map((agent, agentIndex) => {
    const own: ToolSlot[] = [];
    const take = (slot: ToolSlot) => {
      if (slot.lastAgent === agentIndex) return;
      slot.lastAgent = agentIndex;
      own.push(slot);
    };
    agent.tools.forEach((ref) => take(slotFor(index, ref.serverId, ref.tool)));
    if (index.resourcesByServer.size > 0) {
      const servers = new Set<string>(agent.tools.map((ref) => ref.serverId));
      for (const serverId of servers) index.resourcesByServer.get(serverId)?.forEach(take);
    }
    return own;
  });

  const slots = index.slots.sort((x, y) => byString(x.key, y.key));
  // Tools with the same suggestion and confirmation share one resolution (read-only).
  const roleCache = newRoleCache();
  // What role inference reads around a tool: its server's name, its sources' names and confidentiality.
  const sourceFacts = new Map(
    review.sources.map((s) => [
      s.id as string,
      { name: s.name, confidentiality: s.confidentiality },
    ]),
  );
  const contexts = new Map<string, RoleContext>([["", { sources: sourceFacts }]]);
  for (const server of review.servers)
    contexts.set(server.id, { serverName: server.name, sources: sourceFacts });
  const toolsInOrder = slots.map((slot, i) => resolveTool(slot, i, sources, roleCache, contexts));
  const agents = review.agents.map((agent, i) => resolveAgent(agent, agentSlots[i]!));
  const serverNames = new Map<ServerId, string>();
  for (const server of review.servers) serverNames.set(server.id, server.name);
  return { review, toolLists: [...toolLists], toolsInOrder, sources, agents, serverNames };
}

/**
 * Appends to `out` the evidence of `tools` for the roles in `mask` (see `roleMask`), tool by tool in
 * each tool's evidence order, and returns it. The entries are the tools' shared ones, not copies.
 */
export function collectEvidence(
  out: RoleEvidence[],
  tools: readonly ResolvedTool[],
  mask: number,
): RoleEvidence[] {
  for (const t of tools)
    for (const e of t.evidence) if ((roleBit(e.role) & mask) !== 0) out.push(e);
  return out;
}

/** Tools in an agent that return text writers outside the boundary can author. */
export function agentReturningTools(_model: AnalysisModel, agent: ResolvedAgent): ResolvedTool[] {
  return agent.returning;
}

/** Tools in an agent that are sensitive sinks (writes, deploys or destroys, reaches the network or shares). */
export function agentSinkTools(_model: AnalysisModel, agent: ResolvedAgent): ResolvedTool[] {
  return agent.sinks;
}

/** Whether an agent holds both a tool returning untrusted text and a sensitive sink: the union property makes that a path. */
export function agentHoldsBoth(agent: ResolvedAgent): boolean {
  return agent.returning.length > 0 && agent.sinks.length > 0;
}
