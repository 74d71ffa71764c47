import { describe, expect, test } from "vitest";
import { parseJsonc } from "@/lib/import/jsonc";

describe("parseJsonc", () => {
  test.each([
    ['{"a": 1}', { a: 1 }],
    ['// c\n{ "a": [1, 2,], /* b */ "b": "x", }', { a: [1, 2], b: "x" }],
    ['\ufeff{"s": "\\u00e9\\n"}', { s: "é\n" }],
    ["[true, false, null, -1.5e2]", [true, false, null, -150]],
  ])("%s", (text, value) => {
    const r = parseJsonc(text);
    expect(r.ok && r.value).toEqual(value);
  });

  test("positions name the line and column of each value", () => {
    const r = parseJsonc('{\n  "servers": {\n    "a": { "command": "x" }\n  }\n}');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.positions.get("servers.a.command")).toEqual({ line: 3, column: 23 });
  });

  test("__proto__ stays an own key", () => {
    const r = parseJsonc('{"__proto__": {"x": 1}}');
    expect(r.ok && Object.hasOwn(r.value as object, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  test.each([
    ['{"a": }', 1, 7, "expected a value"],
    ['{"a": "x\n"}', 1, 7, "unterminated string"],
    ['{"a": 1} x', 1, 10, "after the end"],
    ["[".repeat(70), 1, 66, "nested deeper"],
  ])("%s fails at line %i column %i", (text, line, column, message) => {
    const r = parseJsonc(text);
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.issue).toMatchObject({
        line,
        column,
        message: expect.stringContaining(message) as string,
      });
  });
});
