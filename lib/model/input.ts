/**
 * The analysis input besides the review: per server, the tool list to analyse. The glue code picks
 * the latest inspected snapshot's tools when there is one, else the review's hand-entered
 * `declaredTools`; the analysis works from hand-entered tools alone, so nothing here needs a live
 * server.
 */
import type { ServerId } from "@/lib/ids";
import type { Review, ToolAnnotations } from "@/lib/review/schema";
import type { ResourceAppsMeta, ToolAppsMeta, UiResourceItem } from "@/lib/surface/apps";
import type { CredentialSurface } from "@/lib/surface/credential";

/** One tool as the analysis sees it: what the server (or the reviewer) said about it. */
export type ListedTool = {
  name: string;
  description: string;
  /** Server-authored claims; raw objects from a snapshot are accepted, non-boolean hints count as absent. */
  annotations?: ToolAnnotations | Partial<Record<string, unknown>>;
  /** The input schema as the server listed it (or the reviewer declared it): role inference reads its fields. */
  inputSchema?: unknown;
  /** The output schema, where listed or declared: role inference reads what the tool returns from it. */
  outputSchema?: unknown;
  /** MCP Apps metadata as listed (snapshots only): the UI it renders with, and its visibility. */
  _meta?: ToolAppsMeta;
};

/** A resource or resource template as listed: its contents are returned into the context as a tool's result is. */
export type ListedResource = {
  uri: string;
  name?: string;
  description?: string;
  mimeType?: string;
  /** MCP Apps declarations of a `ui://` resource as listed (snapshots only). */
  _meta?: ResourceAppsMeta;
};
export type ListedResourceTemplate = {
  uriTemplate: string;
  name?: string;
  description?: string;
  mimeType?: string;
};
/** A prompt as listed: the arguments it takes (prompts/list declares no embedded resources; its text may name them). */
export type ListedPrompt = {
  name: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
};

/** What a snapshot lists besides tools; absent lists are empty. */
export type ListedSurface = {
  tools: readonly ListedTool[];
  resources?: readonly ListedResource[];
  resourceTemplates?: readonly ListedResourceTemplate[];
  prompts?: readonly ListedPrompt[];
  /** MCP Apps `ui://` resources as read by the inspection. */
  uiResources?: readonly UiResourceItem[];
};

/** The tool list used for one server, and where it came from, with its resources, templates and prompts (snapshots only). */
export type ServerToolList = {
  serverId: ServerId;
  origin: "snapshot" | "declared";
  tools: ListedTool[];
  resources?: ListedResource[];
  resourceTemplates?: ListedResourceTemplate[];
  prompts?: ListedPrompt[];
  /** MCP Apps `ui://` resources as read by the server's current inspection (snapshots only). */
  uiResources?: UiResourceItem[];
  /**
   * Set when the server's pin is blocked: its latest inspection differs from the pin under
   * "block" (the tools above are still what it serves now). `reason` names what changed.
   */
  blocked?: { reason: string; pinnedSurfaceSha256: string } | null;
  /**
   * The scopes the authorization server granted the server's current inspection (its OAuth token
   * response, inspections.authorization); absent when it was not reached through OAuth. The
   * credential control reads them as evidence (lib/controls/granted-scopes.ts).
   */
  grantedScopes?: string[];
  /**
   * Each era × credential's latest surface of the server, as item keys and cache hints (issue 30):
   * the shared-cache finding compares them (lib/analysis/credential-findings.ts). The glue passes
   * them only when the server was listed under two or more credentials.
   */
  credentialSurfaces?: (CredentialSurface & { era: "2025" | "2026" })[];
};

type SnapshotEntry = readonly ListedTool[] | ListedSurface;
const isMap = (x: unknown): x is ReadonlyMap<string, SnapshotEntry> => x instanceof Map;

/**
 * One tool list per server of the review: the snapshot's tools where `snapshotToolsByServer` has an
 * entry for the server, else the server's `declaredTools`. Servers are kept in review order.
 */
export function toolListsFromReview(
  review: Review,
  snapshotToolsByServer?:
    ReadonlyMap<string, SnapshotEntry> | Readonly<Record<string, SnapshotEntry>>,
): ServerToolList[] {
  const lookup = (id: string): SnapshotEntry | undefined => {
    if (!snapshotToolsByServer) return undefined;
    if (isMap(snapshotToolsByServer)) return snapshotToolsByServer.get(id);
    return Object.hasOwn(snapshotToolsByServer, id) ? snapshotToolsByServer[id] : undefined;
  };
  return review.servers.map((server) => {
    const snap = lookup(server.id);
    if (snap && isToolArray(snap))
      return { serverId: server.id, origin: "snapshot", tools: snap.map((t) => ({ ...t })) };
    if (snap) {
      const list: ServerToolList = {
        serverId: server.id,
        origin: "snapshot",
        tools: snap.tools.map((t) => ({ ...t })),
      };
      if (snap.resources?.length) list.resources = snap.resources.map((r) => ({ ...r }));
      if (snap.resourceTemplates?.length)
        list.resourceTemplates = snap.resourceTemplates.map((r) => ({ ...r }));
      if (snap.prompts?.length)
        list.prompts = snap.prompts.map((p) => ({
          ...p,
          ...(p.arguments ? { arguments: p.arguments.map((a) => ({ ...a })) } : {}),
        }));
      if (snap.uiResources?.length) list.uiResources = snap.uiResources.map((r) => ({ ...r }));
      return list;
    }
    return {
      serverId: server.id,
      origin: "declared",
      tools: server.declaredTools.map((t) => ({
        name: t.name,
        description: t.description,
        ...(t.annotations ? { annotations: t.annotations } : {}),
        ...(t.inputSchema ? { inputSchema: t.inputSchema } : {}),
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      })),
    };
  });
}

const isToolArray = (x: SnapshotEntry): x is readonly ListedTool[] => Array.isArray(x);
