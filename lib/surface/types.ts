/**
 * Domain shapes of an MCP server's live surface. lib/mcp converts the SDK's shapes into these at
 * the boundary; everything else (fingerprint, diff, suspicious-text scan, UI) reads only these.
 * A snapshot is stored as JSON, so `SurfaceSnapshotSchema` is strict and versioned; the
 * server-authored JSON inside it (schemas, annotations, capabilities, rejects) stays open.
 */
import { z } from "zod";
import { WireTransportKindSchema } from "@/lib/transport-kind";
import { Sha256Schema } from "@/lib/ids";
import {
  ResourceAppsMetaSchema,
  ToolAppsMetaSchema,
  UiResourceItemSchema,
  type UiResourceItem,
} from "@/lib/surface/apps";
import { InspectLimitsSchema } from "@/lib/surface/limits";

export const SURFACE_SNAPSHOT_VERSION = 1;

/**
 * A server-authored JSON object, kept by reference: `z.record` would rebuild it and silently drop
 * an own `__proto__` key, so a stored snapshot would no longer hash to its own fingerprint.
 */
const JsonObjectSchema = z.custom<Record<string, unknown>>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  "must be a JSON object",
);

export const ToolItemSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: JsonObjectSchema,
    outputSchema: JsonObjectSchema.optional(),
    /** As the server claimed them; see lib/tools/annotations.ts for effective values. */
    annotations: JsonObjectSchema.optional(),
    /** Only the MCP Apps keys of the tool's `_meta` (lib/surface/apps.ts); absent without them. */
    _meta: ToolAppsMetaSchema.optional(),
  })
  .strict();
export type ToolItem = z.infer<typeof ToolItemSchema>;

export const ResourceItemSchema = z
  .object({
    uri: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    /** Only the MCP Apps keys of the resource's `_meta` (lib/surface/apps.ts); absent without them. */
    _meta: ResourceAppsMetaSchema.optional(),
  })
  .strict();
export type ResourceItem = z.infer<typeof ResourceItemSchema>;

export const ResourceTemplateItemSchema = z
  .object({
    uriTemplate: z.string(),
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
  })
  .strict();
export type ResourceTemplateItem = z.infer<typeof ResourceTemplateItemSchema>;

export const PromptArgumentSchema = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    required: z.boolean().optional(),
  })
  .strict();
export const PromptItemSchema = z
  .object({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    arguments: z.array(PromptArgumentSchema).optional(),
  })
  .strict();
export type PromptItem = z.infer<typeof PromptItemSchema>;

export const SURFACE_LISTS = ["tools", "resources", "resourceTemplates", "prompts"] as const;
export const SurfaceListSchema = z.enum(SURFACE_LISTS);
export type SurfaceList = z.infer<typeof SurfaceListSchema>;

/** An item the server sent that failed the protocol schema (or repeated a name): kept, never dropped. */
export const SurfaceRejectSchema = z
  .object({
    list: SurfaceListSchema,
    page: z.number().int().min(1),
    index: z.number().int().min(0),
    raw: z.unknown(),
    reason: z.string(),
  })
  .strict();
export type SurfaceReject = z.infer<typeof SurfaceRejectSchema>;

/** The server-authored part of a surface: exactly what the fingerprint covers. */
export type Surface = {
  instructions: string | null;
  tools: ToolItem[];
  resources: ResourceItem[];
  resourceTemplates: ResourceTemplateItem[];
  prompts: PromptItem[];
  rejects: Pick<SurfaceReject, "list" | "raw">[];
  /** MCP Apps `ui://` resources as read (lib/surface/apps.ts); absent or empty for a server without any. */
  uiResources?: UiResourceItem[];
};

export const ItemHashSchema = z.object({ key: z.string(), sha256: Sha256Schema }).strict();
export const ItemHashesSchema = z
  .object({
    instructions: Sha256Schema.nullable(),
    tools: z.array(ItemHashSchema),
    resources: z.array(ItemHashSchema),
    resourceTemplates: z.array(ItemHashSchema),
    prompts: z.array(ItemHashSchema),
    rejects: z.array(Sha256Schema),
    /** Present only when the surface has MCP Apps `ui://` resources. */
    uiResources: z.array(ItemHashSchema).optional(),
  })
  .strict();
