import { describe, expect, test } from "vitest";
import { parseArgs, parseCommandLine, type CommandSpec } from "@/cli/shared/args";
import { safeText } from "@/cli/shared/render";

const SPEC: CommandSpec = {
  values: ["--pin", "--data"],
  lists: ["--header"],
  booleans: ["--json"],
  positionals: true,
  command: true,
};

describe("parseCommandLine", () => {
  test.each([
    ["a value option at the end", ["--pin"], "--pin needs a value"],
    ["an option where a value goes", ["--pin", "--json"], "--pin needs a value"],
    ["the terminator where a value goes", ["--pin", "--", "node"], "--pin needs a value"],
    ["a value option twice", ["--pin", "a", "--pin=b"], "--pin given twice"],
    ["an unknown option", ["--pinn", "x"], 'unknown option "--pinn"'],
    ["an unknown short option", ["-x"], 'unknown option "-x"'],
    ["a value on a flag", ["--json=yes"], "--json takes no value"],
  ])("%s is an error", (_label, argv, message) => {
    expect(parseCommandLine(argv, SPEC).errors).toEqual([message]);
  });

  test("values inline or separate, lists repeat, everything after -- is the command", () => {
    const line = parseCommandLine(
      [
        "r.json",
        "--pin=--odd",
        "--header",
        "A: 1",
        "--header=B: 2",
        "--json",
        "--",
        "node",
        "--pin",
        "-h",
      ],
      SPEC,
    );
    expect(line).toEqual({
      isHelp: false,
      values: new Map([["--pin", "--odd"]]),
      lists: new Map([["--header", ["A: 1", "B: 2"]]]),
      booleans: new Set(["--json"]),
      positionals: ["r.json"],
      command: ["node", "--pin", "-h"],
      errors: [],
    });
  });

  test("help is asked for only before --", () => {
    expect(parseCommandLine(["-h"], SPEC).isHelp).toBe(true);
    expect(parseCommandLine(["--help", "--nope"], SPEC).isHelp).toBe(true);
    expect(parseCommandLine(["--", "server", "--help"], SPEC).isHelp).toBe(false);
  });

  test("a command that takes no positionals or server says so", () => {
    const spec: CommandSpec = { values: ["--url"] };
    expect(parseCommandLine(["file.json"], spec).errors).toEqual([
      'unexpected argument "file.json"',
    ]);
    expect(parseCommandLine(["--", "node"], spec).errors).toEqual([
      'unexpected "--": this command runs no server',
    ]);
  });
});

describe("parseArgs (a command that reaches a server)", () => {
  test("a stdio target with env, and limits", () => {
    const parsed = parseArgs(
      ["--timeout-ms", "500", "--env", "A=1", "--json", "--", "node", "s.js"],
      [],
      ["--json"],
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.limits).toEqual({ requestTimeoutMs: 500 });
    expect(parsed.flags.get("--json")).toBe(true);
    expect(parsed.target).toMatchObject({
      kind: "stdio",
      command: process.execPath,
      args: ["s.js"],
      env: { A: "1" },
    });
  });

  test.each([
    [["--url", "http://h/mcp", "--", "node"], "give either --url or -- COMMAND, not both"],
    [["--url", "file:///etc/passwd"], "--url must be an http(s) URL"],
    [
      ["--max-items", "-1", "--url", "http://h/mcp"],
      '--max-items must be a whole number, not "-1"',
    ],
    [
      ["--header", "nocolon", "--url", "http://h/mcp"],
      "--header wants 'Name: value', not \"nocolon\"",
    ],
    [[], "no server given: use --url URL or -- COMMAND [ARGS…]"],
    [["--"], "-- must be followed by a command"],
  ])("%j is refused", (argv, message) => {
    const parsed = parseArgs(argv, [], []);
    expect(parsed.errors).toContain(message);
  });
});

describe("safeText", () => {
  test.each([
    ["an ANSI sequence", "Eve\u001b[2J", "Eve⟦ANSI ESC[2J⟧"],
    ["a bidi override", "docs\u202eagent", "docs⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧agent"],
    ["a C1 control", "a\u0085b", "a⟦U+0085 CONTROL⟧b"],
    ["a lone CR", "ok\rvalid: forged", "ok⟦U+000D CONTROL⟧valid: forged"],
    ["CRLF line ends", "one\r\ntwo", "one\ntwo"],
  ])("reveals %s", (_label, text, shown) => {
    expect(safeText(text)).toBe(shown);
  });
});
