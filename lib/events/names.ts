/**
 * Events are logged with ids (`srv-…`, `agent-…`, a review's id); the Changes page and a review's
 * timeline show names. This builds the id → name table from the reviews the events belong to and
 * rewrites a line of text with it. Ids not in the table stay as they are (a server removed since
 * keeps its id, which is then the only name it has).
 */
import type { Review } from "@/lib/review/schema";

/** At most this many ids are rewritten in one text (a review has at most a few hundred). */
export const NAMED_IDS_MAX = 2000;

export type IdNames = ReadonlyMap<string, string>;

/** Every id of a review (itself, its servers, agents and sources) with the name a reader knows it by. */
export function idNamesOf(reviews: readonly { id: string; review: Review }[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of reviews) {
    out.set(r.id, r.review.title);
    for (const s of r.review.servers) out.set(s.id, s.name);
    for (const a of r.review.agents) out.set(a.id, a.name);
    for (const s of r.review.sources) out.set(s.id, s.name);
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `text` with each whole-word id in `names` replaced by its name. */
export function withNames(text: string, names: IdNames): string {
  if (names.size === 0 || text.length === 0) return text;
  // Longest first, so an id that extends another is replaced whole.
  const ids = [...names.keys()]
    .filter((id) => id.length > 0)
    .sort((a, b) => b.length - a.length)
    .slice(0, NAMED_IDS_MAX);
  if (ids.length === 0) return text;
  const pattern = new RegExp(`(?<![\\w-])(?:${ids.map(escape).join("|")})(?![\\w-])`, "g");
  return text.replace(pattern, (id) => names.get(id) ?? id);
}
