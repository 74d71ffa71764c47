import { describe, expect, test } from "vitest";
import { findDuplicateKey, parseStrictJson } from "@/lib/strict-json";

describe("parseStrictJson", () => {
  test.each([
    ['{"a":1}', null],
    ['{"a":1,"a":2}', "a"],
    ['{"decision":{"verdict":"rejected","id":"d","verdict":"approved"}}', "decision.verdict"],
    ['{"a":[{"k":1},{"k":2,"k":3}]}', "a[1].k"],
    ['{"a":{"b":1},"c":{"b":2}}', null],
    ['{"verdict":1,"\\u0076erdict":2}', "verdict"],
    ['{"x":"a\\"b","y":"\\\\","x":0}', "x"],
    ['{"odd key":{"q":1,"q":2}}', '["odd key"].q'],
    ['[1,{"a":{"a":{"a":1}}}]', null],
    ['{"s":"{\\"a\\":1,\\"a\\":2}"}', null], // keys inside a string value are text, not keys
    ['{"":1,"":2}', '[""]'],
  ])("%s → duplicate at %s", (text, path) => {
    expect(findDuplicateKey(text)?.path ?? null).toBe(path);
    const parsed = parseStrictJson(text);
    expect(parsed.ok).toBe(path === null);
    if (!parsed.ok) expect(parsed.message).toContain(`at ${path}`);
  });

  test("invalid JSON is refused as such", () => {
    expect(parseStrictJson('{"a":')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^not valid JSON/) as unknown,
    });
  });

  test("deep nesting does not exhaust the stack", () => {
    const deep = `${"[".repeat(5000)}{"a":1,"a":2}${"]".repeat(5000)}`;
    expect(findDuplicateKey(deep)?.key).toBe("a");
  });
});
