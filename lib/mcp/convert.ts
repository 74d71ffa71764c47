/**
 * SDK shapes → domain items, leniently, one item at a time. Each item is checked against the
 * SDK's own protocol schema; one that fails is kept as a reject (raw item + reason) instead of
 * failing the page, as the SDK's `listTools()` would. Items are built from the raw values the
 * server sent, never from the zod output, so the fingerprint hashes exactly what was sent
 * (zod's rebuilt objects drop an own `__proto__` key, for one).
 */
import {
  PromptSchema,
  ResourceSchema,
  ResourceTemplateSchema,
  ToolSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { resourceAppsMeta, toolAppsMeta } from "@/lib/surface/apps";
import { hasLoneSurrogate } from "@/lib/surface/fingerprint";
import type {
  PromptItem,
  ResourceItem,
  ResourceTemplateItem,
  SurfaceList,
  SurfaceReject,
  ToolItem,
} from "@/lib/surface/types";

/** Deeper JSON than this is rejected: canonicalisation and schema walks recurse. */
export const MAX_JSON_DEPTH = 64;

export const LIST_METHOD: Record<SurfaceList, string> = {
  tools: "tools/list",
  resources: "resources/list",
  resourceTemplates: "resources/templates/list",
  prompts: "prompts/list",
};
/** The result field holding each list's items. */
export const LIST_FIELD: Record<SurfaceList, string> = {
  tools: "tools",
  resources: "resources",
  resourceTemplates: "resourceTemplates",
  prompts: "prompts",
};

export type DomainItem = ToolItem | ResourceItem | ResourceTemplateItem | PromptItem;

type SchemaLike = {
  safeParse: (v: unknown) => { success: true } | { success: false; error: z.ZodError };
};
const SDK_SCHEMA: Record<SurfaceList, SchemaLike> = {
  tools: ToolSchema, // zod/v4 schemas from the SDK; only safeParse is used
  resources: ResourceSchema,
  resourceTemplates: ResourceTemplateSchema,
  prompts: PromptSchema,
};

/** First problem a JSON value has that RFC 8785 or our walks cannot handle, or null. */
function jsonProblem(value: unknown, depth = 0): string | null {
  if (depth > MAX_JSON_DEPTH) return `nested deeper than ${MAX_JSON_DEPTH} levels`;
  if (typeof value === "string")
    return hasLoneSurrogate(value) ? "contains a lone UTF-16 surrogate (not valid Unicode)" : null;
  if (Array.isArray(value)) {
    for (const v of value) {
      const p = jsonProblem(v, depth + 1);
      if (p) return p;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const k of Object.keys(value)) {
      if (hasLoneSurrogate(k))
        return "contains a lone UTF-16 surrogate in a key (not valid Unicode)";
      const p = jsonProblem((value as Record<string, unknown>)[k], depth + 1);
      if (p) return p;
    }
  }
  return null;
}

function describeZod(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.map(String).join(".") : "(item)"}: ${i.message}`)
    .join("; ");
}

const pick = (raw: Record<string, unknown>, field: string): unknown =>
  Object.hasOwn(raw, field) ? raw[field] : undefined;
const str = (raw: Record<string, unknown>, field: string): string | undefined => {
  const v = pick(raw, field);
  return typeof v === "string" ? v : undefined;
};
const obj = (raw: Record<string, unknown>, field: string): Record<string, unknown> | undefined => {
  const v = pick(raw, field);
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
};

/**
 * A JSON object as the protocol schema's `z.object`/`z.record` take it. An own `__proto__` key
 * (JSON.parse makes one) is left to the schema, whose handling of it is its own.
 */
const isPlainJsonObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) && !Object.hasOwn(v, "__proto__");
const isOptional = (v: unknown, type: "string" | "boolean") => v === undefined || typeof v === type;
const TOOL_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** `inputSchema`/`outputSchema` as ToolSchema checks them: type "object", properties of objects, required strings. */
function objectSchemaPasses(v: unknown): boolean {
  if (!isPlainJsonObject(v) || pick(v, "type") !== "object") return false;
  const properties = pick(v, "properties");
  if (properties !== undefined) {
    if (!isPlainJsonObject(properties)) return false;
    for (const k of Object.keys(properties)) {
      const p = properties[k];
      if (p === null || typeof p !== "object") return false;
    }
  }
  const required = pick(v, "required");
  if (required === undefined) return true;
  if (!Array.isArray(required)) return false;
  // By index, not `every`, which skips holes.
  for (let i = 0; i < required.length; i++) if (typeof required[i] !== "string") return false;
  return true;
}

/**
 * True only for a tool the SDK's `ToolSchema` accepts, checked by hand: the common shape (name,
 * title, description, input and output schemas, annotations, `_meta`; no icons or execution).
 * Anything else, true or not, gets the schema's own verdict and message. The schema is a zod
 * walk that cost about a ninth of the CLI's CPU on 10,000 tools (the bare SDK client pays it
 * too, inside listTools); this accepts a subset of what it accepts (tests/surface/convert.test.ts
 * checks the two agree), so no item the schema rejects gets through.
 */
export function toolPassesProtocolSchema(raw: unknown): boolean {
  if (!isPlainJsonObject(raw)) return false;
  if (typeof pick(raw, "name") !== "string") return false;
  if (!isOptional(pick(raw, "title"), "string")) return false;
  if (!isOptional(pick(raw, "description"), "string")) return false;
  if (pick(raw, "icons") !== undefined || pick(raw, "execution") !== undefined) return false;
  if (!objectSchemaPasses(pick(raw, "inputSchema"))) return false;
  const output = pick(raw, "outputSchema");
  if (output !== undefined && !objectSchemaPasses(output)) return false;
  const annotations = pick(raw, "annotations");
  if (annotations !== undefined) {
    if (!isPlainJsonObject(annotations)) return false;
    if (!isOptional(pick(annotations, "title"), "string")) return false;
    for (const hint of TOOL_HINTS)
      if (!isOptional(pick(annotations, hint), "boolean")) return false;
  }
  const meta = pick(raw, "_meta");
  return meta === undefined || isPlainJsonObject(meta);
}

/**
 * The MCP Apps part of an item's `_meta` (tools and resources only); `ok: false` with the reason
 * when it is present but breaks the extension's shape or a bound (the item is then a reject).
 */
function appsMetaOf(
  list: SurfaceList,
  raw: Record<string, unknown>,
): { ok: true; meta: object | undefined } | { ok: false; reason: string } {
  if (list === "tools") return toolAppsMeta(pick(raw, "_meta"));
  if (list === "resources") return resourceAppsMeta(pick(raw, "_meta"));
  return { ok: true, meta: undefined };
}

function build(list: SurfaceList, raw: Record<string, unknown>, appsMeta?: object): DomainItem {
  const optional = <T extends object>(base: T, fields: Record<string, unknown>): T => {
    for (const [k, v] of Object.entries(fields))
      if (v !== undefined) (base as Record<string, unknown>)[k] = v;
    return base;
  };
  switch (list) {
    case "tools":
      return optional<ToolItem>(
        { name: str(raw, "name")!, inputSchema: obj(raw, "inputSchema")! },
        {
          title: str(raw, "title"),
          description: str(raw, "description"),
          outputSchema: obj(raw, "outputSchema"),
          annotations: obj(raw, "annotations"),
          _meta: appsMeta,
        },
      );
    case "resources":
      return optional<ResourceItem>(
        { uri: str(raw, "uri")!, name: str(raw, "name")! },
        {
          title: str(raw, "title"),
          description: str(raw, "description"),
          mimeType: str(raw, "mimeType"),
          _meta: appsMeta,
        },
      );
    case "resourceTemplates":
      return optional<ResourceTemplateItem>(
        { uriTemplate: str(raw, "uriTemplate")!, name: str(raw, "name")! },
        {
          title: str(raw, "title"),
          description: str(raw, "description"),
          mimeType: str(raw, "mimeType"),
        },
      );
    case "prompts": {
      const args = pick(raw, "arguments");
      return optional<PromptItem>(
        { name: str(raw, "name")! },
        {
          title: str(raw, "title"),
          description: str(raw, "description"),
          arguments: Array.isArray(args)
            ? args.map((a: Record<string, unknown>) =>
                optional<{ name: string; description?: string; required?: boolean }>(
                  { name: str(a, "name")! },
                  {
                    description: str(a, "description"),
                    required: typeof a.required === "boolean" ? a.required : undefined,
                  },
                ),
              )
            : undefined,
        },
      );
    }
  }
}

export type ConvertedItem = { ok: true; item: DomainItem } | { ok: false; reject: SurfaceReject };

/** Check one raw list item against the protocol schema and convert it. */
export function convertItem(
  list: SurfaceList,
  raw: unknown,
  page: number,
  index: number,
): ConvertedItem {
  const reject = (reason: string): ConvertedItem => ({
    ok: false,
    reject: { list, page, index, raw, reason },
  });
  const problem = jsonProblem(raw);
  if (problem) {
    return {
      ok: false,
      reject: {
        list,
        page,
        index,
        raw: problem.startsWith("nested") ? `(item not kept: ${problem})` : raw,
        reason: problem,
      },
    };
  }
  if (list !== "tools" || !toolPassesProtocolSchema(raw)) {
    const parsed = SDK_SCHEMA[list].safeParse(raw);
    if (!parsed.success) return reject(`fails the protocol schema: ${describeZod(parsed.error)}`);
  }
  const apps = appsMetaOf(list, raw as Record<string, unknown>);
  if (!apps.ok) return reject(apps.reason);
  return { ok: true, item: build(list, raw as Record<string, unknown>, apps.meta) };
}

/** The strings whose length `descriptionLength` bounds. */
export function boundedTexts(list: SurfaceList, item: DomainItem): [string, string][] {
  const out: [string, string][] = [];
  const i = item as Record<string, unknown>;
  for (const f of ["title", "description"]) if (typeof i[f] === "string") out.push([f, i[f]]);
  if (list === "tools") {
    const t = (item as ToolItem).annotations?.title;
    if (typeof t === "string") out.push(["annotations.title", t]);
  }
  if (list === "prompts") {
    (item as PromptItem).arguments?.forEach((a, n) => {
      if (a.description !== undefined) out.push([`arguments.${n}.description`, a.description]);
    });
  }
  return out;
}
