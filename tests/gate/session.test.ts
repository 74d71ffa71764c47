/**
 * The gate and the inspection open the same upstream session (lib/mcp/session.ts): the same
 * limit trips with the same message whichever way the server is reached, the gate checks the
 * session's real snapshot, and a request the session could send but the gate's table has no
 * rule for is refused by name.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { signRecord } from "@/lib/decisions/record";
import { GATE_RULES } from "@/lib/gate/authorize";
import type { GateEvent } from "@/lib/gate/policy";
import { startGate, type Gate } from "@/lib/mcp/node/gate";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { UPSTREAM_REQUEST_METHODS } from "@/lib/mcp/session";
import type { InspectTarget } from "@/lib/mcp/types";
import { newKeyPair, unsignedOnCallRecord } from "@/tests/decisions/fixtures";
import { runCli } from "@/tests/support/cli";
import { HOSTILE } from "@/tests/surface/helpers";
import { MUTATING_ARGS, ROOT, inspectStdio, mutatingReview, signedRecord } from "./fixtures";

const HANG_LIST: InspectTarget = {
  kind: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", HOSTILE, "hang-list"],
  cwd: ROOT,
};
const LIMITS = { requestTimeoutMs: 1_000, connectTimeoutMs: 20_000 };

describe("the same limit, the same message", { timeout: 120_000 }, () => {
  test("a server that never answers tools/list: inspection and gate report the inspection's message", async () => {
    // The gate fails before it compares surfaces, so any signed record will do.
    const record = signRecord(unsignedOnCallRecord(), newKeyPair().privateKey);
    const [inspected, gated] = await Promise.all([
      inspectServer(HANG_LIST, { limits: LIMITS }),
      startGate({ record, target: HANG_LIST, limits: LIMITS, onEvent: () => {} }),
    ]);
    expect(inspected.ok).toBe(false);
    expect(gated.ok).toBe(false);
    if (inspected.ok || gated.ok) return;
    const expected =
      "tools/list (page 1) got no answer within 1000 ms (limit requestTimeoutMs; raise it to wait longer)";
    expect(inspected.error).toMatchObject({
      code: "limit_exceeded",
      limit: "requestTimeoutMs",
      message: expected,
    });
    expect(gated.error).toEqual(inspected.error);
    expect(gated.refusal).toEqual({
      reason: "upstream_failed",
      message: `limit requestTimeoutMs tripped: ${expected}`,
    });
  });

  test("and the two CLI commands print the same line", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "relay-review-session-"));
    const keys = newKeyPair();
    const recordPath = path.join(dir, "record.json");
    const publicKeyPath = path.join(dir, "public.pem");
    const fresh = unsignedOnCallRecord({}, { issuedAt: new Date().toISOString() }); // within --max-age-days' default
    writeFileSync(recordPath, JSON.stringify(signRecord(fresh, keys.privateKey)));
    writeFileSync(publicKeyPath, keys.publicKey.export({ type: "spki", format: "pem" }).toString());
    const server = ["--timeout-ms", "1000", "--", "node", "--import", "tsx", HOSTILE, "hang-list"];
    const [inspect, gate] = await Promise.all([
      runCli(["inspect", ...server], process.env),
      runCli(
        ["gate", "--record", recordPath, "--public-key", publicKeyPath, ...server],
        process.env,
      ),
    ]);
    const line =
      "limit requestTimeoutMs tripped: tools/list (page 1) got no answer within 1000 ms (limit requestTimeoutMs; raise it to wait longer)";
    expect(inspect.code).toBe(1);
    expect(inspect.stderr).toContain(line);
    expect(gate.code).toBe(4);
    expect(gate.stderr).toContain(`refused to start: ${line}`);
  });
});

describe("the gate relays over the session", { timeout: 120_000 }, () => {
  let gate: Gate;
  let client: Client;
  let reference: Awaited<ReturnType<typeof inspectStdio>>;
  const events: GateEvent[] = [];
  beforeAll(async () => {
    reference = await inspectStdio(MUTATING_ARGS);
    const s = signedRecord(mutatingReview(), "mutating", "echo-agent", reference);
    const started = await startGate({
      record: s.record,
      target: { kind: "stdio", command: process.execPath, args: MUTATING_ARGS, cwd: ROOT },
      onEvent: (e) => events.push(e),
    });
    if (!started.ok) throw new Error(`the gate refused to start: ${started.refusal.message}`);
    gate = started.gate;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gate.createServer().connect(serverSide);
    client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(clientSide);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await gate?.close();
  });

  test("the surface it checked is the session's real snapshot, as an inspection takes it", () => {
    const checked = gate.snapshot!;
    expect(checked.protocolVersion).toBe(reference.protocolVersion);
    expect(checked.protocolVersion).not.toBe("unknown");
    expect(checked.settle.pages.tools).toBe(1);
    expect(checked.surfaceSha256).toBe(reference.surfaceSha256);
    expect(checked.durationMs).toBeGreaterThan(0);
  });

  test("an approved call is relayed", async () => {
    const r = await client.callTool({ name: "echo", arguments: { text: "hello" } });
    expect((r.content as { text: string }[])[0]!.text).toBe("hello");
  });

  // initialize, ping and logging/setLevel are answered by the downstream server itself.
  const HANDLED_DOWNSTREAM = new Set(["initialize", "ping", "logging/setLevel"]);
  const WITHOUT_RULE = UPSTREAM_REQUEST_METHODS.filter(
    (m) => !HANDLED_DOWNSTREAM.has(m) && !Object.hasOwn(GATE_RULES, m),
  );

  test("the session can send requests the table has no rule for (tasks/list)", () => {
    expect(WITHOUT_RULE).toEqual(expect.arrayContaining(["tasks/list"]));
  });

  test.each(WITHOUT_RULE)(
    "%s: supported by the session, not in the table: refused naming the method",
    async (method) => {
      const error = await client
        .request({ method, params: { taskId: "t-1" } }, z.looseObject({}))
        .then(
          () => null,
          (e: unknown) => e as { code: number; message: string; data?: unknown },
        );
      expect(error?.code).toBe(-32601);
      expect(error?.message).toContain(
        `relay-review gate: ${method} is not relayed: the gate has no rule for it`,
      );
      expect(error?.data).toMatchObject({ reason: "no_rule", method });
      expect(events).toContainEqual(
        expect.objectContaining({
          event: "refused_request",
          method,
          reason: "no_rule",
          server: "mutating",
        }),
      );
    },
  );
});
