/**
 * The surface fingerprint: SHA-256 over the RFC 8785 canonical JSON of the server-authored
 * surface, independent of list order, plus one SHA-256 per item. docs/fingerprint.md is the
 * specification (fields, sort keys, procedure, worked example); this file must agree with it,
 * and the tests recompute the document with `canonicalize` as a cross-check.
 *
 * The document is hashed from the per-item canonical strings instead of canonicalising twice:
 * RFC 8785 serialises an array as "[" + its canonical elements joined by "," + "]", so the bytes
 * are identical and 10,000 tools cost one pass. They are fed to the hash in order, never joined.
 */
import { createHash } from "node:crypto";
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
 * several times faster, and the fingerprint of 10,000 tools has a budget. RFC 8785 strings and
 * numbers are ECMAScript's JSON.stringify; keys sort by UTF-16 code units (Array.prototype.sort).
 * Throws on non-JSON input (NaN, Infinity, lone surrogates, functions), as the package does.
 *
 * Most values take the native path: a copy whose objects hold their keys in that order, written
 * by JSON.stringify, which then writes exactly these bytes (see `sortedCopy` for when it cannot,
 * and those values are written piece by piece instead).
 *
 * `keyTexts` caches each key's canonical text (`"key":`) across calls of the piecewise writer: pass
 * one map to the calls that canonicalise the items of one surface, whose objects repeat the same
 * few keys. It grows by the distinct keys seen, so it must not outlive the values it was filled from.
 */
export function canonicalJson(value: unknown, keyTexts: Map<string, string> = new Map()): string {
  const copy = sortedCopy(value, 0);
  if (copy !== NO_COPY) {
    const text = JSON.stringify(copy);
    // JSON.stringify writes a lone surrogate as the escape `\udXXX`, where RFC 8785 has no form
    // (the piecewise writer throws). The text `\ud` appears only so or from a string holding a
    // backslash before "ud", so both go the piecewise way, which throws or writes the same bytes.
    if (!text.includes("\\ud")) return text;
  }
  const parts: string[] = [];
  writeCanonical(value, parts, 0, keyTexts);
  return parts.join("");
}

/**
 * `canonicalJson` of each value, the same strings, written by one JSON.stringify call per batch of
 * values rather than one per value (a call costs a few microseconds beyond its bytes, which at
 * 10,000 tools is most of the writing). The copies of a batch are written as one array with a
 * separator string between them, and the text is cut at each separator's written form: that
 * form, `,"\u0000…",`, appears elsewhere only where a value holds an array element equal to the
 * separator. Such a match cannot overlap a real separator (the form overlaps itself only at its
 * comma, and no value's text ends in an unescaped `,"…"`), so it makes more pieces than values,
 * and a batch that does not cut into exactly its values is written one value at a time instead.
 */
export function canonicalJsonEach(
  values: readonly unknown[],
  keyTexts: Map<string, string> = new Map(),
): string[] {
  const out = new Array<string>(values.length);
  for (let start = 0; start < values.length; start += CANONICAL_BATCH) {
    const end = Math.min(values.length, start + CANONICAL_BATCH);
    const batch: unknown[] = [];
    for (let i = start; i < end; i++) {
      const copy = sortedCopy(values[i], 0);
      if (copy === NO_COPY) break;
      if (i > start) batch.push(BATCH_SEPARATOR);
      batch.push(copy);
    }
    if (batch.length === 2 * (end - start) - 1) {
      const text = JSON.stringify(batch);
      const pieces = text.slice(1, -1).split(BATCH_SEPARATOR_TEXT);
      if (pieces.length === end - start) {
        // As in `canonicalJson`: `\ud` may be a lone surrogate's escape, which that value's own
        // call throws on (or it is a backslash before "ud", written the same way).
        for (let i = 0; i < pieces.length; i++) {
          const piece = pieces[i]!;
          out[start + i] = piece.includes("\\ud")
            ? canonicalJson(values[start + i], keyTexts)
            : piece;
        }
        continue;
      }
    }
    for (let i = start; i < end; i++) out[i] = canonicalJson(values[i], keyTexts);
  }
  return out;
}

