import { describe, expect, test } from "vitest";
import { mdCode, mdQuote, mdText } from "@/lib/decisions/markdown";

describe("mdText", () => {
  test.each([
    ["emphasis", "**bold** _it_", "\\*\\*bold\\*\\* \\_it\\_"],
    ["a link", "[click](https://evil.example)", "\\[click\\](https://evil.example)"],
    ["an image", "![x](https://evil.example/p.png)", "\\!\\[x\\](https://evil.example/p.png)"],
    ["HTML", "<img src=x onerror=alert(1)>", "\\<img src=x onerror=alert(1)\\>"],
    ["an entity", "&lt;script&gt;", "\\&lt;script\\&gt;"],
    ["a heading", "# Approved", "\\# Approved"],
    ["a list marker", "- item", "\\- item"],
    ["a plus list marker", "+ item", "\\+ item"],
    ["an ordered list marker", "1. item", "1\\. item"],
    ["a setext underline", "===", "\\==="],
    ["a table pipe", "a | b", "a \\| b"],
    ["a new block by line break", "line\n\n# heading", "line  \\# heading"],
    ["hidden Unicode", "safe\u202Etxt.exe\u200B", "safe\\[U+202E\\]txt.exe\\[U+200B\\]"],
    ["an ANSI escape", "\u001b[31mred", "\\[U+001B\\]\\[31mred"],
  ])("neutralises %s", (_label, input, expected) => {
    expect(mdText(input)).toBe(expected);
  });

  test("leaves ordinary prose readable", () => {
    expect(mdText("31,400 registered accounts are a floor, not a measurement: read-only.")).toBe(
      "31,400 registered accounts are a floor, not a measurement: read-only.",
    );
  });
});

describe("mdCode", () => {
  test.each([
    ["plain", "knowledge_search", "`knowledge_search`"],
    ["a backtick inside", "a`b", "``a`b``"],
    ["a run of backticks", "x```y", "````x```y````"],
    ["a leading backtick", "`x", "`` `x ``"],
    ["spaces both sides", " x ", "`  x  `"],
    ["empty", "", "` `"],
    ["a line break", "a\nb", "`a b`"],
  ])("renders %s literally", (_label, input, expected) => {
    expect(mdCode(input)).toBe(expected);
  });
});

describe("mdQuote", () => {
  test("quotes every line, escaped, keeping paragraphs inside the quote", () => {
    expect(mdQuote("first *line*\n\n# not a heading")).toBe(
      "> first \\*line\\*\n>\n> \\# not a heading",
    );
  });
});
