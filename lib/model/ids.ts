/**
 * Identifiers of analysis output: graph nodes, edges, paths and findings. They are derived from
 * review ids only (never counters or random values), so the same review always yields the same ids
 * and the UI can keep a selection across recomputations. Brands keep a path id from being passed
 * where a node id is expected.
 */
import type { z } from "zod";
import type { AgentId, ServerId, SourceId } from "@/lib/ids";

/** `${serverId}/${toolName}`: server ids cannot contain "/", so the first "/" splits unambiguously. */
export type ToolKey = string & z.$brand<"ToolKey">;
export type NodeId = string & z.$brand<"NodeId">;
export type EdgeId = string & z.$brand<"EdgeId">;
export type PathId = string & z.$brand<"PathId">;
export type FindingId = string & z.$brand<"FindingId">;

/** The key of a tool within a review. */
export function toolKey(serverId: ServerId | string, tool: string): ToolKey {
  return `${serverId}/${tool}` as ToolKey;
}

/** The kinds of item a key names: a tool, or a resource or resource template (which return text as tools do). */
export type ItemKind = "tool" | "resource" | "resource_template";

/**
 * The key of any item: a tool's is `toolKey`; a resource's is `${serverId}#resource/${uri}` and a
 * template's `${serverId}#resource_template/${uriTemplate}`. Server ids cannot contain "#" or "/",
 * so no tool name can make a key that reads as a resource's.
 */
export function itemKey(serverId: ServerId | string, item: ItemKind, name: string): ToolKey {
  return (item === "tool" ? `${serverId}/${name}` : `${serverId}#${item}/${name}`) as ToolKey;
}

/** The server id and name of a key (a resource's URI, a template's URI template), and which kind of item it names. */
export function splitItemKey(key: ToolKey): { serverId: ServerId; tool: string; item: ItemKind } {
  const at = key.indexOf("/");
  const head = key.slice(0, at);
  const hash = head.indexOf("#");
  if (hash === -1) return { serverId: head as ServerId, tool: key.slice(at + 1), item: "tool" };
  return {
    serverId: head.slice(0, hash) as ServerId,
    tool: key.slice(at + 1),
    item: head.slice(hash + 1) as ItemKind,
  };
}

/** The server id and tool name of a key (for a resource's key, its URI). */
export function splitToolKey(key: ToolKey): { serverId: ServerId; tool: string } {
  const { serverId, tool } = splitItemKey(key);
  return { serverId, tool };
}

/** Where text on a path starts: a mapped source, or the unmapped text a returning tool has no source for. */
export type HeadRef = { kind: "source"; sourceId: SourceId } | { kind: "unmapped"; tool: ToolKey };

export const nodeIds = {
  writers: (head: HeadRef) =>
    (head.kind === "source"
      ? `writers:${head.sourceId}`
      : `writers:unmapped:${head.tool}`) as NodeId,
  source: (head: HeadRef) =>
    (head.kind === "source" ? `source:${head.sourceId}` : `source:unmapped:${head.tool}`) as NodeId,
  returning: (tool: ToolKey) => `returning:${tool}` as NodeId,
  agent: (agentId: AgentId) => `agent:${agentId}` as NodeId,
  sink: (tool: ToolKey) => `sink:${tool}` as NodeId,
};

/** Edge ids name their ends. */
export function edgeId(from: NodeId, to: NodeId): EdgeId {
  return `${from}->${to}` as EdgeId;
}

/** A path is identified by its four hops. */
export function pathId(agentId: AgentId, head: HeadRef, returning: ToolKey, sink: ToolKey): PathId {
  const h = head.kind === "source" ? head.sourceId : `unmapped:${head.tool}`;
  return `path:${agentId}:${h}:${returning}->${sink}` as PathId;
}

/** Finding ids: a kind and the subject it is about. */
export function findingId(kind: string, ...subject: string[]): FindingId {
  return [`finding:${kind}`, ...subject].join(":") as FindingId;
}
