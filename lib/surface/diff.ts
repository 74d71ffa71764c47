/**
 * Drift between two surfaces: items added, removed and changed (matched by each list's sort key),
 * and for a changed item which hashed fields differ, with before/after values. Fields compare by
 * canonical JSON, so key order inside a schema is not a change and anything the fingerprint
 * sees is. Pure.
 */
import { UI_RESOURCE_FINGERPRINT_FIELDS } from "@/lib/surface/apps";
import {
  FINGERPRINT_FIELDS,
  canonicalJson,
  itemKey,
  projectItem,
  projectUiResource,
  sanitizeForCanonical,
} from "@/lib/surface/fingerprint";
import { SURFACE_LISTS, type Surface, type SurfaceList } from "@/lib/surface/types";

export type FieldChange = { field: string; before: unknown; after: unknown };
export type ItemRef = { list: SurfaceList; key: string };
export type SurfaceDiff = {
  isEqual: boolean;
  added: (ItemRef & { item: Record<string, unknown> })[];
  removed: (ItemRef & { item: Record<string, unknown> })[];
  changed: (ItemRef & { fields: FieldChange[] })[];
  instructions: { before: string | null; after: string | null } | null;
  rejects: { added: unknown[]; removed: unknown[] };
  /** MCP Apps `ui://` resources as read (by URI); present only when either side has one. */
  uiResources?: {
    added: { key: string; item: Record<string, unknown> }[];
    removed: { key: string; item: Record<string, unknown> }[];
    changed: { key: string; fields: FieldChange[] }[];
  };
};

function indexBy(
  list: SurfaceList,
  items: readonly object[],
): Map<string, Record<string, unknown>> {
  const m = new Map<string, Record<string, unknown>>();
  for (const item of items) {
    const key = itemKey(list, item as never);
    if (!m.has(key)) m.set(key, projectItem(list, item as never));
  }
  return m;
}

/** What changed from `before` to `after`. */
export function diffSurfaces(before: Surface, after: Surface): SurfaceDiff {
  const out: SurfaceDiff = {
    isEqual: true,
    added: [],
    removed: [],
    changed: [],
    instructions: null,
    rejects: { added: [], removed: [] },
  };
  for (const list of SURFACE_LISTS) {
    const a = indexBy(list, before[list]);
    const b = indexBy(list, after[list]);
    for (const [key, item] of b) if (!a.has(key)) out.added.push({ list, key, item });
    for (const [key, item] of a) if (!b.has(key)) out.removed.push({ list, key, item });
    for (const [key, x] of a) {
      const y = b.get(key);
      if (!y) continue;
      const fields: FieldChange[] = [];
      for (const field of FINGERPRINT_FIELDS[list]) {
        const bx = x[field];
        const by = y[field];
        const same =
          bx === undefined || by === undefined
            ? bx === by
            : canonicalJson(bx) === canonicalJson(by);
        if (!same) fields.push({ field, before: bx, after: by });
      }
      if (fields.length) out.changed.push({ list, key, fields });
    }
  }
  if (before.instructions !== after.instructions) {
    out.instructions = { before: before.instructions, after: after.instructions };
  }
  const canonReject = (r: Surface["rejects"][number]) =>
    canonicalJson(sanitizeForCanonical({ list: r.list, raw: r.raw ?? null }));
  const ra = new Map(before.rejects.map((r) => [canonReject(r), r.raw]));
  const rb = new Map(after.rejects.map((r) => [canonReject(r), r.raw]));
  for (const [k, raw] of rb) if (!ra.has(k)) out.rejects.added.push(raw);
  for (const [k, raw] of ra) if (!rb.has(k)) out.rejects.removed.push(raw);
  if (before.uiResources?.length || after.uiResources?.length) {
    const ui: NonNullable<SurfaceDiff["uiResources"]> = { added: [], removed: [], changed: [] };
    const index = (items: Surface["uiResources"]) =>
      new Map((items ?? []).map((r) => [r.uri, projectUiResource(r)]));
    const a = index(before.uiResources);
    const b = index(after.uiResources);
    for (const [key, item] of b) if (!a.has(key)) ui.added.push({ key, item });
    for (const [key, item] of a) if (!b.has(key)) ui.removed.push({ key, item });
    for (const [key, x] of a) {
      const y = b.get(key);
      if (!y) continue;
      const fields: FieldChange[] = [];
      for (const field of UI_RESOURCE_FINGERPRINT_FIELDS) {
        const bx = x[field];
        const by = y[field];
        const same =
          bx === undefined || by === undefined
            ? bx === by
            : canonicalJson(bx) === canonicalJson(by);
        if (!same) fields.push({ field, before: bx, after: by });
      }
      if (fields.length) ui.changed.push({ key, fields });
    }
    if (ui.added.length || ui.removed.length || ui.changed.length) out.uiResources = ui;
  }
  out.isEqual =
    !out.uiResources &&
    !out.added.length &&
    !out.removed.length &&
    !out.changed.length &&
    out.instructions === null &&
    !out.rejects.added.length &&
    !out.rejects.removed.length;
  return out;
}

