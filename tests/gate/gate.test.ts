/**
 * The gate in the path: a real agent-side SDK client starts `relay-review gate` (a child process)
 * in place of the demo knowledge-mcp server, over stdio and over Streamable HTTP. The record is
 * built and signed the way the workbench builds it, from a real inspection, approving the
 * documentation agent's knowledge_search and read_page only.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { KNOWLEDGE_DESCRIPTIONS } from "@/servers/knowledge-mcp";
import { signRecord } from "@/lib/decisions/record";
import {
  BIN,
  connectThroughGate,
  eventsIn,
  KNOWLEDGE_ARGS,
  MUTATING_ARGS,
  ROOT,
  inspectKnowledge,
  inspectStdio,
  mutatingReview,
  signedDocsRecord,
  signedRecord,
  type Signed,
} from "./fixtures";

/** Run the gate with a fake client that sends initialize and records every byte the gate writes back. */
async function runGateRaw(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "gate", ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.on("error", () => {});
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
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  return { code, stdout, stderr };
}

let signed: Signed;
beforeAll(async () => {
  signed = signedDocsRecord(await inspectKnowledge());
}, 120_000);

describe("gate over stdio", { timeout: 180_000 }, () => {
  let session: Awaited<ReturnType<typeof connectThroughGate>>;
  beforeAll(async () => {
    session = await connectThroughGate(
      ["--record", signed.recordPath, "--public-key", signed.publicKeyPath],
      KNOWLEDGE_ARGS,
    );
  }, 120_000);
  afterAll(async () => session?.close());

  test("lists only the approved tools, with the reviewed descriptions", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["knowledge_search", "read_page"]);
    expect(tools.find((t) => t.name === "knowledge_search")?.description).toBe(
      KNOWLEDGE_DESCRIPTIONS.knowledge_search,
    );
  });

  test("a call outside the approved set is refused, with one JSON line on stderr", async () => {
    const before = eventsIn(session.stderr()).filter((e) => e.event === "refused_call").length;
    const error = await session.client
      .callTool({ name: "get_comment", arguments: { comment_id: "c-4" } })
      .then(
        () => null,
        (e: unknown) => e as { code: number; message: string },
      );
    expect(error).not.toBeNull();
    expect(error!.code).toBe(-32602);
    expect(error!.message).toContain(
      'tool "get_comment" is not approved for documentation agent by decision dec-docs',
    );
    await expect
      .poll(() => eventsIn(session.stderr()).filter((e) => e.event === "refused_call").length, {
        timeout: 5_000,
      })
      .toBe(before + 1);
    const line = eventsIn(session.stderr())
      .filter((e) => e.event === "refused_call")
      .at(-1)!;
    expect(line).toMatchObject({
      event: "refused_call",
      tool: "get_comment",
      server: "knowledge-mcp",
      decision: "dec-docs",
    });
    expect(new Date(line.time as string).getTime()).toBeGreaterThan(0);
    // and the resource template is in the record, so it lists
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(["atlas://spaces/{key}"]);
  });

  test("the client sees the gate's identity, not the server's unpinned serverInfo", () => {
    // No pin covers serverInfo (it is not in the fingerprint): relaying it would let the server
    // tell the agent anything about itself. The gate names itself and the reviewed server.
    const info = session.client.getServerVersion();
    expect(info).toEqual({
      name: "relay-review-gate",
      version: "0.1.0",
      title: "knowledge-mcp through the relay-review gate (decision dec-docs)",
    });
    expect(signed.snapshot.serverInfo.name).not.toBe("relay-review-gate");
  });

  test("an approved call returns the server's real text", async () => {
    const result = await session.client.callTool({
      name: "knowledge_search",
      arguments: { query: "checkout" },
    });
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text).toContain("SUP-4821");
    expect(text).toContain("Checkout page shows a blank screen");
    const read = await session.client.readResource({ uri: "atlas://spaces/ENG" });
    expect(JSON.stringify(read.contents)).toContain("Payments architecture");
    await expect(session.client.readResource({ uri: "file:///etc/passwd" })).rejects.toThrow(
      /not approved/,
    );
  });
});

