/**
 * Issue 28, finding 12: a line from the server (or from the agent) without a newline is bounded
 * (MAX_STDIO_LINE_BYTES). Through the real gate: the server behind it starts a message and never
 * ends it; the gate fails closed with an error naming the bound, and its memory does not follow
 * the flood. The agent's side is bounded the same way.
 */
import { readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, test } from "vitest";
import { ReviewSchema } from "@/lib/review/schema";
import { MAX_STDIO_LINE_BYTES } from "@/lib/mcp/node/stdio-transport";
import { BIN, ROOT, eventsIn, inspectStdio, signedRecord, type Signed } from "./fixtures";

const FLOOD_ARGS = ["--import", "tsx", path.join(ROOT, "tests/gate/fixtures/flood-server.ts")];
const MIB = 1024 * 1024;
/** What the server writes without a newline: ten times the bound. */
const FLOOD_MIB = (10 * MAX_STDIO_LINE_BYTES) / MIB;

/** Peak resident memory of a process (kB), from /proc. */
const peakKb = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

let signed: Signed;
beforeAll(async () => {
  const review = ReviewSchema.parse({
    schemaVersion: 2,
    title: "flood fixture",
    servers: [
      {
        id: "flood",
        name: "flood",
        transport: { kind: "stdio", command: "node", args: FLOOD_ARGS },
      },
    ],
    agents: [{ id: "a", name: "agent", tools: [{ serverId: "flood", tool: "flood" }] }],
  });
  signed = signedRecord(review, "flood", "a", await inspectStdio(FLOOD_ARGS));
}, 120_000);

describe("the gate's line bound", { timeout: 180_000 }, () => {
  test("an upstream line past the bound: the call fails naming the bound, the gate stops, memory stays bounded", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        BIN,
        "gate",
        "--record",
        signed.recordPath,
        "--public-key",
        signed.publicKeyPath,
        "--call-timeout-ms",
        "60000",
        "--env",
        `FLOOD_MIB=${FLOOD_MIB}`,
        "--",
        "node",
        ...FLOOD_ARGS,
      ],
      cwd: ROOT,
      env: getDefaultEnvironment(),
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(transport, { timeout: 90_000 });
    const pid = transport.pid!;
    const before = peakKb(pid);
    const error = await client.callTool({ name: "flood", arguments: {} }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    const after = peakKb(pid);
    await client.close();
    expect(error?.message).toContain(`more than ${MAX_STDIO_LINE_BYTES} bytes without a newline`);
    expect(error?.message).toContain("MAX_STDIO_LINE_BYTES");
    const closed = eventsIn(stderr).find((e) => e.event === "upstream_closed");
    expect(closed?.message).toContain("MAX_STDIO_LINE_BYTES");
    // Ten times the bound was sent; the gate's peak grew by less than four times it.
    expect((after - before) * 1024).toBeLessThan(4 * MAX_STDIO_LINE_BYTES);
  });

  test("a line from the agent past the bound: the gate stops with a message naming the bound", async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        "gate",
        "--record",
        signed.recordPath,
        "--public-key",
        signed.publicKeyPath,
        "--",
        "node",
        ...FLOOD_ARGS,
      ],
      { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    let stdout = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stdin.on("error", () => {});
    const exited = new Promise<number | null>((r) => child.once("exit", (c) => r(c)));
    child.stdin.write(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" },
        },
      }) + "\n",
    );
    await new Promise<void>((resolve) => {
      const check = () => (stdout.includes('"id":1') ? resolve() : setTimeout(check, 50));
      check();
    });
    const chunk = Buffer.alloc(MIB, "b");
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"');
    for (let i = 0; i < (2 * MAX_STDIO_LINE_BYTES) / MIB && child.exitCode === null; i++)
      await new Promise<void>((r) => child.stdin.write(chunk, () => r()));
    const code = await exited;
    expect(code, stderr).not.toBeNull();
    expect(stderr).toContain(
      `the agent's client sent more than ${MAX_STDIO_LINE_BYTES} bytes without a newline`,
    );
    expect(stderr).toContain("MAX_STDIO_LINE_BYTES");
  });
});
