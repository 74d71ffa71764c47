/**
 * Issue 28, item 2 (finding 12's HTTP side): each upstream HTTP message the gate relays is
 * bounded (MAX_HTTP_MESSAGE_BYTES). Through the real gate (`gate --url`): the server behind it
 * answers a tool call with a JSON body, or an event-stream event, that never ends; the call fails
 * naming the bound, the gate closes the upstream (fails closed), and its memory does not follow
 * the flood.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { describe, expect, test } from "vitest";
import { MAX_HTTP_MESSAGE_BYTES } from "@/lib/mcp/http";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { ReviewSchema } from "@/lib/review/schema";
import { BIN, ROOT, eventsIn, signedRecord } from "./fixtures";
import { startHttpFlood, type FloodMode } from "./fixtures/http-flood-server";

/** Peak resident memory of a process (kB), from /proc. */
const peakKb = (pid: number) =>
  Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);

describe("the gate's HTTP message bound", { timeout: 180_000 }, () => {
  test.each(["json", "sse"] as FloodMode[])(
    "an endless %s answer: the call fails naming the bound, the gate closes the upstream, memory stays bounded",
    async (mode) => {
      // Four times the bound, then the message stays open: without a bound the gate would hold
      // it all and wait out the call timeout.
      const flood = await startHttpFlood(mode, 4 * MAX_HTTP_MESSAGE_BYTES);
      try {
        const inspected = await inspectServer({ kind: "http", url: flood.url });
        if (!inspected.ok) throw new Error(inspected.error.message);
        const review = ReviewSchema.parse({
          schemaVersion: 2,
          title: "http flood fixture",
          servers: [{ id: "flood", name: "flood", transport: { kind: "http", url: flood.url } }],
          agents: [{ id: "a", name: "agent", tools: [{ serverId: "flood", tool: "flood" }] }],
        });
        const signed = signedRecord(review, "flood", "a", inspected.snapshot);
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
            "30000",
            "--url",
            flood.url,
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
        const error = await client
          .callTool({ name: "flood", arguments: {} }, undefined, { timeout: 60_000 })
          .then(
            () => null,
            (e: unknown) => e as Error,
          );
        const after = peakKb(pid);
        await client.close();
        expect(error?.message, stderr).toContain(`more than ${MAX_HTTP_MESSAGE_BYTES} bytes`);
        expect(error?.message).toContain("MAX_HTTP_MESSAGE_BYTES");
        const closed = eventsIn(stderr).find((e) => e.event === "upstream_closed");
        expect(closed?.message, stderr).toContain("MAX_HTTP_MESSAGE_BYTES");
        // The server kept sending until the gate hung up: more than the bound went out, yet the
        // gate's peak grew by less than four times the bound.
        expect(flood.sent()).toBeGreaterThan(MAX_HTTP_MESSAGE_BYTES);
        expect((after - before) * 1024).toBeLessThan(4 * MAX_HTTP_MESSAGE_BYTES);
      } finally {
        await flood.close();
      }
    },
  );
});
