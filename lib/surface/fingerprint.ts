/**
 * The surface fingerprint: SHA-256 over the RFC 8785 canonical JSON of the server-authored
 * surface, independent of list order, plus one SHA-256 per item. docs/fingerprint.md is the
 * specification (fields, sort keys, procedure, worked example); this file must agree with it,
 * and the tests recompute the document with `canonicalize` as a cross-check.
 *
 * The document is assembled from per-item canonical strings instead of canonicalising twice:
 * RFC 8785 serialises an array as "[" + its canonical elements joined by "," + "]", so the bytes
 * are identical and 10,000 tools cost one pass.
 */
import { sha256Hex } from "@/lib/hash";
import type { Sha256 } from "@/lib/ids";
import {
  UI_RESOURCE_FINGERPRINT_FIELDS,
  pickResourceAppsKeys,
  pickToolAppsKeys,
  type UiResourceItem,
} from "@/lib/surface/apps";
import type {
  ItemHashes,
  PromptItem,
  ResourceItem,
  ResourceTemplateItem,
  Surface,
  SurfaceList,
  ToolItem,
} from "@/lib/surface/types";

export const FINGERPRINT_VERSION = 1;
export const FINGERPRINT_TAG = "relay-review/surface/v1";

/**
 * Fields hashed per list, in the order the spec lists them; absent fields are omitted. `_meta` is
 * stored holding only its MCP Apps keys (lib/surface/apps.ts), and absent without them, so a tool
 * or resource with no Apps metadata hashes exactly as before.
 */
export const FINGERPRINT_FIELDS = {
  tools: ["name", "title", "description", "inputSchema", "outputSchema", "annotations", "_meta"],
  resources: ["uri", "name", "title", "description", "mimeType", "_meta"],
  resourceTemplates: ["uriTemplate", "name", "title", "description", "mimeType"],
  prompts: ["name", "title", "description", "arguments"],
} as const satisfies Record<SurfaceList, readonly string[]>;

/** The key each list is sorted by (compared as UTF-16 code units, as RFC 8785 sorts keys). */
export const SORT_KEY = {
  tools: "name",
  resources: "uri",
  resourceTemplates: "uriTemplate",
  prompts: "name",
} as const;

type AnyItem = ToolItem | ResourceItem | ResourceTemplateItem | PromptItem;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HAS_LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HAS_SURROGATE = /[\uD800-\uDFFF]/; // cheap first test; the lookbehind test runs only on a hit

/** Whether `text` holds a UTF-16 surrogate without its pair (not Unicode; RFC 8785 cannot encode it). */
export function hasLoneSurrogate(text: string): boolean {
  return HAS_SURROGATE.test(text) && HAS_LONE_SURROGATE.test(text);
}

/** What JSON escapes (quote, backslash, controls) and the surrogates RFC 8785 must check. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NEEDS_ESCAPE_OR_CHECK = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/**
 * A string's JSON form (RFC 8785 strings are ECMAScript's); throws on a lone surrogate. Most
 * strings need no escape, and quoting them directly is a third of the cost of JSON.stringify here.
 */
function canonicalString(text: string): string {
  if (!NEEDS_ESCAPE_OR_CHECK.test(text)) return `"${text}"`;
  if (hasLoneSurrogate(text)) throw new TypeError("Lone surrogate is not allowed");
  return JSON.stringify(text);
}

/**
 * RFC 8785 canonical JSON of a JSON value (what JSON.parse produces). Byte-identical to the
 * `canonicalize` package, which the tests use as the oracle; written out here because it is
 * several times faster (pieces collected in one array and joined once, a cheap surrogate test
 * before the exact one, small key lists sorted in place), and the fingerprint of 10,000 tools has a
 * budget. RFC 8785 strings and numbers are ECMAScript's JSON.stringify; keys sort by UTF-16 code
 * units (Array.prototype.sort). Throws on non-JSON input (NaN, Infinity, lone surrogates,
 * functions), as the package does.
 *
 * `keyTexts` caches each key's canonical text (`"key":`) across calls: pass one map to the calls
 * that canonicalise the items of one surface, whose objects repeat the same few keys. It grows by
 * the distinct keys seen, so it must not outlive the values it was filled from.
 */
export function canonicalJson(value: unknown, keyTexts: Map<string, string> = new Map()): string {
  const parts: string[] = [];
  writeCanonical(value, parts, 0, keyTexts);
  return parts.join("");
}