/** Values written per JSON.stringify call by `canonicalJsonEach`. */
const CANONICAL_BATCH = 100;
/** Between two values of a batch: a string no JSON text a server sends is likely to hold as an element. */
const BATCH_SEPARATOR = "\u0000relay-review canonical batch separator\u0000";
const BATCH_SEPARATOR_TEXT = `,${JSON.stringify(BATCH_SEPARATOR)},`;

/** What `sortedCopy` returns for a value JSON.stringify would not write canonically. */
const NO_COPY: unique symbol = Symbol("no canonical copy");

/**
 * The value, or a copy of it, whose every object has its own keys in RFC 8785 order (UTF-16 code
 * units), so JSON.stringify writes it canonically: strings and numbers are ECMAScript's either way,
 * members whose value is undefined are left out, and undefined array elements are null, as in
 * `writeCanonical`. An object or array is copied only when it or something in it must change;
 * one kept is written by JSON.stringify as it is, so it must not have a `toJSON` method (a copy
 * is a plain object, which has none). `NO_COPY` where no copy would serialise to the canonical
 * bytes or the value is not JSON (`writeCanonical` then throws or writes it):
 * - a key that starts with a digit: an object lists array-index keys ("9", "10") first in numeric
 *   order, whatever order they were added in;
 * - a key `__proto__`: assigning it sets the copy's prototype instead of adding a member;
 * - NaN, ±Infinity (JSON.stringify writes null), a function, symbol or bigint, nesting deeper
 *   than `writeCanonical` allows.
 * Lone surrogates are caught after serialising (`canonicalJson`), so strings are not scanned here.
 */
function sortedCopy(value: unknown, depth: number): unknown {
  if (value === null) return null;
  if (depth > MAX_CANONICAL_DEPTH) return NO_COPY;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : NO_COPY;
    case "object": {
      const keepable = typeof (value as { toJSON?: unknown }).toJSON !== "function";
      if (Array.isArray(value)) {
        // Array.from: a plain array, not one of a subclass (whose toJSON JSON.stringify would call).
        let out: unknown[] | null = keepable ? null : Array.from(value as unknown[]);
        for (let i = 0; i < value.length; i++) {
          const v: unknown = value[i];
          if (v === undefined) continue; // written as null, kept or copied
          const c = sortedCopy(v, depth + 1);
          if (c === NO_COPY) return NO_COPY;
          if (c !== v) (out ??= value.slice())[i] = c;
        }
        return out ?? value;
      }
      const obj = value as Record<string, unknown>;
      const keys = Object.keys(obj);
      let isSorted = keepable;
      for (let i = 1; isSorted && i < keys.length; i++) isSorted = keys[i - 1]! < keys[i]!;
      if (!isSorted) sortInPlace(keys);
      let out: Record<string, unknown> | null = null;
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i]!;
        const first = key.charCodeAt(0);
        if ((first >= 48 && first <= 57) || key === "__proto__") return NO_COPY;
        const v = obj[key];
        if (v === undefined) continue;
        const c = sortedCopy(v, depth + 1);
        if (c === NO_COPY) return NO_COPY;
        if (out === null && (c !== v || !isSorted)) {
          // The first change: the members before it are kept as they are.
          out = {};
          for (let j = 0; j < i; j++)
            if (obj[keys[j]!] !== undefined) out[keys[j]!] = obj[keys[j]!];
        }
        if (out !== null) out[key] = c;
      }
      return out ?? (isSorted ? value : {}); // {}: no member was written, but the object must change
    }
    default:
      return NO_COPY;
  }
}

/** Deepest nesting `writeCanonical` writes (it throws beyond). */
const MAX_CANONICAL_DEPTH = 256;

/** Up to this many keys, an object's keys are sorted by insertion (cheaper than a sort call); beyond, by `sort`. */
const INSERTION_SORT_MAX_KEYS = 16;