describe("gate refusals at start", { timeout: 180_000 }, () => {
  test("when the description changed (v4.2), it refuses to start, prints the difference and relays nothing", async () => {
    const r = await runGateRaw([
      "--record",
      signed.recordPath,
      "--public-key",
      signed.publicKeyPath,
      "--env",
      "KNOWLEDGE_MCP_VARIANT=4.2",
      "--",
      "node",
      ...KNOWLEDGE_ARGS,
    ]);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe(""); // not one message relayed, not even an initialize reply
    expect(r.stderr).toContain("refused to start: stale record");
    expect(r.stderr).toContain('~ tool "knowledge_search": changed since review');
    expect(r.stderr).toContain(JSON.stringify(KNOWLEDGE_DESCRIPTIONS.knowledge_search_v4_2));
    expect(eventsIn(r.stderr)).toEqual([
      expect.objectContaining({ event: "refused_start", reason: "surface_mismatch" }),
    ]);
  });

  test("and the agent's client cannot connect", async () => {
    await expect(
      connectThroughGate(
        [
          "--record",
          signed.recordPath,
          "--public-key",
          signed.publicKeyPath,
          "--env",
          "KNOWLEDGE_MCP_VARIANT=4.2",
        ],
        KNOWLEDGE_ARGS,
      ),
    ).rejects.toThrow(/connect failed/);
  });

  test("unsigned, tampered and wrong-key records are refused with distinct messages, before the server starts", async () => {
    const json = JSON.parse(readFileSync(signed.recordPath, "utf8")) as Record<string, unknown>;
    const write = (name: string, value: unknown) => {
      const file = path.join(signed.dir, name);
      writeFileSync(file, JSON.stringify(value));
      return file;
    };
    const { signature: _signature, ...unsigned } = json;
    const decision = json.decision as { toolSet: { serverId: string; tool: string }[] };
    const tampered = {
      ...json,
      decision: {
        ...decision,
        toolSet: [...decision.toolSet, { serverId: "knowledge-mcp", tool: "get_comment" }],
      },
    };
    const otherKey = path.join(signed.dir, "other.pem");
    writeFileSync(
      otherKey,
      generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString(),
    );
    // A server command that would fail loudly if it were started.
    const server = ["--", "node", "-e", "process.stderr.write('SERVER STARTED'); process.exit(9)"];
    const duplicate = path.join(signed.dir, "duplicate.json");
    writeFileSync(
      duplicate,
      readFileSync(signed.recordPath, "utf8").replace(
        /"decision":\s*\{/,
        '"decision":{"verdict":"rejected",',
      ),
    );
    const [u, t, w, d] = await Promise.all([
      runGateRaw([
        "--record",
        write("unsigned.json", unsigned),
        "--public-key",
        signed.publicKeyPath,
        ...server,
      ]),
      runGateRaw([
        "--record",
        write("tampered.json", tampered),
        "--public-key",
        signed.publicKeyPath,
        ...server,
      ]),
      runGateRaw(["--record", signed.recordPath, "--public-key", otherKey, ...server]),
      runGateRaw(["--record", duplicate, "--public-key", signed.publicKeyPath, ...server]),
    ]);
    expect(d.stderr).toContain('duplicate key "verdict" at decision.verdict');
    for (const r of [u, t, w, d]) {
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).not.toContain("SERVER STARTED");
    }
    expect(u.stderr).toContain("refused to start: unsigned record");
    expect(t.stderr).toContain("refused to start: tampered record");
    expect(w.stderr).toContain("refused to start: record signed by another key");
  });
});

