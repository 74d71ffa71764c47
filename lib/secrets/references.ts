/**
 * Variable references and names: `${NAME}` where a value goes (in a stdio argument, an HTTP URL's
 * query or path), the names the workbench keeps for itself, and scrubbing values back out of what
 * a server echoes. A review never holds a value. Which names a review's transport needs is
 * lib/review/transport-variables.ts. Pure.
 *
 * `RELAY_REVIEW_*` and `DATABASE_URL` are the workbench's own: never resolvable for a server,
 * whatever a launcher, an HTTP target or a review says (issue 15).
 */

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** `${NAME}`, also as a URL path encodes it (`$%7BNAME%7D`). */
const REFERENCE = /\$(?:\{|%7B)([A-Za-z_][A-Za-z0-9_]{0,127})(?:\}|%7D)/gi;

/** Names the workbench keeps for itself. */
export function isReservedName(name: string): boolean {
  return name.startsWith("RELAY_REVIEW_") || name === "DATABASE_URL";
}

export const RESERVED_NAMES_RULE =
  "RELAY_REVIEW_* and DATABASE_URL belong to the workbench and are never given to a server";

/** The names referenced as `${NAME}` in a string, in order of first appearance. */
export function referencesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(REFERENCE)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/** Whether the whole string is one reference (`${NAME}`), so it holds no value of its own. */
export function isWholeReference(text: string): boolean {
  const m = /^\$\{([A-Za-z_][A-Za-z0-9_]{0,127})\}$/.exec(text);
  return m !== null;
}

/** Replace each `${NAME}` with its value; names missing from `values` stay as they are. */
export function substituteReferences(
  text: string,
  values: ReadonlyMap<string, string>,
  encode: (v: string) => string = (v) => v,
): string {
  return text.replace(REFERENCE, (whole, name: string) => {
    const v = values.get(name);
    return v === undefined ? whole : encode(v);
  });
}

/** Below this a value is too short to tell from ordinary text, and replacing it would garble the document. */
const MIN_SCRUB_LENGTH = 6;

/**
 * `doc` with every occurrence of a given value replaced by `[secret NAME]`: what a server echoes
 * back of what it was given (in a description, an error) is stored as the fact, not the value.
 * Returns the same object when nothing matched.
 */
export function scrubValues<T>(doc: T, values: ReadonlyMap<string, string>): T {
  const pairs = [...values]
    .filter(([, v]) => v.length >= MIN_SCRUB_LENGTH)
    .sort((a, b) => b[1].length - a[1].length);
  if (pairs.length === 0) return doc;
  const text = JSON.stringify(doc);
  if (text === undefined || !pairs.some(([, v]) => text.includes(JSON.stringify(v).slice(1, -1))))
    return doc;
  const scrub = (x: unknown): unknown => {
    if (typeof x === "string")
      return pairs.reduce((s, [name, v]) => s.split(v).join(`[secret ${name}]`), x);
    if (Array.isArray(x)) return x.map(scrub);
    if (x && typeof x === "object")
      return Object.fromEntries(Object.entries(x).map(([k, v]) => [scrub(k) as string, scrub(v)]));
    return x;
  };
  return scrub(doc) as T;
}