export type ItemHashes = z.infer<typeof ItemHashesSchema>;

export const ServerInfoSchema = z
  .object({ name: z.string(), version: z.string(), title: z.string().optional() })
  .strict();
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/**
 * The cache hints a 2026-07-28 list result declared (`cacheScope`, `ttlMs`). Kept beside the
 * surface, never in it: the fingerprint excludes them (docs/fingerprint.md), and they are read to
 * find a list that varies by credential yet is declared `public` (lib/surface/credential.ts).
 */
export const ListCacheHintSchema = z
  .object({ cacheScope: z.string().max(32).optional(), ttlMs: z.number().optional() })
  .strict();
export type ListCacheHint = z.infer<typeof ListCacheHintSchema>;

export const SurfaceSnapshotSchema = z
  .object({
    snapshotVersion: z.literal(SURFACE_SNAPSHOT_VERSION),
    fingerprintVersion: z.literal(1),
    transport: WireTransportKindSchema,
    serverInfo: ServerInfoSchema,
    protocolVersion: z.string(),
    /**
     * The protocol era the inspection spoke (lib/mcp/types.ts PROTOCOL_ERAS); absent in
     * snapshots taken before the 2026 era was spoken, which are all `2025`.
     */
    era: z.enum(["2025", "2026"]).optional(),
    /** The server's capabilities object, as sent. */
    capabilities: JsonObjectSchema,
    instructions: z.string().nullable(),
    /** The client capabilities this inspection declared, and their names (what a pin compares). */
    clientCapabilities: JsonObjectSchema,
    declaredCapabilities: z.array(z.string()),
    tools: z.array(ToolItemSchema),
    resources: z.array(ResourceItemSchema),
    resourceTemplates: z.array(ResourceTemplateItemSchema),
    prompts: z.array(PromptItemSchema),
    rejects: z.array(SurfaceRejectSchema),
    /** MCP Apps `ui://` resources read during the inspection; absent when there were none. */
    uiResources: z.array(UiResourceItemSchema).optional(),
    surfaceSha256: Sha256Schema,
    itemHashes: ItemHashesSchema,
    settle: z
      .object({
        listChangedNotifications: z.number().int().min(0),
        relists: z.record(SurfaceListSchema, z.number().int().min(0)),
        pages: z.record(SurfaceListSchema, z.number().int().min(0)),
      })
      .strict(),
    inspectedAt: z.iso.datetime(),
    durationMs: z.number().min(0),
    limits: InspectLimitsSchema,
    /** Per list, the cache hints its results declared; absent when none did (every 2025 snapshot). */
    cacheHints: z.partialRecord(SurfaceListSchema, ListCacheHintSchema).optional(),
  })
  .strict();
export type SurfaceSnapshot = z.infer<typeof SurfaceSnapshotSchema>;

/** The surface part of a snapshot (what the fingerprint and the diff read). */
export function surfaceOf(
  s: Pick<SurfaceSnapshot, "instructions" | SurfaceList | "rejects"> & {
    uiResources?: UiResourceItem[];
  },
): Surface {
  return {
    ...(s.uiResources?.length ? { uiResources: s.uiResources } : {}),
    instructions: s.instructions,
    tools: s.tools,
    resources: s.resources,
    resourceTemplates: s.resourceTemplates,
    prompts: s.prompts,
    rejects: s.rejects.map((r) => ({ list: r.list, raw: r.raw })),
  };
}

/** Parse a stored snapshot; `null` when it is not a valid current-version snapshot. */
export function parseSurfaceSnapshot(json: unknown): SurfaceSnapshot | null {
  const r = SurfaceSnapshotSchema.safeParse(json);
  return r.success ? r.data : null;
}
