/**
 * What the server-authored text of an agent's session says about the other items in it, which
 * only the analysis can see: it knows every tool, resource and prompt the agent holds, on every
 * server. Two checks, both detection, never a control:
 *
 * - Mentions: a tool's description that names another tool the same agent holds, on any server.
 *   A description is read by the model as guidance, so "then call trigger_deploy" on one server
 *   steers calls to a tool of another.
 * - Shadowing: two items of one kind whose names are equal once case is folded, Unicode is
 *   normalised (NFKC) and hidden characters are removed. A client may call the wrong one, and a
 *   description on one can redirect calls meant for the other.
 *
 * Prompts are listed per server with what they pull in: their arguments, and the server's
 * resources their text names (prompts/list declares no embedded resources; prompts/get would).
 */
import type { AgentId, ServerId } from "@/lib/ids";
import { revealSegments } from "@/lib/surface/reveal";
import { ToolNameIndex, toolMentions } from "@/lib/surface/suspicious";
import { why, type Finding } from "@/lib/model/findings";
import { findingId, nodeIds, type ItemKind, type ToolKey } from "@/lib/model/ids";
import type { ListedPrompt, ServerToolList } from "@/lib/model/input";
import {
  serverName,
  type AnalysisModel,
  type ResolvedAgent,
  type ResolvedTool,
} from "@/lib/model/model";
import { namesInProse, shownName } from "@/lib/model/prose";

export type PromptView = {
  serverId: ServerId;
  name: string;
  description: string;
  arguments: { name: string; description: string; required: boolean }[];
  /** Resources and templates of the same server whose URI the prompt's text names. */
  resources: ToolKey[];
  /** Agents holding a tool of the server, and so able to use its prompts. */
  heldBy: AgentId[];
};

/** Most descriptions of one agent read for mentions; beyond it the check says it stopped (each is bounded by the schema). */
export const MAX_MENTION_SCANS_PER_AGENT = 5000;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A name as it is compared for shadowing: hidden characters removed, NFKC-normalised, case folded.
 * `Get_Issue`, `get_issue\u200B` and the fullwidth `ｇｅｔ_issue` all fold to `get_issue`.
 */
export function foldName(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  let visible = "";
  for (const s of revealSegments(name)) if (s.kind === "text") visible += s.text;
  return visible.normalize("NFKC").toUpperCase().toLowerCase();
}

const itemWord: Record<ItemKind | "prompt", string> = {
  tool: "tool",
  resource: "resource",
  resource_template: "resource template",
  prompt: "prompt",
};

/** "get_issue on Knowledge base" */
const onServer = (model: AnalysisModel, name: string, serverId: ServerId) =>
  `${shownName(name)} on ${shownName(serverName(model, serverId))}`;

/** One finding per description that names other tools the agent holds. */
export function mentionFindings(model: AnalysisModel, agent: ResolvedAgent): Finding[] {
  const tools = agent.held.filter((t) => t.item === "tool");
  if (tools.length < 2) return [];
  const byName = new Map<string, ResolvedTool[]>();
  for (const t of tools) {
    const list = byName.get(t.name);
    if (list) list.push(t);
    else byName.set(t.name, [t]);
  }
  const names = new ToolNameIndex(byName.keys());
  const out: Finding[] = [];
  let scanned = 0;
  for (const t of agent.held) {
    if (!t.description) continue;
    if (++scanned > MAX_MENTION_SCANS_PER_AGENT) break;
    const named = new Set<string>();
    for (const f of toolMentions(t.description, names))
      if (f.detail !== t.name) named.add(f.detail);
    if (named.size === 0) continue;
    const mentioned = [...named].sort().flatMap((n) => byName.get(n) ?? []);
    const crossServer = mentioned.some((m) => m.serverId !== t.serverId);
    const what = t.item === "tool" ? "" : `${itemWord[t.item]} `;
    out.push({
      id: findingId("surface.mentions_held_tool", agent.id, t.key),
      kind: "surface.mentions_held_tool",
      severity: crossServer ? "medium" : "low",
      title: `The description of ${what}${onServer(model, t.name, t.serverId)} names ${namesInProse(mentioned.map((m) => onServer(model, m.name, m.serverId)))}, which ${agent.name} also holds`,
      controlId: null,
      subject: { agentId: agent.id, serverId: t.serverId, tool: t.key },
      why: why(
        `a description is server-authored text the model reads as guidance, so naming another tool of the session can steer calls to it${crossServer ? " from another server" : ""}; this is a flag on where to look, not a control`,
        { tools: [t.key, ...mentioned.map((m) => m.key)] },
      ),
      nodeIds: [nodeIds.agent(agent.id)],
      pathIds: [],
    });
  }
  return out;
}

/** An item compared for shadowing: a resolved tool, resource or template, or a prompt. */
type Named = { key: string; name: string; serverId: ServerId };