describe("the record's age", { timeout: 180_000 }, () => {
  test("a record issued more than 90 days ago is refused by default, before the server starts", async () => {
    const { signature: _signature, ...unsigned } = signed.record;
    const old = path.join(signed.dir, "old.json");
    const issuedAt = new Date(Date.now() - 100 * 86_400_000).toISOString();
    writeFileSync(old, JSON.stringify(signRecord({ ...unsigned, issuedAt }, signed.privateKey)));
    const server = ["--", "node", "-e", "process.stderr.write('SERVER STARTED'); process.exit(9)"];
    const r = await runGateRaw(["--record", old, "--public-key", signed.publicKeyPath, ...server]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("100 days ago, beyond --max-age-days 90");
    expect(r.stderr).not.toContain("SERVER STARTED");
    const longer = await runGateRaw([
      "--record",
      old,
      "--public-key",
      signed.publicKeyPath,
      "--max-age-days",
      "365",
      ...server,
    ]);
    expect(longer.code).toBe(4); // past the age check: the server was started (and failed)
  });
});

describe("surface change while relaying", { timeout: 180_000 }, () => {
  test("a list_changed with a different surface stops the gate: every later call is refused", async () => {
    const review = mutatingReview();
    const s = signedRecord(review, "mutating", "echo-agent", await inspectStdio(MUTATING_ARGS));
    const session = await connectThroughGate(
      ["--record", s.recordPath, "--public-key", s.publicKeyPath],
      MUTATING_ARGS,
    );
    try {
      expect((await session.client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
      const ok = await session.client.callTool({ name: "echo", arguments: { text: "hello" } });
      expect((ok.content as { text: string }[])[0]!.text).toBe("hello");
      await session.client.callTool({ name: "echo", arguments: { text: "mutate" } }); // the server rewrites echo's description
      await expect
        .poll(() => eventsIn(session.stderr()).some((e) => e.event === "surface_changed"), {
          timeout: 10_000,
        })
        .toBe(true);
      const error = await session.client
        .callTool({ name: "echo", arguments: { text: "again" } })
        .then(
          () => null,
          (e: unknown) => e as { code: number; message: string },
        );
      expect(error?.code).toBe(-32001);
      expect(error?.message).toContain("changed its surface after the gate started");
      await expect(session.client.listTools()).rejects.toThrow(/stopped forwarding/);
      const changed = eventsIn(session.stderr()).filter((e) => e.event === "surface_changed");
      expect(changed).toHaveLength(1);
      expect(changed[0]).toMatchObject({
        server: "mutating",
        expected: s.record.decision.bound.surfaceSha256,
        on_surface_change: "block",
      });
    } finally {
      await session.close();
    }
  });
});

/** Start `gate --listen 0` with `extra` flags and `env`; resolves with its stdout lines once it listens. */
async function listening(extra: string[], env: Record<string, string | undefined>) {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "gate",
      "--record",
      signed.recordPath,
      "--public-key",
      signed.publicKeyPath,
      "--listen",
      "0",
      ...extra,
      "--",
      "node",
      ...KNOWLEDGE_ARGS,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } },
  );
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const out = await new Promise<string>((resolve) => {
    let text = "";
    child.stdout.on("data", (d: Buffer) => {
      text += d.toString();
      if (/listening \S+\n/.test(text)) setTimeout(() => resolve(text), 200);
    });
    child.once("exit", () => resolve(text + stderr));
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  };
  return { out, stderr: () => stderr, code: () => child.exitCode, stop };
}

const initialize = (url: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    }),
  });

describe("gate --listen needs a token by default", { timeout: 180_000 }, () => {
  test("without RELAY_REVIEW_GATE_TOKEN it makes one, prints it on stdout, and refuses requests without it", async () => {
    const gate = await listening([], { RELAY_REVIEW_GATE_TOKEN: undefined });
    try {
      const url = /listening (\S+)/.exec(gate.out)?.[1];
      const token = /bearer-token (\S+)/.exec(gate.out)?.[1];
      expect(url, gate.out).toBeDefined();
      expect(token, gate.out).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await initialize(url!)).status).toBe(401);
      expect((await initialize(url!, { authorization: "Bearer wrong" })).status).toBe(401);
      expect((await initialize(url!, { authorization: `Bearer ${token}` })).status).toBe(200);
    } finally {
      await gate.stop();
    }
  });

  test("--listen-no-token is the explicit opt-out; it contradicts a token in the environment", async () => {
    const open = await listening(["--listen-no-token"], { RELAY_REVIEW_GATE_TOKEN: undefined });
    try {
      const url = /listening (\S+)/.exec(open.out)?.[1];
      expect(open.out).not.toContain("bearer-token");
      expect((await initialize(url!)).status).toBe(200);
    } finally {
      await open.stop();
    }
    const both = await listening(["--listen-no-token"], { RELAY_REVIEW_GATE_TOKEN: "t0ken" });
    await both.stop();
    expect(both.code()).toBe(2);
    expect(both.stderr()).toContain("--listen-no-token");
  });
});

describe("gate over Streamable HTTP (--listen)", { timeout: 180_000 }, () => {
  test("a real SDK client over HTTP sees only the approved tools and is refused outside them", async () => {
    const child = spawn(
      process.execPath,
      [
        BIN,
        "gate",
        "--record",
        signed.recordPath,
        "--public-key",
        signed.publicKeyPath,
        "--listen",
        "0",
        "--",
        "node",
        ...KNOWLEDGE_ARGS,
      ],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, RELAY_REVIEW_GATE_TOKEN: "t0ken" },
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d: Buffer) => {
          out += d.toString();
          const m = /listening (\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", (c) => reject(new Error(`gate exited with ${c}: ${stderr}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const unauthorized = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(unauthorized.status).toBe(401);
      const client = new Client({ name: "agent", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { Authorization: "Bearer t0ken" } },
        }),
      );
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual([
        "knowledge_search",
        "read_page",
      ]);
      await expect(
        client.callTool({ name: "get_comment", arguments: { comment_id: "c-4" } }),
      ).rejects.toThrow(/not approved/);
      const r = await client.callTool({ name: "read_page", arguments: { page_id: "OPS-3" } });
      expect((r.content as { text: string }[])[0]!.text).toContain("On-call: deploying a hotfix");
      await client.close();
      expect(eventsIn(stderr).filter((e) => e.event === "refused_call")).toHaveLength(1);
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
  });
});
