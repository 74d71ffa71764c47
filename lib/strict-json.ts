/**
 * JSON.parse that refuses a duplicate key in any object, at any depth. JSON.parse keeps the last
 * of two equal keys while other readers keep the first, so `{"verdict":"rejected", …,
 * "verdict":"approved"}` means one thing to the signature check and another to whoever reads the
 * record next: a signed document must have one meaning. Keys compare after unescaping
 * (`"verdict"` and `"\u0076erdict"` are the same key). Linear in the text; no recursion, so
 * nesting depth cannot exhaust the stack.
 */

export type StrictJsonResult = { ok: true; value: unknown } | { ok: false; message: string };

type Frame =
  | { kind: "object"; path: string; keys: Set<string>; expectsKey: boolean; key: string | null }
  | { kind: "array"; path: string; index: number };

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `a.b[2]["odd key"]`: where a member sits, for messages. */
function childPath(parent: string, member: string | number): string {
  if (typeof member === "number") return `${parent}[${member}]`;
  if (IDENTIFIER.test(member)) return parent ? `${parent}.${member}` : member;
  return `${parent}[${JSON.stringify(member)}]`;
}

/** The path of the first duplicate key in valid JSON text, or null when every key is unique. */
export function findDuplicateKey(text: string): { key: string; path: string } | null {
  const stack: Frame[] = [];
  const pathOfNext = (): string => {
    const top = stack.at(-1);
    if (!top) return "";
    return top.kind === "array"
      ? childPath(top.path, top.index)
      : childPath(top.path, top.key ?? "");
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "{")
      stack.push({
        kind: "object",
        path: pathOfNext(),
        keys: new Set(),
        expectsKey: true,
        key: null,
      });
    else if (c === "[") stack.push({ kind: "array", path: pathOfNext(), index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack.at(-1);
      if (top?.kind === "object") top.expectsKey = true;
      else if (top?.kind === "array") top.index++;
    } else if (c === ":") {
      const top = stack.at(-1);
      if (top?.kind === "object") top.expectsKey = false;
    } else if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      const top = stack.at(-1);
      if (top?.kind === "object" && top.expectsKey) {
        const key = JSON.parse(text.slice(start, i + 1)) as string;
        if (top.keys.has(key)) return { key, path: childPath(top.path, key) };
        top.keys.add(key);
        top.key = key;
      }
    }
  }
  return null;
}

/** Parse JSON text, refusing invalid JSON and any duplicate key, with the key's path in the message. */
export function parseStrictJson(text: string): StrictJsonResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const duplicate = findDuplicateKey(text);
  if (duplicate) {
    return {
      ok: false,
      message: `duplicate key ${JSON.stringify(duplicate.key)} at ${duplicate.path || "(root)"}: a key may appear once per object`,
    };
  }
  return { ok: true, value };
}
