/**
 * Every hostile behaviour ends in its clear, bounded error value naming the limit (or the
 * failure), never a throw, and leaves no process behind — over stdio and Streamable HTTP.
 */
import { describe, expect, test } from "vitest";
import { inspectServer } from "@/lib/mcp/node/inspect";
import type { InspectLimits } from "@/lib/surface/limits";
import { HOSTILE, newMarker, startHttp, waitGone } from "./helpers";

const FAST: Partial<InspectLimits> = {
  connectTimeoutMs: 8_000,
  requestTimeoutMs: 2_000,
  deadlineMs: 20_000,
  settleQuietMs: 100,
};

type Case = {
  behaviour: string;
  limits?: Partial<InspectLimits>;
  code: string;
  limit?: string;
  message: RegExp;
  boundMs: number;
};

const CASES: Case[] = [
  {
    behaviour: "hang",
    limits: { connectTimeoutMs: 1_500 },
    code: "limit_exceeded",
    limit: "connectTimeoutMs",
    message: /within 1500 ms/,
    boundMs: 1_500,
  },
  {
    behaviour: "hang-list",
    code: "limit_exceeded",
    limit: "requestTimeoutMs",
    message: /tools\/list \(page 1\) got no answer within 2000 ms/,
    boundMs: 2_000,
  },
  {
    behaviour: "flood",
    limits: { totalBytes: 2_000_000 },
    code: "limit_exceeded",
    limit: "totalBytes",
    message: /more than 2000000 bytes/,
    boundMs: 0,
  },
  {
    behaviour: "crash-mid-reply",
    code: "server_exited",
    message: /exited with code 3 before answering tools\/list.*unfinished message/,
    boundMs: 0,
  },
  {
    behaviour: "garbage-stdout",
    code: "limit_exceeded",
    limit: "invalidMessages",
    message: /not JSON-RPC/,
    boundMs: 0,
  },
  {
    behaviour: "cursor-loop",
    code: "limit_exceeded",
    limit: "pageCount",
    message: /repeated the cursor "again"/,
    boundMs: 0,
  },
  {
    behaviour: "cursor-endless",
    limits: { pageCount: 20 },
    code: "limit_exceeded",
    limit: "pageCount",
    message: /after 20 pages/,
    boundMs: 0,
  },
  {
    behaviour: "many-tools",
    limits: { itemCount: 500 },
    code: "limit_exceeded",
    limit: "itemCount",
    message: /more than 500 items/,
    boundMs: 0,
  },
  {
    behaviour: "list-changed-storm",
    code: "limit_exceeded",
    limit: "relists",
    message: /kept changing its tools list/,
    boundMs: 0,
  },
  {
    behaviour: "long-description",
    code: "limit_exceeded",
    limit: "descriptionLength",
    message: /"verbose" has a description of 100000 characters/,
    boundMs: 0,
  },
];

// Startup of a tsx child on a loaded 2-core box dominates; the bound checked is limit + slack.
const SLACK_MS = 8_000;

