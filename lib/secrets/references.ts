/**
 * Variable references in a transport: the names a server needs and where the workbench puts their
 * values at connect time. A review never holds a value; it holds `${NAME}` where one goes (in a
 * stdio argument, an HTTP URL's query or path) and names in `envNames` / `headerEnv`. Pure.
 *
 * `RELAY_REVIEW_*` and `DATABASE_URL` are the workbench's own: never resolvable for a server,
 * whatever a launcher, an HTTP target or a review says (issue 15).
 */
import type { Transport } from "@/lib/review/schema";

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

export type TransportVariables = {
  /** Passed as environment variables (stdio). */
  env: string[];
  /** Substituted into arguments (stdio). */
  args: string[];
  /** Header name → variable (http/sse). */
  headers: Record<string, string>;
  /** Substituted into the URL (http/sse). */
  url: string[];
};

export function transportVariables(t: Transport): TransportVariables {
  switch (t.kind) {
    case "stdio":
      return {
        env: [...t.envNames],
        args: [...new Set(t.args.flatMap(referencesIn))],
        headers: {},
        url: [],
      };
    case "http":
    case "sse":
      return { env: [], args: [], headers: { ...t.headerEnv }, url: referencesIn(t.url) };
    case "manual":
      return { env: [], args: [], headers: {}, url: [] };
  }
}

/** Every variable name a transport needs, sorted and unique. */
export function transportVariableNames(t: Transport): string[] {
  const v = transportVariables(t);
  return [...new Set([...v.env, ...v.args, ...Object.values(v.headers), ...v.url])].sort();
}

/**
 * How the share view shows a transport: what the decision record shows (kind and variable
 * names), plus the command's base name or the URL's origin, which say what runs or where without
 * any argument, path or query that could carry a value.
 */
export type SharedTransport = {
  kind: Transport["kind"];
  command: string | null;
  origin: string | null;
  envNames: string[];
  headerEnv: Record<string, string>;
};

export function sharedTransport(t: Transport): SharedTransport {
  const envNames = transportVariableNames(t);
  switch (t.kind) {
    case "stdio":
      return {
        kind: "stdio",
        command: t.command.replace(/\\/g, "/").split("/").pop()!.slice(0, 120),
        origin: null,
        envNames,
        headerEnv: {},
      };
    case "http":
    case "sse": {
      let origin: string | null = null;
      try {
        origin = new URL(t.url).origin;
      } catch {
        origin = null;
      }
      return { kind: t.kind, command: null, origin, envNames, headerEnv: { ...t.headerEnv } };
    }
    case "manual":
      return { kind: "manual", command: null, origin: null, envNames: [], headerEnv: {} };
  }
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
