/**
 * A tool set as a decision binds it: tool refs sorted by server id then tool name, duplicates
 * dropped, extra fields stripped. In the shared layer because both the decision binding
 * (lib/decisions) and the approval control's binding (lib/controls) normalise tool refs, and the
 * controls may not import lib/decisions (which imports them).
 */
import type { ToolRef } from "@/lib/review/schema";

/** Code-unit order, not locale order: the same on every machine. */
export const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Tool refs sorted by server id then tool name, duplicates dropped, extra fields stripped. */
export function normalizeToolSet(refs: readonly ToolRef[]): ToolRef[] {
  const byKey = new Map<string, ToolRef>();
  // Two strings in a JSON array: an injective key for the pair, as their canonical JSON would be.
  for (const ref of refs)
    byKey.set(JSON.stringify([ref.serverId, ref.tool]), { serverId: ref.serverId, tool: ref.tool });
  return [...byKey.values()].sort(
    (a, b) => compareText(a.serverId, b.serverId) || compareText(a.tool, b.tool),
  );
}

/** Distinct strings in code-unit order: a set-valued field, so that a reorder is not a change. */
export const sortedSet = (items: readonly string[]) => [...new Set(items)].sort(compareText);
