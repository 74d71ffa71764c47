/**
 * SEP-2243 (protocol 2026-07-28): a tool's input schema may mark a top-level property with
 * `x-mcp-header: "Name"`, and a client then mirrors that argument into an `Mcp-Param-Name` HTTP
 * header on each tools/call, so gateways can route on it without reading the body. A definition
 * that breaks the annotation's rules is invalid and the client excludes the tool (it never calls
 * it). Runtime-neutral.
 */

/** RFC 9110 `tchar`: what a header field name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** The types a mirrored property may have: `number` is excluded (a float has no one spelling). */
const MIRRORED_TYPES = new Set(["string", "integer", "boolean"]);

type Schema = { properties?: unknown };

function annotated(schema: Schema | undefined): [string, Record<string, unknown>][] {
  const properties = schema?.properties;
  if (!properties || typeof properties !== "object" || Array.isArray(properties)) return [];
  return Object.entries(properties as Record<string, unknown>).filter(
    (entry): entry is [string, Record<string, unknown>] =>
      !!entry[1] && typeof entry[1] === "object" && Object.hasOwn(entry[1], "x-mcp-header"),
  );
}

/**
 * Why a tool's `x-mcp-header` annotations make it invalid (SEP-2243: a non-empty header-name
 * token, unique without regard to case, on a string, integer or boolean property), or null.
 */
export function paramHeaderProblem(inputSchema: Schema | undefined): string | null {
  const seen = new Map<string, string>();
  for (const [property, definition] of annotated(inputSchema)) {
    const name = definition["x-mcp-header"];
    const quoted = JSON.stringify(property).slice(0, 80);
    if (typeof name !== "string" || name === "")
      return `property ${quoted} has an x-mcp-header that is not a non-empty string`;
    if (!TOKEN.test(name))
      return `property ${quoted} has an x-mcp-header with characters a header name cannot hold`;
    const type = definition.type;
    if (typeof type !== "string" || !MIRRORED_TYPES.has(type))
      return `property ${quoted} mirrors into a header but is not a string, integer or boolean`;
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined)
      return `properties ${JSON.stringify(first).slice(0, 80)} and ${quoted} mirror into the same header`;
    seen.set(key, property);
  }
  return null;
}

/**
 * A header value as SEP-2243 carries it: as is when it is printable ASCII without leading or
 * trailing whitespace, otherwise `=?base64?…?=` of its UTF-8 bytes.
 */
export function mcpHeaderValue(value: string): string {
  if (value === "" || /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value)) return value;
  const bytes = new TextEncoder().encode(value);
  return `=?base64?${btoa(String.fromCharCode(...bytes))}?=`;
}

/** The `Mcp-Param-*` headers for a call of a tool with this input schema and these arguments. */
export function paramHeaders(
  inputSchema: Schema | undefined,
  args: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!args || typeof args !== "object" || paramHeaderProblem(inputSchema)) return headers;
  for (const [property, definition] of annotated(inputSchema)) {
    const value = (args as Record<string, unknown>)[property];
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      headers[`mcp-param-${String(definition["x-mcp-header"])}`] = mcpHeaderValue(String(value));
  }
  return headers;
}