/** Up to this many keys, an object's keys are sorted by insertion (cheaper than a sort call); beyond, by `sort`. */
const INSERTION_SORT_MAX_KEYS = 16;

/** An object's own enumerable keys in UTF-16 code unit order, the order `Array.prototype.sort` gives. */
function sortedKeys(obj: object): string[] {
  const keys = Object.keys(obj);
  if (keys.length > INSERTION_SORT_MAX_KEYS) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i]!;
    let at = i;
    for (; at > 0 && keys[at - 1]! > key; at--) keys[at] = keys[at - 1]!;
    keys[at] = key;
  }
  return keys;
}

function writeCanonical(
  value: unknown,
  parts: string[],
  depth: number,
  keyTexts: Map<string, string>,
): void {
  if (value === null) {
    parts.push("null");
    return;
  }
  if (depth > 256) throw new RangeError("JSON nested too deeply to canonicalise");
  switch (typeof value) {
    case "string":
      parts.push(canonicalString(value));
      return;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError("NaN and Infinity are not allowed");
      parts.push(JSON.stringify(value));
      return;
    case "boolean":
      parts.push(value ? "true" : "false");
      return;
    case "object": {
      if (Array.isArray(value)) {
        parts.push("[");
        for (let i = 0; i < value.length; i++) {
          if (i) parts.push(",");
          const v: unknown = value[i];
          if (v === undefined) parts.push("null");
          else writeCanonical(v, parts, depth + 1, keyTexts);
        }
        parts.push("]");
        return;
      }
      const obj = value as Record<string, unknown>;
      const keys = sortedKeys(obj);
      parts.push("{");
      let isFirst = true;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const v = obj[key];
        if (v === undefined) continue;
        let keyText = keyTexts.get(key);
        if (keyText === undefined) keyTexts.set(key, (keyText = `${canonicalString(key)}:`));
        if (!isFirst) parts.push(",");
        parts.push(keyText);
        isFirst = false;
        writeCanonical(v, parts, depth + 1, keyTexts);
      }
      parts.push("}");
      return;
    }
    default:
      throw new TypeError(`${typeof value} has no JSON form`);
  }
}

/**
 * Rejected items may hold text RFC 8785 cannot encode (lone surrogates). Each one becomes the
 * six-character text `\udXXX` (lower-case hex) before hashing — the spec states this.
 */
export function sanitizeForCanonical(value: unknown): unknown {
  if (typeof value === "string") {
    return value.replace(
      LONE_SURROGATE,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
  if (Array.isArray(value)) return value.map(sanitizeForCanonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, sanitizeForCanonical(k) as string, {
        value: sanitizeForCanonical(v),
        enumerable: true,
      });
    }
    return out;
  }
  return value;
}

/** The hashed projection of one item: only the listed fields, in a fresh object. */
export function projectItem(list: SurfaceList, item: AnyItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const src = item as Record<string, unknown>;
  for (const field of FINGERPRINT_FIELDS[list]) {
    const v = src[field];
    if (v === undefined) continue;
    if (field === "_meta") {
      // Only the MCP Apps keys are surface (docs/fingerprint.md § MCP Apps); none, no member.
      const apps = list === "tools" ? pickToolAppsKeys(v) : pickResourceAppsKeys(v);
      if (apps !== undefined) out[field] = apps;
    } else if (list === "prompts" && field === "arguments" && Array.isArray(v)) {
      out[field] = (v as PromptItem["arguments"] & object).map((a) => {
        const arg: Record<string, unknown> = { name: a.name };
        if (a.description !== undefined) arg.description = a.description;
        if (a.required !== undefined) arg.required = a.required;
        return arg;
      });
    } else {
      out[field] = v;
    }
  }
  return out;
}

export function itemKey(list: SurfaceList, item: AnyItem): string {
  return (item as Record<string, string>)[SORT_KEY[list]] ?? "";
}

/** The hashed projection of one read `ui://` resource (its unread reason is not hashed). */
export function projectUiResource(item: UiResourceItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of UI_RESOURCE_FINGERPRINT_FIELDS) {
    const v = field === "_meta" ? pickResourceAppsKeys(item._meta) : item[field];
    if (v !== undefined) out[field] = v;
  }
  return out;
}

