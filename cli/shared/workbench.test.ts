import { describe, expect, test } from "vitest";
import { parseCheckArgs } from "@/cli/commands/check";
import { parseFlagsArgs } from "@/cli/commands/flags";
import { parseReleaseArgs } from "@/cli/commands/release";
import { parseSarifArgs } from "@/cli/commands/sarif";

/** Every command that asks the owner API about one review, with what it needs besides the options. */
const COMMANDS = [
  ["check", parseCheckArgs, []],
  ["sarif", parseSarifArgs, []],
  ["flags", parseFlagsArgs, []],
  ["release", parseReleaseArgs, ["flag-1"]],
] as const;

const AT = ["--workbench", "http://127.0.0.1:3000", "--review", "r-1"];

/** Bad input in the shared options, and the message every one of those commands gives for it. */
const BAD: [string, string[], string][] = [
  ["no workbench", ["--review", "r-1"], "--workbench URL is required"],
  ["no review", ["--workbench", "http://127.0.0.1:3000"], "--review ID is required"],
  [
    "a review id that would leave its URL path",
    ["--workbench", "http://127.0.0.1:3000", "--review", "../state"],
    "--review must be a review id: 1–80 letters, digits, '.', '_' or '-', starting with a letter or digit",
  ],
  ["an unknown option", [...AT, "--pin=x"], 'unknown option "--pin"'],
  ["an option without its value", [...AT, "--data"], "--data needs a value"],
  ["an option given twice", [...AT, "--review", "r-2"], "--review given twice"],
  [
    "a size that is not a number",
    [...AT, "--workbench-max-bytes", "lots"],
    "--workbench-max-bytes must be a whole number of bytes",
  ],
  [
    "a server command",
    [...AT, "--", "node", "x.js"],
    'unexpected "--": this command runs no server',
  ],
];

describe.each(COMMANDS)("relay-review %s", (_name, parse, own) => {
  test.each(BAD)("%s: the same message as every review command", (_case, argv, message) => {
    expect(parse([...own, ...argv])).toEqual({ ok: false, message });
  });

  test("the shared options, read the same way", () => {
    const parsed = parse([...own, ...AT, "--data", "/tmp/d", "--workbench-max-bytes", "1000"]);
    expect(parsed).toMatchObject({
      ok: true,
      args: { base: "http://127.0.0.1:3000", reviewId: "r-1", dataDir: "/tmp/d", maxBytes: 1000 },
    });
  });
});

describe("each command's own options beside the shared ones", () => {
  test("--json where a command prints JSON, and nowhere else", () => {
    expect(parseCheckArgs([...AT, "--json"])).toMatchObject({ ok: true, args: { json: true } });
    expect(parseFlagsArgs([...AT, "--json", "--held"])).toMatchObject({
      ok: true,
      args: { json: true, held: true },
    });
    expect(parseSarifArgs([...AT, "--json"])).toEqual({
      ok: false,
      message: 'unknown option "--json"',
    });
  });

  test("release's FLAG_ID is checked after the shared options", () => {
    expect(parseReleaseArgs(AT)).toEqual({
      ok: false,
      message: "FLAG_ID is required (relay-review flags --held lists them)",
    });
    expect(parseReleaseArgs(["a", "b", ...AT])).toEqual({
      ok: false,
      message: "one FLAG_ID at a time (got 2)",
    });
    expect(parseReleaseArgs(["../x"])).toEqual({
      ok: false,
      message: "--workbench URL is required",
    });
    expect(parseReleaseArgs(["flag-1", ...AT])).toMatchObject({
      ok: true,
      args: { flagId: "flag-1" },
    });
  });
});