const LIST_LABEL: Record<SurfaceList | "uiResources", string> = {
  uiResources: "UI resource",
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
};

const show = (v: unknown) =>
  v === undefined ? "(absent)" : typeof v === "string" ? JSON.stringify(v) : canonicalJson(v);

/** Plain-text rendering of a diff for the CLI and logs (server text is JSON-quoted, never raw). */
export function formatSurfaceDiff(diff: SurfaceDiff): string {
  if (diff.isEqual) return "no differences";
  const lines: string[] = [];
  for (const a of diff.added) lines.push(`+ ${LIST_LABEL[a.list]} ${JSON.stringify(a.key)}`);
  for (const r of diff.removed) lines.push(`- ${LIST_LABEL[r.list]} ${JSON.stringify(r.key)}`);
  for (const c of diff.changed) {
    lines.push(
      `~ ${LIST_LABEL[c.list]} ${JSON.stringify(c.key)}: ${c.fields.map((f) => f.field).join(", ")} changed`,
    );
    for (const f of c.fields) {
      lines.push(`    ${f.field} before: ${show(f.before)}`);
      lines.push(`    ${f.field} after:  ${show(f.after)}`);
    }
  }
  if (diff.instructions) {
    lines.push(`~ instructions changed`);
    lines.push(`    before: ${show(diff.instructions.before)}`);
    lines.push(`    after:  ${show(diff.instructions.after)}`);
  }
  for (const a of diff.uiResources?.added ?? [])
    lines.push(`+ UI resource ${JSON.stringify(a.key)}`);
  for (const r of diff.uiResources?.removed ?? [])
    lines.push(`- UI resource ${JSON.stringify(r.key)}`);
  for (const c of diff.uiResources?.changed ?? []) {
    lines.push(
      `~ UI resource ${JSON.stringify(c.key)}: ${c.fields.map((f) => f.field).join(", ")} changed`,
    );
    for (const f of c.fields) {
      lines.push(`    ${f.field} before: ${show(f.before)}`);
      lines.push(`    ${f.field} after:  ${show(f.after)}`);
    }
  }
  for (const r of diff.rejects.added) lines.push(`+ rejected item ${show(r)}`);
  for (const r of diff.rejects.removed) lines.push(`- rejected item ${show(r)}`);
  return lines.join("\n");
}

/** One item of a surface that changed, as a decision's stale message and a blocked refusal name it. */
export type SurfaceItemChange = {
  list: SurfaceList | "instructions" | "uiResources";
  key: string;
  change: "added" | "removed" | "changed";
  fields: string[];
};

/** The items a diff touches, in a stable order: added, removed, changed, then the instructions. */
export function surfaceItemChanges(diff: SurfaceDiff): SurfaceItemChange[] {
  return [
    ...diff.added.map((a): SurfaceItemChange => ({
      list: a.list,
      key: a.key,
      change: "added",
      fields: [],
    })),
    ...diff.removed.map((r): SurfaceItemChange => ({
      list: r.list,
      key: r.key,
      change: "removed",
      fields: [],
    })),
    ...diff.changed.map((c): SurfaceItemChange => ({
      list: c.list,
      key: c.key,
      change: "changed",
      fields: c.fields.map((f) => f.field),
    })),
    ...(diff.instructions
      ? [{ list: "instructions" as const, key: "", change: "changed" as const, fields: [] }]
      : []),
    ...(diff.uiResources
      ? [
          ...diff.uiResources.added.map((a): SurfaceItemChange => ({
            list: "uiResources",
            key: a.key,
            change: "added",
            fields: [],
          })),
          ...diff.uiResources.removed.map((r): SurfaceItemChange => ({
            list: "uiResources",
            key: r.key,
            change: "removed",
            fields: [],
          })),
          ...diff.uiResources.changed.map((c): SurfaceItemChange => ({
            list: "uiResources",
            key: c.key,
            change: "changed",
            fields: c.fields.map((f) => f.field),
          })),
        ]
      : []),
  ];
}

/** How many items a one-line summary names before "and N more". */
export const ITEM_SUMMARY_LIMIT = 5;

/** `tool "read_page" changed (description); tool "export" added`: server text JSON-quoted, at most ITEM_SUMMARY_LIMIT items. */
export function describeItemChanges(items: readonly SurfaceItemChange[]): string {
  const one = (i: SurfaceItemChange) =>
    i.list === "instructions"
      ? "the server's instructions changed"
      : `${LIST_LABEL[i.list]} ${JSON.stringify(i.key)} ${i.change}${i.fields.length ? ` (${i.fields.join(", ")})` : ""}`;
  const shown = items.slice(0, ITEM_SUMMARY_LIMIT).map(one);
  if (items.length > ITEM_SUMMARY_LIMIT)
    shown.push(`and ${items.length - ITEM_SUMMARY_LIMIT} more`);
  return shown.join("; ");
}
