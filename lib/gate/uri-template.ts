/**
 * Strict matching of a URI against an RFC 6570 resource template, for the gate: a template in a
 * decision record admits the URIs the reviewer could read off it, and no URI that would make the
 * server resolve something else (another path segment, a query, a fragment, a parent folder).
 * Pure. The SDK's UriTemplate.match is made for routing and admits `?`, `#`, newlines and
 * `..%2F` in a `{id}`; this one does not.
 *
 * What each expression admits (docs/gate.md, "Resources and resource templates"):
 * - `{x}` (simple), `{/x}` (one path segment after `/`), `{.x}` (one label after `.`): one or more
 *   unreserved characters (`A-Z a-z 0-9 - . _ ~`) or percent-encoded bytes, never only dots;
 * - `{+x}` (reserved), `{#x}` (fragment, after `#`): a relative path of such segments separated by
 *   `/`, each segment also allowing the sub-delimiters `!$&'()*+,;=` and `:@`; no empty, `.` or
 *   `..` segment, no `?`, no `#` inside;
 * - `{?x,y}` / `{&x,y}`: `?x=V&y=V` / `&x=V&y=V` with the template's names, each at most once, in
 *   its order, values as for `{x}` (empty allowed); the whole query may be absent.
 * Everywhere, a percent-encoded byte must be one that had to be encoded: not an unreserved
 * character (`%2E%2E` is `..` in disguise), and never `/`, `\`, `%`, `?`, `#` or a control byte
 * (`%2F`, `%252F`, `%0A`). Templates with explode (`*`), prefix (`:n`), the `;` operator or several
 * names in one simple expression match nothing: the gate admits less rather than guess.
 */

const UNRESERVED = "A-Za-z0-9\\-._~";
const PCT = "%[0-9A-Fa-f]{2}";
const SIMPLE = `(?:[${UNRESERVED}]|${PCT})`;
/** A path segment's characters (RFC 3986 pchar): unreserved, sub-delims, `:` and `@`. */
const SEGMENT_CHAR = `(?:[${UNRESERVED}!$&'()*+,;=:@]|${PCT})`;
const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;

/** Bytes that may never appear percent-encoded in an admitted URI. */
function isForbiddenEncoded(byte: number): boolean {
  const c = String.fromCharCode(byte);
  return (
    byte < 0x20 ||
    byte === 0x7f ||
    /[A-Za-z0-9\-._~]/.test(c) || // unreserved: an encoding that only hides what it is
    c === "/" ||
    c === "\\" ||
    c === "%" ||
    c === "?" ||
    c === "#"
  );
}

/** Every percent-encoded byte in `value` is one that had to be encoded. */
function encodingsAllowed(value: string): boolean {
  for (const m of value.matchAll(/%([0-9A-Fa-f]{2})/g))
    if (isForbiddenEncoded(parseInt(m[1]!, 16))) return false;
  return true;
}

type Part =
  | { kind: "literal"; text: string }
  | { kind: "expr"; op: "" | "+" | "#" | "/" | "."; name: string }
  | { kind: "query"; op: "?" | "&"; names: string[] };

/** The template's parts, or null when it uses syntax the gate does not admit (see header). */
function parseTemplate(template: string): Part[] | null {
  const parts: Part[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf("{", i);
    const literalEnd = open === -1 ? template.length : open;
    const literal = template.slice(i, literalEnd);
    if (literal.includes("}")) return null;
    if (literal) parts.push({ kind: "literal", text: literal });
    if (open === -1) break;
    const close = template.indexOf("}", open);
    if (close === -1) return null;
    const body = template.slice(open + 1, close);
    const op = /^[+#/.?&]/.test(body) ? body[0]! : "";
    const names = body.slice(op.length).split(",");
    if (!names.every((n) => VARNAME.test(n))) return null; // also refuses `*` and `:n`
    if (op === "?" || op === "&") parts.push({ kind: "query", op, names });
    else if (names.length === 1)
      parts.push({ kind: "expr", op: op as "" | "+" | "#" | "/" | ".", name: names[0]! });
    else return null;
    i = close + 1;
  }
  return parts;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function partPattern(part: Part): string {
  switch (part.kind) {
    case "literal":
      return escapeRegex(part.text);
    case "query":
      return `((?:${escapeRegex(part.op)}[A-Za-z0-9_.%]+=${SIMPLE}*)(?:&[A-Za-z0-9_.%]+=${SIMPLE}*)*)?`;
    case "expr":
      switch (part.op) {
        case "":
          return `(${SIMPLE}+)`;
        case "/":
          return `/(${SIMPLE}+)`;
        case ".":
          return `\\.(${SIMPLE}+)`;
        case "+":
          return `(${SEGMENT_CHAR}+(?:/${SEGMENT_CHAR}+)*)`;
        case "#":
          return `#(${SEGMENT_CHAR}+(?:/${SEGMENT_CHAR}+)*)`;
      }
  }
}

const isDots = (s: string) => /^(?:\.|%2[Ee])+$/.test(s);

function valueAllowed(part: Part, value: string | undefined): boolean {
  if (part.kind === "literal") return true;
  if (value === undefined) return part.kind === "query"; // an absent query is fine
  if (!encodingsAllowed(value)) return false;
  if (part.kind === "query") {
    const pairs = value.slice(1).split("&");
    let at = 0;
    for (const pair of pairs) {
      const name = pair.slice(0, pair.indexOf("="));
      const k = part.names.indexOf(name, at);
      if (k === -1) return false; // unknown, repeated or out of order
      at = k + 1;
    }
    return true;
  }
  if (part.op === "+" || part.op === "#") return value.split("/").every((s) => !isDots(s));
  return !isDots(value);
}

/** A compiled template: `matches(uri)` is the strict check above. */
export type StrictUriTemplate = { template: string; matches: (uri: string) => boolean };

export function compileUriTemplate(template: string): StrictUriTemplate {
  const parts = parseTemplate(template);
  if (parts === null) return { template, matches: () => false };
  const captures = parts.filter((p) => p.kind !== "literal");
  const regex = new RegExp(`^${parts.map(partPattern).join("")}$`);
  return {
    template,
    matches: (uri) => {
      const m = regex.exec(uri);
      if (!m) return false;
      return captures.every((part, i) => valueAllowed(part, m[i + 1]));
    },
  };
}
