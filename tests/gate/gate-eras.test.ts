/**
 * The gate in both eras on both sides (issue 30 item 4), real servers and real clients, nothing
 * mocked: an agent's client of the 2026-07-28 era (v2 client, server/discover) or of the 2025 era
 * (v1 client, initialize) through `gate --listen` to a server that speaks ONLY 2026-07-28 (v2
 * server, legacy rejected) or ONLY 2025 (v1 server). The gate speaks upstream the era the record's
 * inspection spoke. Then `input_required` (multi-round requests): relayed only for what the
 * signed record allows, URL-mode elicitation only to the record's domains.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { GateEvent } from "@/lib/gate/policy";
import { INPUT_REFUSED } from "@/lib/gate/input-required";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { startGate } from "@/lib/mcp/node/gate";
import { ReviewSchema } from "@/lib/review/schema";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import { startDemoHttp } from "../eras/v1-server";
import { startV2Server, type V2Server } from "../eras/v2-server";
import { signedRecord } from "./fixtures";
import { startInputServer } from "./fixtures/input-server";
import { runCli } from "../support/cli";

const TOKEN = "gate-eras-token";
const auth = { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } };

function reviewOf(url: string, tools: string[]) {
  return ReviewSchema.parse({
    schemaVersion: 2,
    title: "eras",
    servers: [{ id: "upstream", name: "upstream", transport: { kind: "http", url } }],
    agents: [
      { id: "agent", name: "agent", tools: tools.map((tool) => ({ serverId: "upstream", tool })) },
    ],
  });
}

async function inspect(url: string): Promise<SurfaceSnapshot> {
  const r = await inspectServer({ kind: "http", url, headers: {} });
  if (!r.ok) throw new Error(r.error.message);
  return r.snapshot;
}

type Running = { url: string; events: GateEvent[]; close: () => Promise<void> };

async function gateTo(
  url: string,
  tools: string[],
  more: { elicitationUrlDomains?: string[] } = {},
): Promise<Running> {
  const snapshot = await inspect(url);
  const { record } = signedRecord(reviewOf(url, tools), "upstream", "agent", snapshot, more);
  const events: GateEvent[] = [];
  const started = await startGate({
    record,
    target: { kind: "http", url, headers: {} },
    onEvent: (e) => events.push(e),
  });
  if (!started.ok) throw new Error(`the gate refused to start: ${started.refusal.message}`);
  const listening = await started.gate.listen(0, TOKEN);
  return {
    url: listening.url,
    events,
    close: async () => {
      await listening.close();
      await started.gate.close();
    },
  };
}

async function modernClient(url: string, onElicit?: (params: Record<string, unknown>) => unknown) {
  const client = new ModernClient(
    { name: "agent-2026", version: "1.0.0" },
    {
      versionNegotiation: { mode: { pin: "2026-07-28" } },
      capabilities: { elicitation: { form: {}, url: {} } },
    },
  );
  if (onElicit)
    client.setRequestHandler("elicitation/create", (req) => onElicit(req.params) as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url), auth));
  return client;
}
async function legacyClient(url: string, onElicit?: (params: Record<string, unknown>) => unknown) {
  const client = new Client(
    { name: "agent-2025", version: "1.0.0" },
    { capabilities: { elicitation: { form: {}, url: {} } } },
  );
  if (onElicit)
    client.setRequestHandler(ElicitRequestSchema, (req) => onElicit(req.params) as never);
  await client.connect(new LegacyHttpTransport(new URL(url), auth));
  return client;
}
const textOf = (r: unknown) =>
  ((r as { content?: { text?: string }[] }).content ?? []).map((c) => c.text).join("");
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code: number; message: string },
  );

describe("the gate, every agent era to every server era", { timeout: 120_000 }, () => {
  let modernOnly: V2Server;
  let legacyOnly: { url: string; close: () => Promise<void> };
  let toModern: Running;
  let toLegacy: Running;
  beforeAll(async () => {
    modernOnly = await startV2Server({ modernOnly: true });
    legacyOnly = await startDemoHttp();
    toModern = await gateTo(modernOnly.url, ["forecast"]);
    toLegacy = await gateTo(legacyOnly.url, ["forecast"]);
  }, 120_000);
  afterAll(async () => {
    await toModern?.close();
    await toLegacy?.close();
    await modernOnly?.close();
    await legacyOnly?.close();
  });

  const cases = [
    ["2026", "2026"],
    ["2025", "2026"],
    ["2026", "2025"],
    ["2025", "2025"],
  ] as const;
  test.each(cases)("a %s-era agent through the gate to a %s-only server", async (agent, server) => {
    const gate = server === "2026" ? toModern : toLegacy;
    const client = agent === "2026" ? await modernClient(gate.url) : await legacyClient(gate.url);
    try {
      if (client instanceof ModernClient)
        expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      else expect(client.getServerVersion()?.name).toBe("relay-review-gate");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toEqual(["forecast"]);
      const r = await client.callTool({ name: "forecast", arguments: { city: "Oslo" } });
      expect(textOf(r)).toBe("Oslo: sunny");
    } finally {
      await client.close();
    }
  });

  test("the record names the era its inspection spoke; the gate speaks it upstream", async () => {
    const modern = await inspect(modernOnly.url);
    const legacy = await inspect(legacyOnly.url);
    expect(modern.era).toBe("2026");
    expect(legacy.era).toBe("2025");
    const { record } = signedRecord(
      reviewOf(modernOnly.url, ["forecast"]),
      "upstream",
      "agent",
      modern,
    );
    expect(record.registration?.era).toBe("2026");
    // Asked to speak 2025 to a server that speaks only 2026-07-28, the gate cannot start.
    const refused = await startGate({
      record,
      target: { kind: "http", url: modernOnly.url, headers: {} },
      era: "2025",
      onEvent: () => {},
    });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.refusal.reason).toBe("upstream_failed");
  });
});

test("gate --era accepts auto, 2026 or 2025 only", { timeout: 60_000 }, async () => {
  const r = await runCli([
    "gate",
    "--record",
    "record.json",
    "--era",
    "2027",
    "--url",
    "http://127.0.0.1:9/mcp",
  ]);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("--era is auto, 2026 or 2025");
});

describe("input_required through the gate", { timeout: 120_000 }, () => {
  let server: V2Server;
  let gate: Running;
  const ALL = ["confirm_delete", "phish", "sign_in", "summarize"];
  beforeAll(async () => {
    server = await startInputServer();
    gate = await gateTo(server.url, ALL, { elicitationUrlDomains: ["login.example.com"] });
  }, 120_000);
  afterAll(async () => {
    await gate?.close();
    await server?.close();
  });

  test("the record carries the URL-elicitation domains the reviewer admitted", async () => {
    const { record } = signedRecord(
      reviewOf(server.url, ALL),
      "upstream",
      "agent",
      await inspect(server.url),
      { elicitationUrlDomains: ["login.example.com"] },
    );
    expect(record.registration?.elicitation_url_domains).toEqual(["login.example.com"]);
  });

  for (const era of ["2026", "2025"] as const) {
    test(`a ${era}-era agent answers a form elicitation the record allows`, async () => {
      const asked: Record<string, unknown>[] = [];
      const onElicit = (params: Record<string, unknown>) => {
        asked.push(params);
        return { action: "accept", content: { confirm: true } };
      };
      const client =
        era === "2026"
          ? await modernClient(gate.url, onElicit)
          : await legacyClient(gate.url, onElicit);
      try {
        const r = await client.callTool({ name: "confirm_delete", arguments: { page: "ENG-1" } });
        expect(textOf(r)).toBe("deleted ENG-1 (round-1:ENG-1)");
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatchObject({ message: "Delete ENG-1?" });
      } finally {
        await client.close();
      }
      expect(gate.events).toContainEqual(
        expect.objectContaining({
          event: "input_required",
          outcome: "relayed",
          requests: [{ key: "confirm", method: "elicitation/create", mode: "form" }],
        }),
      );
    });

    if (era === "2025")
      test("a 2025-era agent whose client cannot elicit: the gate declines on its behalf, and the call completes", async () => {
        // No elicitation capability: asked, its client cannot answer, as one with no person at hand.
        const client = new Client({ name: "agent-2025-no-elicit", version: "1.0.0" });
        await client.connect(new LegacyHttpTransport(new URL(gate.url), auth));
        const before = gate.events.length;
        try {
          const r = await client.callTool({ name: "confirm_delete", arguments: { page: "ENG-2" } });
          // The server heard "decline" (the record allowed the question), so it kept the page.
          expect(textOf(r)).toBe("kept ENG-2");
        } finally {
          await client.close();
        }
        expect(gate.events.slice(before)).toContainEqual(
          expect.objectContaining({
            event: "input_required",
            outcome: "relayed",
            requests: [{ key: "confirm", method: "elicitation/create", mode: "form" }],
          }),
        );
      });

    test(`a ${era}-era agent: URL-mode elicitation to a recorded domain is relayed, another refused`, async () => {
      const urls: unknown[] = [];
      const onElicit = (params: Record<string, unknown>) => {
        urls.push(params.url);
        return { action: "accept" };
      };
      const client =
        era === "2026"
          ? await modernClient(gate.url, onElicit)
          : await legacyClient(gate.url, onElicit);
      try {
        const ok = await client.callTool({ name: "sign_in", arguments: {} });
        expect(textOf(ok)).toBe("signed in");
        expect(urls).toEqual(["https://login.example.com/authorize?state=abc"]);
        const e = await errorOf(client.callTool({ name: "phish", arguments: {} }));
        expect(e?.code).toBe(INPUT_REFUSED);
        expect(e?.message).toContain(
          "URL-mode elicitation to login.example.net, which is not among the record's elicitation_url_domains (login.example.com)",
        );
        expect(urls).toHaveLength(1); // the user was never sent to the other host
      } finally {
        await client.close();
      }
    });

    test(`a ${era}-era agent: a sampling request is refused, naming why`, async () => {
      const client = era === "2026" ? await modernClient(gate.url) : await legacyClient(gate.url);
      try {
        const e = await errorOf(client.callTool({ name: "summarize", arguments: {} }));
        expect(e?.code).toBe(INPUT_REFUSED);
        expect(e?.message).toContain(
          '"summary" (sampling/createMessage): sampling: the decision record approves no use of the agent\'s model by the server',
        );
      } finally {
        await client.close();
      }
      expect(gate.events).toContainEqual(
        expect.objectContaining({
          event: "input_required",
          outcome: "refused",
          method: "tools/call",
        }),
      );
    });
  }
});
