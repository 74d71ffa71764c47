/**
 * MCP Apps (extension `io.modelcontextprotocol/ui`, stable 2026-01-26) as surface: the part of a
 * tool's and a resource's `_meta` that a reviewer must see and the fingerprint must cover.
 *
 * - A tool names the `ui://` resource that renders its results (`_meta.ui.resourceUri`, or the
 *   deprecated flat `_meta["ui/resourceUri"]`) and who may call it (`_meta.ui.visibility`,
 *   default `["model","app"]`). A tool whose visibility lacks `"model"` is app-only: the app calls
 *   it without the model, so it is a tool the agent holds whether or not the model sees it.
 * - A `ui://` resource declares, in its `_meta.ui` (on `resources/list` and on the content
 *   `resources/read` returns), its CSP (`connectDomains` is where the rendered UI may send
 *   data), the browser permissions it asks for, and a dedicated sandbox origin.
 *
 * Only these fields are kept (everything else in `_meta` is not surface and not stored); each is
 * bounded. A present field that breaks a bound or has the wrong shape makes the item invalid,
 * kept as a reject with the reason (lib/mcp/convert.ts), never silently trimmed.
 * docs/fingerprint.md § MCP Apps lists the same fields.
 */
import { z } from "zod";

/** The extension's identifier, as a client or server declares it under `extensions`. */
export const MCP_APPS_EXTENSION = "io.modelcontextprotocol/ui";
export const UI_SCHEME = "ui://";

/** Longest `ui://` URI or CSP origin kept. */
export const MAX_UI_URI_LENGTH = 2048;
export const MAX_CSP_DOMAIN_LENGTH = 512;
/** Most origins in one CSP list; a UI that needs more is not reviewable one origin at a time. */
export const MAX_CSP_DOMAINS = 100;
export const MAX_MIME_TYPE_LENGTH = 256;
/** Most permission names one resource may ask for (the extension defines four). */
export const MAX_UI_PERMISSIONS = 16;
/** Most `ui://` resources one inspection reads (sorted by URI; the rest are recorded unread). */
export const MAX_UI_RESOURCE_READS = 256;

export const VISIBILITY_VALUES = ["model", "app"] as const;
export type ToolVisibility = (typeof VISIBILITY_VALUES)[number];

/** The CSP lists the extension defines, in the order the panel shows them. */
export const CSP_LISTS = [
  "connectDomains",
  "resourceDomains",
  "frameDomains",
  "baseUriDomains",
] as const;
export type CspList = (typeof CSP_LISTS)[number];

/** The permissions the extension defines; others are kept by name as claims, never granted here. */
export const KNOWN_UI_PERMISSIONS = ["camera", "microphone", "geolocation", "clipboardWrite"];

const UiUriSchema = z
  .string()
  .max(MAX_UI_URI_LENGTH)
  .refine((u) => u.startsWith(UI_SCHEME), "must be a ui:// URI");

const DomainListSchema = z.array(z.string().min(1).max(MAX_CSP_DOMAIN_LENGTH)).max(MAX_CSP_DOMAINS);

/** An empty JSON object (`{}`), as each permission is declared; anything else is invalid. */
const EmptyObjectSchema = z.custom<Record<string, never>>(
  (v) => typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0,
  "must be {}",
);

export const ToolUiMetaSchema = z
  .object({
    resourceUri: UiUriSchema.optional(),
    visibility: z.array(z.enum(VISIBILITY_VALUES)).max(VISIBILITY_VALUES.length).optional(),
  })
  .strict();
export type ToolUiMeta = z.infer<typeof ToolUiMetaSchema>;

/** What a tool item keeps of `_meta`: the Apps keys only. */
export const ToolAppsMetaSchema = z
  .object({ ui: ToolUiMetaSchema.optional(), "ui/resourceUri": UiUriSchema.optional() })
  .strict();
export type ToolAppsMeta = z.infer<typeof ToolAppsMetaSchema>;

export const UiCspSchema = z
  .object({
    connectDomains: DomainListSchema.optional(),
    resourceDomains: DomainListSchema.optional(),
    frameDomains: DomainListSchema.optional(),
    baseUriDomains: DomainListSchema.optional(),
  })
  .strict();
export type UiCsp = z.infer<typeof UiCspSchema>;