/**
 * Groups of two or more items whose folded names are equal and that are not the same item, in
 * the order of each group's first item. Most names are unique: a group's array is made only when
 * a second item folds to the same name.
 */
function shadowGroups<T extends Named>(items: readonly T[]): T[][] {
  const firstAt = new Map<string, number>();
  const groups = new Map<number, T[]>();
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!;
    const k = foldName(it.name);
    const at = firstAt.get(k);
    if (at === undefined) {
      firstAt.set(k, i);
      continue;
    }
    let g = groups.get(at);
    if (!g) groups.set(at, (g = [items[at]!]));
    if (!g.some((x) => x.serverId === it.serverId && x.name === it.name)) g.push(it);
  }
  const out: T[][] = [];
  for (const at of [...groups.keys()].sort((a, b) => a - b)) {
    const g = groups.get(at)!;
    if (g.length > 1) out.push(g);
  }
  return out;
}

/** The prompts an agent can use: those of every server it holds a tool of. */
function agentPrompts(model: AnalysisModel, agent: ResolvedAgent): Named[] {
  const servers = new Set<string>(agent.agent.tools.map((t) => t.serverId));
  const out: Named[] = [];
  for (const list of model.toolLists) {
    if (!servers.has(list.serverId) || !list.prompts) continue;
    for (const p of list.prompts)
      out.push({ key: `${list.serverId}#prompt/${p.name}`, name: p.name, serverId: list.serverId });
  }
  return out;
}

/** One finding per group of same-named tools, resources or prompts in an agent. */
export function shadowingFindings(model: AnalysisModel, agent: ResolvedAgent): Finding[] {
  const out: Finding[] = [];
  // Held items are compared as they are (their keys are tool keys); prompts have no tool key.
  const kinds: [ItemKind | "prompt", readonly Named[]][] = [
    ["tool", agent.held.filter((t) => t.item === "tool")],
    ["resource", agent.held.filter((t) => t.item !== "tool")],
    ["prompt", agentPrompts(model, agent)],
  ];
  for (const [kind, items] of kinds) {
    if (items.length < 2) continue;
    for (const group of shadowGroups(items)) {
      const servers = new Set(group.map((g) => g.serverId));
      const word = kind === "resource" ? "resource URI" : itemWord[kind];
      const exact = group.every((g) => g.name === group[0]!.name);
      out.push({
        id: findingId("surface.shadowing", agent.id, kind, group[0]!.key),
        kind: "surface.shadowing",
        severity: servers.size > 1 ? "high" : "medium",
        title: `${agent.name} holds ${group.length} ${word}s named alike: ${namesInProse(group.map((g) => onServer(model, g.name, g.serverId)))}`,
        controlId: null,
        subject: { agentId: agent.id },
        why: why(
          `${exact ? "the same name" : "names equal once case is folded, Unicode is normalised (NFKC) and hidden characters are removed"}${servers.size > 1 ? " on different servers" : " on one server"}: a client may call the wrong one, and a description on one can redirect calls meant for the other`,
          { tools: kind === "prompt" ? [] : group.map((g) => g.key as ToolKey) },
        ),
        nodeIds: [nodeIds.agent(agent.id)],
        pathIds: [],
      });
    }
  }
  return out;
}

/** Every prompt of every server, in server then list order, with what it pulls in. */
export function promptViews(
  model: AnalysisModel,
  toolLists: readonly ServerToolList[],
): PromptView[] {
  const out: PromptView[] = [];
  for (const list of toolLists) {
    if (!list.prompts || list.prompts.length === 0) continue;
    const heldBy = model.agents
      .filter((a) => a.agent.tools.some((t) => t.serverId === list.serverId))
      .map((a) => a.id);
    const resources = model.toolsInOrder.filter(
      (t) => t.serverId === list.serverId && t.item !== "tool",
    );
    for (const p of list.prompts) out.push(promptView(list.serverId, p, resources, heldBy));
  }
  return out;
}

function promptView(
  serverId: ServerId,
  p: ListedPrompt,
  resources: readonly ResolvedTool[],
  heldBy: AgentId[],
): PromptView {
  const args = (p.arguments ?? []).map((a) => ({
    name: a.name,
    description: a.description ?? "",
    required: a.required === true,
  }));
  const text = [p.description ?? "", ...args.map((a) => a.description)].join("\n");
  return {
    serverId,
    name: p.name,
    description: p.description ?? "",
    arguments: args,
    resources: resources.filter((r) => namesResource(text, r)).map((r) => r.key),
    heldBy,
  };
}

/** Whether text names a resource: its URI, or a template's fixed part before its first variable (at least 3 characters). */
function namesResource(text: string, r: ResolvedTool): boolean {
  const fixed = r.item === "resource" ? r.name : r.name.slice(0, r.name.search(/\{|$/));
  return fixed.length >= 3 && text.includes(fixed);
}