describe("hostile servers over stdio", { timeout: 60_000 }, () => {
  test.each(CASES)("$behaviour → $code $limit", async (c) => {
    const marker = newMarker();
    const t0 = Date.now();
    const r = await inspectServer(
      {
        kind: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", HOSTILE, c.behaviour, marker],
      },
      { limits: { ...FAST, ...c.limits } },
    );
    const elapsed = Date.now() - t0;
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(c.code);
    expect(r.error.limit).toBe(c.limit);
    expect(r.error.message).toMatch(c.message);
    expect(elapsed).toBeLessThan(c.boundMs + SLACK_MS);
    expect(await waitGone(marker)).toEqual([]);
  });

  test("deadline bounds the whole inspection", async () => {
    const marker = newMarker();
    const r = await inspectServer(
      {
        kind: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", HOSTILE, "list-changed-storm", marker],
      },
      { limits: { ...FAST, relists: 1000, deadlineMs: 3_000 } },
    );
    expect(r.ok ? null : [r.error.code, r.error.limit]).toEqual(["limit_exceeded", "deadlineMs"]);
    expect(await waitGone(marker)).toEqual([]);
  });

  test("invalid items are kept as rejects with reasons, valid ones listed", async () => {
    const r = await inspectServer(
      {
        kind: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", HOSTILE, "invalid-items"],
      },
      { limits: FAST },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const s = r.snapshot;
    expect(s.tools.map((t) => t.name)).toEqual(["ok_tool", "proto_key"]);
    // the own __proto__ key the server sent is kept (and hashed), not dropped by a zod rebuild
    expect(Object.keys(s.tools[1]!.inputSchema)).toContain("__proto__");
    const reasons = s.rejects.map((x) => `${x.list}#${x.index}: ${x.reason}`);
    expect(reasons).toEqual([
      expect.stringMatching(/^tools#1: fails the protocol schema: inputSchema/),
      expect.stringMatching(/^tools#2: fails the protocol schema: name/),
      expect.stringMatching(/^tools#3: fails the protocol schema: \(item\)/),
      expect.stringMatching(/^tools#4: fails the protocol schema: inputSchema\.type/),
      expect.stringMatching(/^tools#5: duplicate name "ok_tool" \(first at page 1, index 0\)/),
      expect.stringMatching(/^tools#6: contains a lone UTF-16 surrogate/),
      expect.stringMatching(/^resources#1: fails the protocol schema: uri/),
      expect.stringMatching(/^prompts#1: fails the protocol schema: name/),
    ]);
    expect(s.rejects[3]!.raw).toEqual({ name: "array_schema", inputSchema: { type: "array" } });
    expect(s.itemHashes.rejects).toHaveLength(8);
  });

  test("a command that does not exist is a connect_failed value", async () => {
    const r = await inspectServer(
      { kind: "stdio", command: "/nonexistent/relay-review-test", args: [] },
      { limits: FAST },
    );
    expect(r.ok ? null : r.error.code).toBe("connect_failed");
  });

  test("an aborted inspection ends at once with code aborted and kills the server", async () => {
    const marker = newMarker();
    const ac = new AbortController();
    const p = inspectServer(
      {
        kind: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", HOSTILE, "hang", marker],
      },
      { limits: { connectTimeoutMs: 60_000 }, signal: ac.signal },
    );
    setTimeout(() => ac.abort(), 300);
    const r = await p;
    expect(r.ok ? null : r.error.code).toBe("aborted");
    expect(await waitGone(marker)).toEqual([]);
  });
});

describe("hostile servers over Streamable HTTP", { timeout: 60_000 }, () => {
  const HTTP_CASES: Case[] = [
    {
      behaviour: "hang",
      limits: { connectTimeoutMs: 1_500 },
      code: "limit_exceeded",
      limit: "connectTimeoutMs",
      message: /within 1500 ms/,
      boundMs: 1_500,
    },
    {
      behaviour: "flood",
      limits: { totalBytes: 2_000_000 },
      code: "limit_exceeded",
      limit: "totalBytes",
      message: /more than 2000000 bytes/,
      boundMs: 0,
    },
    {
      behaviour: "cursor-loop",
      code: "limit_exceeded",
      limit: "pageCount",
      message: /repeated the cursor/,
      boundMs: 0,
    },
    {
      behaviour: "long-description",
      code: "limit_exceeded",
      limit: "descriptionLength",
      message: /100000 characters/,
      boundMs: 0,
    },
    { behaviour: "crash-mid-reply", code: "protocol_error", message: /tools\/list/, boundMs: 0 },
    // list_changed arrives on the server→client GET stream, as Streamable HTTP sends it
    {
      behaviour: "list-changed-storm",
      code: "limit_exceeded",
      limit: "relists",
      message: /kept changing its tools list/,
      boundMs: 0,
    },
  ];
  test.each(HTTP_CASES)("$behaviour → $code $limit", async (c) => {
    const srv = await startHttp(["--import", "tsx", HOSTILE, c.behaviour, "--http"]);
    try {
      const t0 = Date.now();
      const r = await inspectServer(
        { kind: "http", url: srv.url, mode: "streamable-http" },
        { limits: { ...FAST, ...c.limits } },
      );
      expect(Date.now() - t0).toBeLessThan(c.boundMs + SLACK_MS);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect([r.error.code, r.error.limit]).toEqual([c.code, c.limit]);
      expect(r.error.message).toMatch(c.message);
    } finally {
      await srv.stop();
    }
  });
});