export const ResourceUiMetaSchema = z
  .object({
    csp: UiCspSchema.optional(),
    permissions: z
      .record(
        z
          .string()
          .min(1)
          .max(64)
          .regex(/^[A-Za-z][A-Za-z0-9-]*$/, "must be a permission name"),
        EmptyObjectSchema,
      )
      .refine((p) => Object.keys(p).length <= MAX_UI_PERMISSIONS, {
        message: `at most ${MAX_UI_PERMISSIONS} permissions`,
      })
      .optional(),
    domain: z.string().min(1).max(MAX_CSP_DOMAIN_LENGTH).optional(),
  })
  .strict();
export type ResourceUiMeta = z.infer<typeof ResourceUiMetaSchema>;

/** What a resource item (listed or read) keeps of `_meta`. */
export const ResourceAppsMetaSchema = z.object({ ui: ResourceUiMetaSchema.optional() }).strict();
export type ResourceAppsMeta = z.infer<typeof ResourceAppsMetaSchema>;

/**
 * One `ui://` resource as `resources/read` returned it: the content's `mimeType` and the Apps
 * part of its `_meta` (what a host builds the iframe's CSP and `allow` from). `unreadable` says
 * the read failed or was not made; its reason is kept beside it and not hashed.
 */
export const UiResourceItemSchema = z
  .object({
    uri: UiUriSchema,
    mimeType: z.string().max(MAX_MIME_TYPE_LENGTH).optional(),
    _meta: ResourceAppsMetaSchema.optional(),
    unreadable: z.literal(true).optional(),
    unreadableReason: z.string().max(1024).optional(),
  })
  .strict();
export type UiResourceItem = z.infer<typeof UiResourceItemSchema>;

/** Fields of a UI resource hashed by the fingerprint (`unreadableReason` is not). */
export const UI_RESOURCE_FINGERPRINT_FIELDS = ["uri", "mimeType", "_meta", "unreadable"] as const;

const own = (o: Record<string, unknown>, k: string): unknown =>
  Object.hasOwn(o, k) ? o[k] : undefined;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

export type AppsMetaResult<T> = { ok: true; meta: T | undefined } | { ok: false; reason: string };

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "(value)"}: ${i.message}`)
    .join("; ");
}

/**
 * The Apps keys of a tool's raw `_meta`, verbatim (a fresh object, other keys dropped); `meta`
 * undefined when the tool has none (so a tool without Apps metadata hashes as before).
 */
export function toolAppsMeta(rawMeta: unknown): AppsMetaResult<ToolAppsMeta> {
  if (!isObject(rawMeta)) return { ok: true, meta: undefined };
  const ui = own(rawMeta, "ui");
  if (ui !== undefined && !isObject(ui))
    return { ok: false, reason: "MCP Apps _meta.ui: must be an object" };
  const picked = pickToolAppsKeys(rawMeta);
  if (picked === undefined) return { ok: true, meta: undefined };
  const r = ToolAppsMetaSchema.safeParse(picked);
  if (!r.success) return { ok: false, reason: `MCP Apps _meta: ${describe(r.error)}` };
  return { ok: true, meta: picked };
}

/**
 * The Apps keys of a tool's `_meta` in a fresh object (values verbatim, nothing validated), or
 * undefined when it has none: what is stored and what the fingerprint hashes.
 */
export function pickToolAppsKeys(meta: unknown): Record<string, unknown> | undefined {
  if (!isObject(meta)) return undefined;
  const picked: Record<string, unknown> = {};
  const ui = own(meta, "ui");
  if (isObject(ui)) {
    const kept: Record<string, unknown> = {};
    for (const k of ["resourceUri", "visibility"] as const)
      if (own(ui, k) !== undefined) kept[k] = own(ui, k);
    if (Object.keys(kept).length) picked.ui = kept;
  }
  const flat = own(meta, "ui/resourceUri");
  if (flat !== undefined) picked["ui/resourceUri"] = flat;
  return Object.keys(picked).length ? picked : undefined;
}

/** As `pickToolAppsKeys`, for a resource's (or a read content's) `_meta`. */
export function pickResourceAppsKeys(meta: unknown): Record<string, unknown> | undefined {
  if (!isObject(meta)) return undefined;
  const ui = own(meta, "ui");
  if (!isObject(ui)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const k of ["csp", "permissions", "domain"] as const)
    if (own(ui, k) !== undefined) kept[k] = own(ui, k);
  if (!Object.keys(kept).length) return undefined;
  if (isObject(kept.csp)) {
    // Only the four CSP lists the extension defines are kept.
    const csp: Record<string, unknown> = {};
    for (const k of CSP_LISTS) if (own(kept.csp, k) !== undefined) csp[k] = own(kept.csp, k);
    kept.csp = csp;
  }
  return { ui: kept };
}

/** The Apps keys of a resource's (or a read content's) raw `_meta`, verbatim; as `toolAppsMeta`. */
export function resourceAppsMeta(rawMeta: unknown): AppsMetaResult<ResourceAppsMeta> {
  if (!isObject(rawMeta)) return { ok: true, meta: undefined };
  const ui = own(rawMeta, "ui");
  if (ui !== undefined && !isObject(ui))
    return { ok: false, reason: "MCP Apps _meta.ui: must be an object" };
  const picked = pickResourceAppsKeys(rawMeta);
  if (picked === undefined) return { ok: true, meta: undefined };
  const r = ResourceAppsMetaSchema.safeParse(picked);
  if (!r.success) return { ok: false, reason: `MCP Apps _meta: ${describe(r.error)}` };
  return { ok: true, meta: picked };
}

/** The `ui://` resource a tool renders with, if it names one (the nested key wins over the flat one). */
export function toolResourceUri(meta: ToolAppsMeta | undefined): string | undefined {
  return meta?.ui?.resourceUri ?? meta?.["ui/resourceUri"];
}

