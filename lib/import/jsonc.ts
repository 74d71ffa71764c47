/**
 * JSON with comments and trailing commas (VS Code's `.vscode/mcp.json` dialect, also fine for
 * strict JSON), parsed with the line and column of every value, so that an import error can name
 * the line and the field. Pure. Bounded: nesting deeper than MAX_DEPTH and texts longer than
 * MAX_CONFIG_LENGTH are refused. Duplicate keys are an error (JSON.parse would keep the last one
 * silently, and a config with two entries of the same server name is ambiguous).
 */

export const MAX_CONFIG_LENGTH = 1_000_000;
const MAX_DEPTH = 64;

export type Position = { line: number; column: number };
export type JsoncIssue = Position & { path: string; message: string };
export type JsoncResult =
  { ok: true; value: unknown; positions: Map<string, Position> } | { ok: false; issue: JsoncIssue };

/** Dotted path; keys that are not identifiers are quoted: `servers."my server".env`. */
export function joinPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((p) =>
      typeof p === "number" ? String(p) : /^[A-Za-z_$][\w$-]*$/.test(p) ? p : JSON.stringify(p),
    )
    .join(".");
}

class JsoncError extends Error {
  constructor(
    readonly at: number,
    readonly path: (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

export function parseJsonc(text: string): JsoncResult {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const position = (offset: number): Position => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo]! + 1 };
  };
  if (text.length > MAX_CONFIG_LENGTH)
    return {
      ok: false,
      issue: {
        line: 1,
        column: 1,
        path: "(root)",
        message: `the file is longer than ${MAX_CONFIG_LENGTH} characters`,
      },
    };
  const positions = new Map<string, Position>();
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;

  const skip = (path: (string | number)[]) => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\n" || c === "\r") i++;
      else if (c === "/" && text[i + 1] === "/") {
        while (i < text.length && text[i] !== "\n") i++;
      } else if (c === "/" && text[i + 1] === "*") {
        const end = text.indexOf("*/", i + 2);
        if (end === -1) throw new JsoncError(i, path, "unterminated /* comment");
        i = end + 2;
      } else return;
    }
  };
  const describe = (c: string | undefined) =>
    c === undefined ? "the end of the file" : JSON.stringify(c);

  const parseString = (path: (string | number)[]): string => {
    const start = i;
    i++; // opening quote
    let out = "";
    for (;;) {
      const c = text[i];
      if (c === undefined || c === "\n") throw new JsoncError(start, path, "unterminated string");
      if (c === '"') {
        i++;
        return out;
      }
      if (c === "\\") {
        const e = text[i + 1];
        const simple: Record<string, string> = {
          '"': '"',
          "\\": "\\",
          "/": "/",
          b: "\b",
          f: "\f",
          n: "\n",
          r: "\r",
          t: "\t",
        };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else throw new JsoncError(i, path, "invalid escape in string");
      } else {
        if (c.charCodeAt(0) < 0x20)
          throw new JsoncError(i, path, "control character in string (escape it)");
        out += c;
        i++;
      }
    }
  };

  const parseValue = (path: (string | number)[], depth: number): unknown => {
    if (depth > MAX_DEPTH) throw new JsoncError(i, path, `nested deeper than ${MAX_DEPTH} levels`);
    skip(path);
    positions.set(joinPath(path), position(i));
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: Record<string, unknown> = {};
      const seen = new Set<string>();
      for (;;) {
        skip(path);
        if (text[i] === "}") {
          i++;
          return obj;
        }
        if (text[i] !== '"')
          throw new JsoncError(
            i,
            path,
            `expected a property name in double quotes or "}", found ${describe(text[i])}`,
          );
        const keyAt = i;
        const key = parseString(path);
        if (seen.has(key))
          throw new JsoncError(keyAt, [...path, key], `duplicate key ${JSON.stringify(key)}`);
        seen.add(key);
        skip([...path, key]);
        if (text[i] !== ":")
          throw new JsoncError(
            i,
            [...path, key],
            `expected ":" after ${JSON.stringify(key)}, found ${describe(text[i])}`,
          );
        i++;
        // Define, never assign: a "__proto__" key stays an ordinary own property.
        Object.defineProperty(obj, key, {
          value: parseValue([...path, key], depth + 1),
          enumerable: true,
          writable: true,
          configurable: true,
        });
        skip(path);
        if (text[i] === ",") i++;
        else if (text[i] !== "}")
          throw new JsoncError(
            i,
            [...path, key],
            `expected "," or "}" after the value of ${JSON.stringify(key)}, found ${describe(text[i])}`,
          );
      }
    }
    if (c === "[") {
      i++;
      const arr: unknown[] = [];
      for (;;) {
        skip(path);
        if (text[i] === "]") {
          i++;
          return arr;
        }
        arr.push(parseValue([...path, arr.length], depth + 1));
        skip(path);
        if (text[i] === ",") i++;
        else if (text[i] !== "]")
          throw new JsoncError(
            i,
            [...path, arr.length - 1],
            `expected "," or "]" in the list, found ${describe(text[i])}`,
          );
      }
    }
    if (c === '"') return parseString(path);
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(
      text.slice(i, i + 64),
    );
    if (m) {
      i += m[0].length;
      return m[0] === "true"
        ? true
        : m[0] === "false"
          ? false
          : m[0] === "null"
            ? null
            : Number(m[0]);
    }
    throw new JsoncError(i, path, `expected a value, found ${describe(c)}`);
  };

  try {
    const value = parseValue([], 0);
    skip([]);
    if (i < text.length)
      throw new JsoncError(i, [], `unexpected ${describe(text[i])} after the end of the document`);
    return { ok: true, value, positions };
  } catch (error) {
    if (!(error instanceof JsoncError)) throw error;
    return {
      ok: false,
      issue: { ...position(error.at), path: joinPath(error.path), message: error.message },
    };
  }
}
