/**
 * The gate in both protocol eras, with real servers and real clients (nothing mocked):
 * - an agent's client of the 2026-07-28 era (the v2 client: server/discover, stateless requests)
 *   and of the 2025 era (initialize) through `gate --listen` to a v2 server that speaks both eras
 *   (knowledge-mcp) and to a v1 server that speaks only 2025 (the mutating fixture);
 * - a task an approved tool starts is followed and cancelled through the gate; a handle the gate
 *   did not start (one that exists on the server) is refused before it reaches the server;
 * - an MCP Apps app-only tool (`visibility: ["app"]`) outside the decision's tool set is refused,
 *   whatever era the client speaks.
 */
import { request as httpRequest } from "node:http";
import path from "node:path";
import {
  Client as ModernClient,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from "@modelcontextprotocol/server";
import { StreamableHTTPClientTransport as LegacyHttpTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import type { GateEvent } from "@/lib/gate/policy";
import { startGate, type Gate } from "@/lib/mcp/node/gate";
import { createDemoReview } from "@/lib/review/demo";
import { ReviewSchema } from "@/lib/review/schema";
import {
  KNOWLEDGE_ARGS,
  MUTATING_ARGS,
  ROOT,
  inspectStdio,
  mutatingReview,
  signedRecord,
} from "./fixtures";

const TASKS_APPS_ARGS = [
  "--import",
  "tsx",
  path.join(ROOT, "tests/gate/fixtures/tasks-apps-server.ts"),
];
const TOKEN = "gate-protocols-token";
const Any = z.looseObject({});

type Running = { gate: Gate; url: string; events: GateEvent[]; close: () => Promise<void> };

async function gateFor(
  args: string[],
  record: ReturnType<typeof signedRecord>["record"],
): Promise<Running> {
  const events: GateEvent[] = [];
  const started = await startGate({
    record,
    target: { kind: "stdio", command: process.execPath, args, cwd: ROOT },
    onEvent: (e) => events.push(e),
  });
  if (!started.ok) throw new Error(`the gate refused to start: ${started.refusal.message}`);
  const server = await started.gate.listen(0, TOKEN);
  return {
    gate: started.gate,
    url: server.url,
    events,
    close: async () => {
      await server.close();
      await started.gate.close();
    },
  };
}

const auth = { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } };
async function modernClient(url: string) {
  const client = new ModernClient(
    { name: "agent-2026", version: "1.0.0" },
    { versionNegotiation: { mode: "auto" } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url), auth));
  return client;
}
async function legacyClient(url: string) {
  const client = new Client({ name: "agent-2025", version: "1.0.0" });
  await client.connect(new LegacyHttpTransport(new URL(url), auth));
  return client;
}
const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as { code: number; message: string; data?: Record<string, unknown> },
  );

describe("the gate in both eras", { timeout: 180_000 }, () => {
  const running: Running[] = [];
  let knowledge: Running;
  let mutating: Running;
  beforeAll(async () => {
    const [k, m] = await Promise.all([inspectStdio(KNOWLEDGE_ARGS), inspectStdio(MUTATING_ARGS)]);
    knowledge = await gateFor(
      KNOWLEDGE_ARGS,
      signedRecord(createDemoReview(), "knowledge-mcp", "docs-agent", k).record,
    );
    running.push(knowledge);
    mutating = await gateFor(
      MUTATING_ARGS,
      signedRecord(mutatingReview(), "mutating", "echo-agent", m).record,
    );
    running.push(mutating);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(running.map((r) => r.close()));
  });

  test("a 2026-07-28 client through the gate to a v2 server: approved tools only, calls relayed", async () => {
    const client = await modernClient(knowledge.url);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(client.getServerVersion()?.name).toBe("relay-review-gate");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["knowledge_search", "read_page"]);
      const page = await client.callTool({ name: "read_page", arguments: { page_id: "ENG-1" } });
      expect(JSON.stringify(page.content)).toContain("ENG-1");
      const refused = await client.callTool({ name: "list_spaces", arguments: {} }).then(
        (r) => ({ code: 0, result: r }),
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      );
      expect(refused).toMatchObject({ code: -32602 });
      expect(JSON.stringify(refused)).toContain('tool \\"list_spaces\\" is not approved');
    } finally {
      await client.close();
    }
    expect(knowledge.events).toContainEqual(
      expect.objectContaining({ event: "refused_call", tool: "list_spaces" }),
    );
  });

  test("a 2025 client through the gate to the same v2 server", async () => {
    const client = await legacyClient(knowledge.url);
    try {
      expect(client.getServerVersion()?.name).toBe("relay-review-gate");
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name).sort()).toEqual(["knowledge_search", "read_page"]);
      const r = await client.callTool({ name: "knowledge_search", arguments: { query: "PAY" } });
      expect(r.isError).not.toBe(true);
      // knowledge-mcp declares no prompts: the gate does not answer a prompts list for it
      const e = await errorOf(client.listPrompts());
      expect(e?.code).toBe(-32601);
      expect(e?.message).toContain("prompts/list is not relayed");
    } finally {
      await client.close();
    }
  });

  test.each(["2026-07-28", "2025"] as const)(
    "a %s client through the gate to a 2025-only (v1 SDK) server",
    async (era) => {
      const client =
        era === "2025" ? await legacyClient(mutating.url) : await modernClient(mutating.url);
      try {
        if (client instanceof ModernClient)
          expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name)).toEqual(["echo"]);
        const r = await client.callTool({ name: "echo", arguments: { text: `hi ${era}` } });
        expect((r.content as { text: string }[])[0]!.text).toBe(`hi ${era}`);
        const e = await errorOf(client.callTool({ name: "secret_tool", arguments: {} }));
        expect(e?.code).toBe(-32602);
      } finally {
        await client.close();
      }
    },
  );

  test("over the modern leg, a foreign Host (DNS rebinding) or Origin is refused with 403", async () => {
    const post = (headers: Record<string, string>) =>
      new Promise<string>((resolve, reject) => {
        const body = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "server/discover",
          params: {
            _meta: {
              [PROTOCOL_VERSION_META_KEY]: "2026-07-28",
              [CLIENT_CAPABILITIES_META_KEY]: {},
              [CLIENT_INFO_META_KEY]: { name: "probe", version: "1.0.0" },
            },
          },
        });
        const req = httpRequest(
          knowledge.url,
          {
            method: "POST",
            headers: {
              authorization: `Bearer ${TOKEN}`,
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              "mcp-protocol-version": "2026-07-28",
              "mcp-method": "server/discover",
              ...headers,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (d: Buffer) => (text += d.toString()));
            res.on("end", () => resolve(`${res.statusCode ?? 0} ${text}`));
          },
        );
        req.once("error", reject);
        req.end(body);
      });
    const port = new URL(knowledge.url).port;
    expect(await post({ host: "evil.example" })).toMatch(/^403 .*Invalid Host header/);
    expect(await post({ host: `127.0.0.1:${port}`, origin: "https://evil.example" })).toMatch(
      /^403 .*Invalid Origin header/,
    );
    expect(await post({ host: `127.0.0.1:${port}` })).toMatch(/^200 .*relay-review-gate/);
  });
});

