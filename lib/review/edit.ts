/** Small pure edits of review collections, shared by the editors that change them. */

/** `items` with `item` replacing the entry of the same id, or appended when there is none. */
export function upsertById<T extends { id: string }>(items: readonly T[], item: T): T[] {
  const index = items.findIndex((x) => x.id === item.id);
  return index === -1 ? [...items, item] : items.map((x, i) => (i === index ? item : x));
}
