/** Small pure edits of review collections, shared by the editors that change them. */
import type { SourceId } from "@/lib/ids";
import {
  MAX_SAMPLES_KEPT,
  TOOL_ROLES,
  type AssessedItemKind,
  type SampleEvidence,
  type ToolAssessment,
  type ToolRef,
  type ToolRole,
} from "@/lib/review/schema";

/** `items` with `item` replacing the entry of the same id, or appended when there is none. */
export function upsertById<T extends { id: string }>(items: readonly T[], item: T): T[] {
  const index = items.findIndex((x) => x.id === item.id);
  return index === -1 ? [...items, item] : items.map((x, i) => (i === index ? item : x));
}

/** One item of a review (a tool unless `item` says otherwise), whatever characters its server id and name hold. */
const refKey = (ref: ToolRef & { item?: AssessedItemKind }) =>
  JSON.stringify([ref.serverId, ref.tool, ref.item ?? "tool"]);

/**
 * `tools` with each of `changes` replacing the assessment of the same tool in place, and the rest
 * appended in their order: one pass and a map, since a bulk edit may touch every tool of a review.
 * A tool named twice in `changes` keeps the last. A change without samples keeps the tool's: the
 * role editors build assessments from roles and sources, and a sample is not theirs to drop.
 */
export function upsertToolAssessments(
  tools: readonly ToolAssessment[],
  changes: readonly ToolAssessment[],
): ToolAssessment[] {
  const pending = new Map(changes.map((c) => [refKey(c), c]));
  const out = tools.map((t) => {
    const key = refKey(t);
    const change = pending.get(key);
    if (!change) return t;
    pending.delete(key);
    return t.samples && !change.samples ? { ...change, samples: t.samples } : change;
  });
  return [...out, ...pending.values()];
}

/**
 * `tools` with `sample` added to the assessment of `ref`, keeping its last MAX_SAMPLES_KEPT; null
 * when the review does not assess that item (there is nothing to keep the sample with).
 */
export function addSample(
  tools: readonly ToolAssessment[],
  ref: ToolRef & { item?: AssessedItemKind },
  sample: SampleEvidence,
): ToolAssessment[] | null {
  const key = refKey(ref);
  const index = tools.findIndex((t) => refKey(t) === key);
  if (index === -1) return null;
  return tools.map((t, i) =>
    i === index ? { ...t, samples: [...(t.samples ?? []), sample].slice(-MAX_SAMPLES_KEPT) } : t,
  );
}

/**
 * One action on the roles or sources of many tools; each acts on what the reviewer sees for a tool.
 * Mapping a source (`map_source`/`unmap_source`) changes which sources' text a tool returns and
 * leaves its roles as they are: a suggestion stays a suggestion until the reviewer confirms it.
 */
export type RoleEdit =
  | { kind: "confirm" }
  | { kind: "set"; role: ToolRole }
  | { kind: "strike"; role: ToolRole }
  | { kind: "map_source"; sourceId: SourceId }
  | { kind: "unmap_source"; sourceId: SourceId };

/** The roles a tool is confirmed with after `edit` on the roles shown for it, in `TOOL_ROLES` order. */
export function editedRoles(shown: readonly ToolRole[], edit: RoleEdit): ToolRole[] {
  const roles = new Set(shown);
  if (edit.kind === "set") roles.add(edit.role);
  if (edit.kind === "strike") roles.delete(edit.role);
  return TOOL_ROLES.filter((r) => roles.has(r));
}

/**
 * The confirmed assessments `edit` makes of `tools`, each given the roles shown for it (its
 * suggestion, or what the reviewer confirmed before) and the sources it keeps. Only tools whose
 * saved assessment would change are returned, so confirming what is already confirmed saves nothing.
 */
export function bulkRoleAssessments(
  tools: readonly {
    ref: ToolRef & { item?: AssessedItemKind };
    shownRoles: readonly ToolRole[];
    sourceIds: readonly SourceId[];
    confirmed: boolean;
  }[],
  edit: RoleEdit,
): ToolAssessment[] {
  const out: ToolAssessment[] = [];
  if (edit.kind === "map_source" || edit.kind === "unmap_source") {
    const on = edit.kind === "map_source";
    for (const t of tools) {
      if (t.sourceIds.includes(edit.sourceId) === on) continue;
      const item = t.ref.item && t.ref.item !== "tool" ? { item: t.ref.item } : {};
      out.push({
        serverId: t.ref.serverId,
        tool: t.ref.tool,
        ...item,
        roles: TOOL_ROLES.filter((r) => t.shownRoles.includes(r)),
        sourceIds: on
          ? [...t.sourceIds, edit.sourceId]
          : t.sourceIds.filter((s) => s !== edit.sourceId),
        rolesConfirmed: t.confirmed,
      });
    }
    return out;
  }
  for (const t of tools) {
    const roles = editedRoles(t.shownRoles, edit);
    const same =
      t.confirmed &&
      roles.length === t.shownRoles.length &&
      roles.every((r) => t.shownRoles.includes(r));
    if (same) continue;
    const item = t.ref.item && t.ref.item !== "tool" ? { item: t.ref.item } : {};
    out.push({
      serverId: t.ref.serverId,
      tool: t.ref.tool,
      ...item,
      roles,
      sourceIds: [...t.sourceIds],
      rolesConfirmed: true,
    });
  }
  return out;
}

/**
 * An agent's tools with each of `refs` held (`on`) or dropped; the order of the tools it keeps
 * stays, added ones come last, and a tool is never listed twice.
 */
export function setToolsHeld(
  held: readonly ToolRef[],
  refs: readonly ToolRef[],
  on: boolean,
): ToolRef[] {
  const touched = new Set(refs.map(refKey));
  if (!on) return held.filter((t) => !touched.has(refKey(t)));
  const have = new Set(held.map(refKey));
  const added: ToolRef[] = [];
  for (const ref of refs) {
    const key = refKey(ref);
    if (have.has(key)) continue;
    have.add(key);
    added.push({ serverId: ref.serverId, tool: ref.tool });
  }
  return [...held, ...added];
}