describe("tasks and MCP Apps through the gate", { timeout: 180_000 }, () => {
  let running: Running;
  beforeAll(async () => {
    const snapshot = await inspectStdio(TASKS_APPS_ARGS);
    // The dashboard agent may research and show the dashboard; refresh_dashboard (app-only) is
    // not in its tool set.
    const review = ReviewSchema.parse({
      schemaVersion: 2,
      title: "tasks and apps",
      servers: [
        {
          id: "tasks-apps",
          name: "tasks-apps",
          transport: { kind: "stdio", command: "node", args: TASKS_APPS_ARGS },
        },
      ],
      agents: [
        {
          id: "dash-agent",
          name: "dashboard agent",
          tools: [
            { serverId: "tasks-apps", tool: "research" },
            { serverId: "tasks-apps", tool: "show_dashboard" },
          ],
        },
      ],
    });
    running = await gateFor(
      TASKS_APPS_ARGS,
      signedRecord(review, "tasks-apps", "dash-agent", snapshot).record,
    );
  }, 180_000);
  afterAll(async () => {
    await running?.close();
  });

  test("a task started by an approved tool is followed and cancelled; a foreign handle is refused", async () => {
    const client = await legacyClient(running.url);
    try {
      const started = (await client.request(
        {
          method: "tools/call",
          params: { name: "research", arguments: { topic: "gates" }, task: { ttl: 60_000 } },
        },
        Any,
      )) as { task: { taskId: string; status: string } };
      expect(started.task.status).toBe("working");
      const id = started.task.taskId;
      const got = await client.request({ method: "tasks/get", params: { taskId: id } }, Any);
      expect(got).toMatchObject({ taskId: id, status: "working" });
      const cancelled = await client.request(
        { method: "tasks/cancel", params: { taskId: id } },
        Any,
      );
      expect(cancelled).toMatchObject({ taskId: id, status: "cancelled" });

      // The server knows this task (another session started it); the gate did not start it.
      for (const method of ["tasks/get", "tasks/result", "tasks/cancel"]) {
        const e = await errorOf(
          client.request({ method, params: { taskId: "task-of-another-session" } }, Any),
        );
        expect(e?.code).toBe(-32602);
        expect(e?.message).toContain("was not started through this gate");
        expect(e?.data).toMatchObject({ reason: "foreign_task" });
      }
      const listed = await errorOf(client.request({ method: "tasks/list", params: {} }, Any));
      expect(listed?.code).toBe(-32601);
    } finally {
      await client.close();
    }
    expect(running.events).toContainEqual(
      expect.objectContaining({
        event: "refused_request",
        method: "tasks/cancel",
        target: "task-of-another-session",
      }),
    );
  });

  test.each(["2025", "2026-07-28"] as const)(
    "an app-only tool outside the tool set is refused (%s client); the approved UI tool is relayed",
    async (era) => {
      const client =
        era === "2025" ? await legacyClient(running.url) : await modernClient(running.url);
      try {
        const tools = await client.listTools();
        expect(tools.tools.map((t) => t.name).sort()).toEqual(["research", "show_dashboard"]);
        const shown = await client.callTool({ name: "show_dashboard", arguments: {} });
        expect((shown.content as { text: string }[])[0]!.text).toBe("show_dashboard done");
        const e = await errorOf(client.callTool({ name: "refresh_dashboard", arguments: {} }));
        expect(e?.code).toBe(-32602);
        expect(e?.message).toContain('tool "refresh_dashboard" is not approved');
      } finally {
        await client.close();
      }
      expect(running.events).toContainEqual(
        expect.objectContaining({ event: "refused_call", tool: "refresh_dashboard" }),
      );
    },
  );
});