/** Effective visibility: the declared list, or the extension's default `["model","app"]`. */
export function toolVisibility(meta: ToolAppsMeta | undefined): readonly ToolVisibility[] {
  return meta?.ui?.visibility ?? VISIBILITY_VALUES;
}

/** Whether only the app (never the model) sees the tool: its visibility lacks `"model"`. */
export function isAppOnlyTool(meta: ToolAppsMeta | undefined): boolean {
  return meta?.ui?.visibility !== undefined && !meta.ui.visibility.includes("model");
}

/**
 * The `ui://` URIs an inspection reads: every one a tool names and every listed resource with the
 * scheme, distinct, in code-unit order (so a bound keeps the same ones every time).
 */
export function uiResourceUris(
  tools: readonly { _meta?: ToolAppsMeta }[],
  resources: readonly { uri: string }[],
): string[] {
  const uris = new Set<string>();
  for (const t of tools) {
    const u = toolResourceUri(t._meta);
    if (u !== undefined) uris.add(u);
  }
  for (const r of resources) if (r.uri.startsWith(UI_SCHEME)) uris.add(r.uri);
  return [...uris].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * A UI resource's declarations: its read content's `_meta.ui`, with the listing's where the read
 * gave none (the extension puts them on the content; a listing MAY repeat them). What the panel
 * and the egress check read.
 */
export type UiDeclarations = {
  uri: string;
  csp: UiCsp;
  /** Permission names the resource asks for: claims, shown as text, never granted here. */
  permissions: string[];
  domain: string | null;
  /** Tools that render with it, and the app-only ones among them. */
  renderedBy: string[];
  appOnlyTools: string[];
  unreadable: string | null;
};

export function uiDeclarations(
  uiResources: readonly UiResourceItem[],
  listed: readonly { uri: string; _meta?: ResourceAppsMeta }[],
  tools: readonly { name: string; _meta?: ToolAppsMeta }[],
): UiDeclarations[] {
  const listedUi = new Map(listed.map((r) => [r.uri, r._meta?.ui]));
  return uiResources.map((r) => {
    const ui = r._meta?.ui ?? listedUi.get(r.uri);
    const renderers = tools.filter((t) => toolResourceUri(t._meta) === r.uri);
    return {
      uri: r.uri,
      csp: ui?.csp ?? {},
      permissions: Object.keys(ui?.permissions ?? {}),
      domain: ui?.domain ?? null,
      renderedBy: renderers.map((t) => t.name),
      appOnlyTools: renderers.filter((t) => isAppOnlyTool(t._meta)).map((t) => t.name),
      unreadable: r.unreadable ? (r.unreadableReason ?? "not read") : null,
    };
  });
}
