/**
 * Issue 29, item 1: an approval vouches for the risk it accepts only until the acceptance's
 * `until`. The real gate refuses to start on a record (issued today, so the age check passes)
 * with an acceptance that has ended, naming the finding, its kind and the date, and starts on one
 * that ends later. One that ends while the gate runs stops it at the next request: shown with the
 * gate's own clock moved past the date (no waiting), over a real upstream server.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { beforeAll, describe, expect, test } from "vitest";
import { signRecord, type DecisionRecord } from "@/lib/decisions/record";
import { GATE_ERROR, type GateEvent } from "@/lib/gate/policy";
import { startGate } from "@/lib/mcp/node/gate";
import { runCli } from "@/tests/support/cli";
import {
  KNOWLEDGE_ARGS,
  ROOT,
  connectThroughGate,
  eventsIn,
  inspectKnowledge,
  signedDocsRecord,
  type Signed,
} from "./fixtures";

const DAY = 86_400_000;
const FINDING = "fnd-0904a035e353ad8e669034b6";

let signed: Signed;
beforeAll(async () => {
  signed = signedDocsRecord(await inspectKnowledge());
}, 120_000);

/** The docs record, issued now, accepting one critical path until `until`; signed with the test key. */
function accepting(until: string): DecisionRecord {
  const { signature: _signature, ...unsigned } = signed.record;
  return signRecord(
    {
      ...unsigned,
      issuedAt: new Date().toISOString(),
      decision: {
        ...unsigned.decision,
        acceptedRisks: [
          {
            findingId: FINDING,
            kind: "path.to_sensitive_sink",
            severity: "critical",
            text: "Text written into the support portal can reach trigger_deploy",
            ends: { from: "Tracker: support portal project (SUP)", to: "trigger_deploy" },
            owner: "Head of Platform",
            why: "Deploys need a second person",
            until,
          },
        ],
      },
    },
    signed.privateKey,
  );
}

function writeRecord(name: string, record: DecisionRecord): string {
  const p = path.join(signed.dir, name);
  writeFileSync(p, JSON.stringify(record, null, 2));
  return p;
}

describe("the record's accepted risks at start", { timeout: 180_000 }, () => {
  test("an acceptance that ended yesterday: refused (exit 1) before the server starts, naming the finding, its kind and the date", async () => {
    const until = new Date(Date.now() - DAY).toISOString();
    const recordPath = writeRecord("ended.json", accepting(until));
    const server = ["--", "node", "-e", "process.stderr.write('SERVER STARTED'); process.exit(9)"];
    const r = await runCli(
      ["gate", "--record", recordPath, "--public-key", signed.publicKeyPath, ...server],
      process.env,
      120_000,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toContain("SERVER STARTED");
    expect(r.stderr).toContain(
      `refused to start: decision dec-docs accepted risk only until a date that has passed: ${FINDING} (path.to_sensitive_sink, critical) ended ${until}`,
    );
    expect(eventsIn(r.stderr)).toEqual([
      expect.objectContaining({ event: "refused_start", reason: "stale" }),
    ]);
  });

  test("an acceptance that ends tomorrow: the gate starts and relays", async () => {
    const until = new Date(Date.now() + DAY).toISOString();
    const recordPath = writeRecord("current.json", accepting(until));
    const session = await connectThroughGate(
      ["--record", recordPath, "--public-key", signed.publicKeyPath],
      KNOWLEDGE_ARGS,
    );
    try {
      const tools = (await session.client.listTools()).tools.map((t) => t.name);
      expect(tools).toContain("knowledge_search");
      expect(eventsIn(session.stderr())).toEqual([
        expect.objectContaining({ event: "gate_started", decision: "dec-docs" }),
      ]);
    } finally {
      await session.close();
    }
  });
});

describe("an acceptance that ends while the gate runs", { timeout: 180_000 }, () => {
  test("the next request after the date is refused, and every one after it, with one event", async () => {
    const until = new Date(Date.now() + DAY).toISOString();
    let now = new Date();
    const events: GateEvent[] = [];
    const started = await startGate({
      record: accepting(until),
      target: { kind: "stdio", command: process.execPath, args: KNOWLEDGE_ARGS, cwd: ROOT },
      onEvent: (e) => events.push(e),
      now: () => now,
    });
    if (!started.ok) throw new Error(`the gate refused to start: ${started.refusal.message}`);
    const gate = started.gate;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await gate.createServer().connect(serverSide);
    const client = new Client({ name: "agent", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const before = await client.callTool({
        name: "knowledge_search",
        arguments: { query: "deploy" },
      });
      expect(before.isError).not.toBe(true);
      now = new Date(new Date(until).getTime() + 1);
      const refused = (call: Promise<unknown>) =>
        call.then(
          () => null,
          (e: unknown) => e as { code: number; message: string },
        );
      const after = await refused(
        client.callTool({ name: "knowledge_search", arguments: { query: "deploy" } }),
      );
      expect(after?.code).toBe(GATE_ERROR.ACCEPTANCE_ENDED);
      expect(after?.message).toContain(
        `${FINDING} (path.to_sensitive_sink, critical) ended ${until}; the gate stopped forwarding`,
      );
      expect((await refused(client.listTools()))?.code).toBe(GATE_ERROR.ACCEPTANCE_ENDED);
      expect(events.filter((e) => e.event === "acceptance_ended")).toEqual([
        expect.objectContaining({ server: "knowledge-mcp", decision: "dec-docs" }),
      ]);
    } finally {
      await client.close();
      await gate.close();
    }
  });
});