/** An object's own enumerable keys in UTF-16 code unit order, the order `Array.prototype.sort` gives. */
function sortedKeys(obj: object): string[] {
  return sortInPlace(Object.keys(obj));
}

/** Keys sorted in place, by UTF-16 code units. */
function sortInPlace(keys: string[]): string[] {
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
  if (depth > MAX_CANONICAL_DEPTH) throw new RangeError("JSON nested too deeply to canonicalise");
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

export type Fingerprint = {
  surfaceSha256: Sha256;
  itemHashes: ItemHashes;
  /** The exact hashed document (for docs, tests and debugging), assembled when read. */
  readonly canonical: string;
};

/** Fingerprint a surface. */
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
    const texts = canonicalJsonEach(
      items.map((item) => projectItem(list, item)),
      keyTexts,
    );
    const canons = items.map((item, i) => ({ key: itemKey(list, item), canon: texts[i]! }));
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

  // Top-level keys in RFC 8785 order (UTF-16 code units): fingerprint, instructions, prompts,
  // rejects, resourceTemplates, resources, tools, then uiResources when present.
  const members: [string, readonly string[] | string][] = [
    ["fingerprint", canonicalJson(FINGERPRINT_TAG)],
    ["instructions", canonicalJson(surface.instructions)],
    ["prompts", lists.prompts.map((c) => c.canon)],
    ["rejects", rejects],
    ["resourceTemplates", lists.resourceTemplates.map((c) => c.canon)],
    ["resources", lists.resources.map((c) => c.canon)],
    ["tools", lists.tools.map((c) => c.canon)],
    ...(uiCanons.length
      ? [["uiResources", uiCanons.map((c) => c.canon)] as [string, string[]]]
      : []),
  ];
  // The document is hashed piece by piece, never assembled: one string of 10,000 tools is
  // megabytes to copy twice (joined, then encoded for the hash), for text only tests read.
  const doc = new Utf8Sha256();
  writeDocument(members, (piece) => doc.update(piece));
  return {
    surfaceSha256: doc.hexDigest(),
    itemHashes,
    get canonical() {
      const pieces: string[] = [];
      writeDocument(members, (piece) => pieces.push(piece));
      return pieces.join("");
    },
  };
}

/** The document's text, in order: `{"key":value,…}`, each list as `[canon,canon,…]`. */
function writeDocument(
  members: readonly [string, readonly string[] | string][],
  write: (piece: string) => void,
): void {
  for (let m = 0; m < members.length; m++) {
    const [key, value] = members[m]!;
    write(`${m ? "," : "{"}"${key}":`);
    if (typeof value === "string") write(value);
    else {
      write("[");
      for (let i = 0; i < value.length; i++) {
        if (i) write(",");
        write(value[i]!);
      }
      write("]");
    }
  }
  write("}");
}

/** Bytes gathered before they are hashed: many short pieces cost one hash update per chunk. */
const HASH_CHUNK_BYTES = 64 * 1024;

/** SHA-256 of the UTF-8 of strings fed in order, as of their concatenation. */
class Utf8Sha256 {
  private readonly hash = createHash("sha256");
  private readonly chunk = Buffer.allocUnsafe(HASH_CHUNK_BYTES);
  private used = 0;

  update(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair, 4 for 2).
    const most = text.length * 3;
    if (most > HASH_CHUNK_BYTES - this.used) {
      this.flush();
      if (most > HASH_CHUNK_BYTES) {
        this.hash.update(text, "utf8");
        return;
      }
    }
    this.used += this.chunk.write(text, this.used, "utf8");
  }

  hexDigest(): Sha256 {
    this.flush();
    // Safe: a SHA-256 hex digest is exactly what Sha256Schema accepts (64 lower-case hex).
    return this.hash.digest("hex") as Sha256;
  }

  private flush(): void {
    if (this.used) this.hash.update(this.chunk.subarray(0, this.used));
    this.used = 0;
  }
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
