import { describe, expect, test } from "vitest";
import { MAX_NAMES_IN_PROSE, namesInProse } from "./prose";

describe("namesInProse", () => {
  test.each([
    { names: [], max: 3, text: "" },
    { names: ["a"], max: 3, text: "a" },
    { names: ["a", "b", "c"], max: 3, text: "a, b, c" },
    { names: ["a", "b", "c", "d", "e"], max: 3, text: "a, b, c and 2 more" },
  ])("$names with at most $max", ({ names, max, text }) => {
    expect(namesInProse(names, max)).toBe(text);
  });

  test("the default names at most MAX_NAMES_IN_PROSE and counts the rest", () => {
    const names = Array.from({ length: 250 }, (_, i) => `tool_${i}`);
    const text = namesInProse(names);
    expect(text.split(", ")).toHaveLength(MAX_NAMES_IN_PROSE);
    expect(text.endsWith(` and ${250 - MAX_NAMES_IN_PROSE} more`)).toBe(true);
  });
});
