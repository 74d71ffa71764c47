/**
 * The hand check of a listed tool (`toolPassesProtocolSchema`) stands in for the SDK's `ToolSchema`
 * only where the schema would accept the item too: every item it passes must pass the schema,
 * whatever a hostile server sends in any field. Items it does not pass still get the schema's
 * verdict and message through `convertItem`.
 */
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, test } from "vitest";
import { convertItem, toolPassesProtocolSchema } from "@/lib/mcp/convert";

const VALUES: unknown[] = [
  undefined,
  null,
  true,
  0,
  1.5,
  "",
  "object",
  "x",
  [],
  ["a"],
  [1],
  [null],
  {},
  { type: "object" },
  { type: "string" },
  { a: 1 },
  { a: {} },
  { a: null },
  { a: [] },
];

const BASE = {
  name: "get_issue",
  title: "Get issue",
  description: "Reads one issue",
  inputSchema: {
    type: "object",
    properties: { id: { type: "string" }, n: { type: "number" } },
    required: ["id"],
  },
  outputSchema: { type: "object", properties: { body: { type: "string" } } },
  annotations: { title: "Issue", readOnlyHint: true, openWorldHint: false },
  _meta: { "example.com/x": 1 },
};

type Path = (string | number)[];
/** Paths into BASE (and beside it) where a hostile server could put anything. */
const PATHS: Path[] = [
  [],
  ["name"],
  ["title"],
  ["description"],
  ["icons"],
  ["execution"],
  ["_meta"],
  ["annotations"],
  ["annotations", "title"],
  ["annotations", "readOnlyHint"],
  ["annotations", "destructiveHint"],
  ["annotations", "idempotentHint"],
  ["annotations", "openWorldHint"],
  ["annotations", "other"],
  ["extra"],
  ...(["inputSchema", "outputSchema"] as const).flatMap((s): Path[] => [
    [s],
    [s, "type"],
    [s, "properties"],
    [s, "properties", "id"],
    [s, "properties", "__proto__"],
    [s, "required"],
    [s, "required", 0],
    [s, "additionalProperties"],
  ]),
];

/** BASE with `value` at `path` (undefined deletes the key), as JSON.parse would build it. */
function withValue(path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = JSON.parse(JSON.stringify(BASE)) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (at[key] === null || typeof at[key] !== "object") at[key] = {};
    at = at[key] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  // defineProperty, so a "__proto__" key is an own property as JSON.parse makes it.
  else
    Object.defineProperty(at, last, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

describe("toolPassesProtocolSchema", () => {
  test("passes only tools the SDK's ToolSchema accepts, for any value in any field", () => {
    let passed = 0;
    let checked = 0;
    for (const path of PATHS) {
      for (const value of VALUES) {
        const item = withValue(path, value);
        checked++;
        if (!toolPassesProtocolSchema(item)) continue;
        passed++;
        expect(
          ToolSchema.safeParse(item).success,
          `${path.join(".")} = ${JSON.stringify(value)}`,
        ).toBe(true);
      }
    }
    // It must take the common shapes, or it saves nothing; and refuse many others.
    expect(passed).toBeGreaterThan(50);
    expect(checked - passed).toBeGreaterThan(100);
  });

  test("passes the tools real servers list", () => {
    expect(toolPassesProtocolSchema(BASE)).toBe(true);
    expect(toolPassesProtocolSchema({ name: "t", inputSchema: { type: "object" } })).toBe(true);
  });

  test("an item it does not pass still gets the schema's verdict, with the schema's words", () => {
    const bad = convertItem("tools", { name: "t", inputSchema: { type: "string" } }, 1, 0);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.reject.reason).toMatch(/^fails the protocol schema: inputSchema\.type/);
    // Icons are left to the schema; a valid one is accepted by it.
    const icons = convertItem(
      "tools",
      { name: "t", inputSchema: { type: "object" }, icons: [{ src: "https://example.com/i.png" }] },
      1,
      0,
    );
    expect(icons.ok).toBe(true);
  });
});
