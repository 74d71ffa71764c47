/**
 * The gate declares upstream what the record's inspection declared: a record made with the
 * server entry's "the agent's host renders MCP Apps" opt-in names the Apps extension in its
 * `registration.declared_capabilities`, and the gate then declares it too, so its startup check
 * compares like with like and it relays the UI tool the server lists only to Apps hosts. A record
 * without it (every record made before the opt-in) keeps today's set. Real v2 server over stdio
 * (tests/fixtures/servers/apps-only-to-apps-hosts.ts), real agent client, both eras upstream.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, test } from "vitest";
import { APPS_EXTENSION_CAPABILITY, DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { startGate } from "@/lib/mcp/node/gate";
import { ReviewSchema } from "@/lib/review/schema";
import { ROOT, signedRecord } from "./fixtures";

const TOKEN = "gate-apps-token";
const SERVER = path.join(ROOT, "tests/fixtures/servers/apps-only-to-apps-hosts.ts");
const target = {
  kind: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", SERVER],
};

const reviewOf = (hostRendersApps: boolean) =>
  ReviewSchema.parse({
    schemaVersion: 2,
    title: "apps",
    servers: [{ id: "board", name: "board", transport: target, hostRendersApps }],
    agents: [
      {
        id: "agent",
        name: "agent",
        tools: ["list_cards", "show_board"].map((tool) => ({ serverId: "board", tool })),
      },
    ],
  });

/** Inspect as the review's server entry says, sign a record, start the gate, list through it. */
async function toolsThroughGate(era: "2025" | "2026", hostRendersApps: boolean) {
  const inspected = await inspectServer(target, { era, hostRendersApps });
  if (!inspected.ok) throw new Error(inspected.error.message);
  const { record } = signedRecord(reviewOf(hostRendersApps), "board", "agent", inspected.snapshot);
  const started = await startGate({ record, target, onEvent: () => {} });
  if (!started.ok) throw new Error(`the gate refused to start: ${started.refusal.message}`);
  const listening = await started.gate.listen(0, TOKEN);
  const client = new Client({ name: "agent", version: "1.0.0" });
  try {
    await client.connect(
      new StreamableHTTPClientTransport(new URL(listening.url), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const { tools } = await client.listTools();
    return {
      declared: record.registration?.declared_capabilities ?? [],
      tools: tools.map((t) => t.name).sort(),
    };
  } finally {
    await client.close();
    await listening.close();
    await started.gate.close();
  }
}

describe("the gate declares the record's MCP Apps extension", { timeout: 120_000 }, () => {
  test.each(["2025", "2026"] as const)("%s era upstream", async (era) => {
    const withApps = await toolsThroughGate(era, true);
    expect(withApps.declared).toContain(APPS_EXTENSION_CAPABILITY);
    // The gate started (its check compared like with like) and relays the UI tool.
    expect(withApps.tools).toEqual(["list_cards", "show_board"]);

    const without = await toolsThroughGate(era, false);
    expect(without.declared).toEqual([...DECLARED_CAPABILITY_NAMES].sort());
    expect(without.tools).toEqual(["list_cards"]);
  });
});
