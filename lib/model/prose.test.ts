import { describe, expect, test } from "vitest";
import { MAX_NAMES_IN_PROSE, namesInProse, shownName } from "./prose";

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

describe("a server's names in labels and prose", () => {
  test("printable ASCII names are unchanged; hidden characters are revealed, in names and in sentences", () => {
    expect(shownName("trigger_deploy")).toBe("trigger_deploy");
    expect(shownName("read\u202Eyolped")).toBe("read⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧yolped");
    expect(shownName("search\u200B")).toContain("⟦U+200B ZERO WIDTH SPACE⟧");
    expect(shownName("café")).toBe("café");
    expect(namesInProse(["a", "b\u202Ec"])).toBe("a, b⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧c");
  });
});
