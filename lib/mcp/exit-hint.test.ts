import { expect, test } from "vitest";
import { exitAdvice, firstErrorLine, EXIT_LINE_MAX_CHARS } from "@/lib/mcp/exit-hint";

test.each([
  [
    "GitHub MCP Server starting\nGITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set\n",
    "GITHUB_PERSONAL_ACCESS_TOKEN environment variable is not set",
    "Secrets page",
  ],
  [
    "node:internal/modules/cjs/loader:1228\n  throw err;\nError: Cannot find module '/srv/relay-review/x.js'\n    at Module._resolveFilename (node:internal)\n",
    "Error: Cannot find module '/srv/relay-review/x.js'",
    "installs the server",
  ],
  [
    "Error: EACCES: permission denied, open '/data/keys'",
    "Error: EACCES: permission denied, open '/data/keys'",
    "sandbox report",
  ],
  ["listening\nbye", "listening", "inspect again"],
])("the first error line of %j, and what to do", (tail, line, advice) => {
  expect(firstErrorLine(tail)).toBe(line);
  expect(exitAdvice(firstErrorLine(tail))).toContain(advice);
});

test("no stderr: no line, and advice to run the command by hand; a hostile line is cut", () => {
  expect(firstErrorLine(undefined)).toBeNull();
  expect(firstErrorLine("\n\n")).toBeNull();
  expect(exitAdvice(null)).toContain("by hand");
  expect(firstErrorLine(`Error: ${"x".repeat(10_000)}`)?.length).toBe(EXIT_LINE_MAX_CHARS);
});
