import { describe, expect, test } from "vitest";
import { parseArgs } from "@/cli/shared/args";
import { SANDBOX_BOOL_FLAGS, SANDBOX_LIST_FLAGS, sandboxFromArgs } from "@/cli/shared/sandbox";

const parse = (flags: string[], server = ["--", "node", "server.js"]) =>
  parseArgs([...flags, ...server], [], [...SANDBOX_BOOL_FLAGS], SANDBOX_LIST_FLAGS);

const GATE_LIKE = { limits: { cpuSeconds: 3_600 }, egressLimits: { requests: 100_000 } };

describe("sandboxFromArgs", () => {
  test("no --sandbox: no sandbox, whatever the defaults", async () => {
    expect(await sandboxFromArgs(parse([]), GATE_LIKE)).toEqual({ ok: true, sandbox: null });
  });

  test("the command's defaults apply, and what the operator names wins over them", async () => {
    const r = await sandboxFromArgs(
      parse([
        "--sandbox",
        "--egress",
        "api.example.com:443",
        "--egress",
        "10.0.0.0/8:5432",
        "--sandbox-limit",
        "memoryMiB=512",
        "--egress-limit",
        "requests=500",
      ]),
      GATE_LIKE,
    );
    expect(r).toEqual({
      ok: true,
      sandbox: {
        egress: ["api.example.com:443", "10.0.0.0/8:5432"],
        limits: { cpuSeconds: 3_600, memoryMiB: 512 },
        egressLimits: { requests: 500 },
        read: [],
      },
    });
  });

  test.each([
    [["--egress", "a.example:443"], [], "go with --sandbox"],
    [["--sandbox"], ["--url", "http://127.0.0.1:9/mcp"], "applies to a stdio command"],
    [["--sandbox", "--egress", "a.example:443", "--egress", "nope"], [], '--egress "nope": '],
    [["--sandbox", "--sandbox-limit", "memoryMiB=8"], [], "--sandbox-limit memoryMiB: "],
    [["--sandbox", "--sandbox-limit", "memoryMiB"], [], "--sandbox-limit memoryMiB: wants NAME=N"],
    [["--sandbox", "--sandbox-limit", "requests=5"], [], '--sandbox-limit "requests": not a limit'],
    [["--sandbox", "--egress-limit", "totalMiB=1.5"], [], "--egress-limit totalMiB: wants NAME=N"],
    [["--sandbox", "--egress-limit", "requests=0"], [], "--egress-limit requests: "],
  ])("%j is refused, naming the flag and the entry", async (flags, server, message) => {
    const r = await sandboxFromArgs(parse(flags, server.length ? server : undefined), GATE_LIKE);
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.message).toContain(message);
  });
});