type Canon = { key: string; canon: string };
const byKeyThenCanon = (a: Canon, b: Canon) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.canon < b.canon ? -1 : a.canon > b.canon ? 1 : 0;

export type Fingerprint = { surfaceSha256: Sha256; itemHashes: ItemHashes; canonical: string };

/** Fingerprint a surface. `canonical` is the exact hashed document (handy for docs and debugging). */
export function fingerprintSurface(surface: Surface): Fingerprint {
  const lists = {} as Record<SurfaceList, Canon[]>;
  const itemHashes: ItemHashes = {
    instructions:
      surface.instructions === null ? null : sha256Hex(canonicalJson(surface.instructions)),
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    rejects: [],
  };
  const keyTexts = new Map<string, string>(); // one surface's keys, shared by its items
  for (const list of ["tools", "resources", "resourceTemplates", "prompts"] as const) {
    const items: readonly AnyItem[] = surface[list];
    const canons = items.map((item) => ({
      key: itemKey(list, item),
      canon: canonicalJson(projectItem(list, item), keyTexts),
    }));
    canons.sort(byKeyThenCanon);
    lists[list] = canons;
    itemHashes[list] = canons.map((c) => ({ key: c.key, sha256: sha256Hex(c.canon) }));
  }
  const rejects = surface.rejects
    .map((r) => canonicalJson(sanitizeForCanonical({ list: r.list, raw: r.raw ?? null })))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  itemHashes.rejects = rejects.map(sha256Hex);
  // MCP Apps: the `uiResources` member exists only when the surface has a ui:// resource, so
  // the document (and the hash) of a server without Apps metadata is unchanged.
  const uiCanons = (surface.uiResources ?? [])
    .map((r) => ({ key: r.uri, canon: canonicalJson(projectUiResource(r), keyTexts) }))
    .sort(byKeyThenCanon);
  if (uiCanons.length)
    itemHashes.uiResources = uiCanons.map((c) => ({ key: c.key, sha256: sha256Hex(c.canon) }));

  const arr = (canons: readonly string[]) => `[${canons.join(",")}]`;
  // Top-level keys in RFC 8785 order (UTF-16 code units): fingerprint, instructions, prompts,
  // rejects, resourceTemplates, resources, tools, then uiResources when present.
  const canonical =
    `{"fingerprint":${canonicalJson(FINGERPRINT_TAG)}` +
    `,"instructions":${canonicalJson(surface.instructions)}` +
    `,"prompts":${arr(lists.prompts.map((c) => c.canon))}` +
    `,"rejects":${arr(rejects)}` +
    `,"resourceTemplates":${arr(lists.resourceTemplates.map((c) => c.canon))}` +
    `,"resources":${arr(lists.resources.map((c) => c.canon))}` +
    `,"tools":${arr(lists.tools.map((c) => c.canon))}` +
    (uiCanons.length ? `,"uiResources":${arr(uiCanons.map((c) => c.canon))}` : "") +
    "}";
  return { surfaceSha256: sha256Hex(canonical), itemHashes, canonical };
}

/** The document `fingerprintSurface` hashes, as a plain value (for tests and the spec's example). */
export function fingerprintDocument(surface: Surface): unknown {
  const sorted = (list: SurfaceList, items: readonly AnyItem[]) =>
    items
      .map((item) => ({
        key: itemKey(list, item),
        canon: canonicalJson(projectItem(list, item)),
        item: projectItem(list, item),
      }))
      .sort(byKeyThenCanon)
      .map((c) => c.item);
  const uiResources = (surface.uiResources ?? [])
    .map((r) => ({
      key: r.uri,
      canon: canonicalJson(projectUiResource(r)),
      item: projectUiResource(r),
    }))
    .sort(byKeyThenCanon)
    .map((c) => c.item);
  return {
    ...(uiResources.length ? { uiResources } : {}),
    fingerprint: FINGERPRINT_TAG,
    instructions: surface.instructions,
    tools: sorted("tools", surface.tools),
    resources: sorted("resources", surface.resources),
    resourceTemplates: sorted("resourceTemplates", surface.resourceTemplates),
    prompts: sorted("prompts", surface.prompts),
    rejects: surface.rejects
      .map((r) => sanitizeForCanonical({ list: r.list, raw: r.raw ?? null }))
      .sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1)),
  };
}
