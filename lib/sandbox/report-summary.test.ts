import { expect, test } from "vitest";
import { isBenignMiss, summarizeSandbox } from "@/lib/sandbox/report-summary";
import type { SandboxAttempt, SandboxReport } from "@/lib/sandbox/plan";

const open = (target: string, result = "ENOENT", write = false): SandboxAttempt => ({
  kind: "open",
  target,
  result,
  write,
  count: 1,
});

test.each([
  [open("/sys/fs/cgroup/memory.max"), true],
  [open("/tmp/tsx-0/123.mjs"), true],
  [open("/srv/relay-review/node_modules/zod/package.json"), true],
  [open("/srv/relay-review/.data/signing-key.pem"), false],
  [open("/srv/relay-review/node_modules/.cache/x", "EROFS", true), false],
  [open("/etc/shadow", "EACCES"), false],
  [open("/srv/relay-review/.data/launchers.json"), false],
  [
    {
      kind: "connect" as const,
      target: "127.0.0.1:5432",
      result: "ECONNREFUSED",
      count: 1,
    },
    false,
  ],
])("%j is a benign miss: %s", (a, benign) => {
  expect(isBenignMiss(a)).toBe(benign);
});

test("the lead says the network and how many were refused, and benign misses are folded", () => {
  const report = {
    sandboxed: true,
    mechanism: "bubblewrap",
    network: "loopback only",
    limits: {},
    visible: [],
    traced: true,
    attempts: [
      open("/sys/fs/cgroup/cpu.max"),
      open("/tmp/tsx-0/a.mjs"),
      open("/srv/relay-review/.data/owner-token"),
      { kind: "connect", target: "140.82.112.6:443", result: "ENETUNREACH", count: 2 },
    ],
    droppedAttempts: 0,
    truncated: false,
    notFoundInView: 0,
  } as unknown as Extract<SandboxReport, { sandboxed: true }>; // only the fields the summary reads
  const s = summarizeSandbox(report);
  expect(s.lead).toBe(
    "network: none (no egress granted); 2 refused (1 of them network); 2 benign misses folded",
  );
  expect(s.listed.map((a) => a.target)).toEqual([
    "/srv/relay-review/.data/owner-token",
    "140.82.112.6:443",
  ]);
  expect(s.benignCount).toBe(2);
});
