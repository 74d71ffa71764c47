/**
 * The gate in front of an OAuth-protected server whose tools/call needs more scope than its
 * listing (tests/support/oauth-fixture.ts: a real authorization server on loopback): a real SDK
 * client starts `relay-review gate --url` as a child and calls a tool. The gate must step up in
 * the middle of the session, not only while starting: interactive, a second "authorize at:" line,
 * the consent through its loopback redirect, the call sent again and answered; refused, a JSON-RPC
 * error naming the OAuth step while the session goes on; headless (client credentials), a wider
 * token; a server whose demand never ends, an error after the session's bound, not a hang.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, test } from "vitest";
import { GATE_ERROR } from "@/lib/gate/policy";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { MemoryOAuthStorage } from "@/lib/mcp/oauth/memory-storage";
import { createOAuthProvider } from "@/lib/mcp/oauth/provider";
import { ReviewSchema } from "@/lib/review/schema";
import { startOAuthFixture, type OAuthFixture } from "@/tests/support/oauth-fixture";
import { BIN, ROOT, signedRecord } from "./fixtures";

const BOT = { id: "ci-bot", secret: "ci-bot-secret-0123456789" };
/** A server whose listing needs mcp:read and whose tools/call needs mcp:write on top. */
const STEP_UP = {
  scopesSupported: ["mcp:read"],
  callScopes: ["mcp:read", "mcp:write"],
  client: BOT,
};

let fx: OAuthFixture | null = null;
let agent: { close: () => Promise<void> } | null = null;
afterEach(async () => {
  await agent?.close().catch(() => {});
  agent = null;
  await fx?.close();
  fx = null;
});

/** The fixture's surface, inspected with a client-credentials grant, signed for an agent holding whoami. */
async function recordFor(fixture: OAuthFixture) {
  const auth = createOAuthProvider({
    serverUrl: fixture.mcpUrl,
    storage: new MemoryOAuthStorage(),
    grant: "client_credentials",
    client: { preRegistered: { clientId: BOT.id, clientSecret: BOT.secret } },
  });
  const inspected = await inspectServer({ kind: "http", url: fixture.mcpUrl, auth });
  if (!inspected.ok) throw new Error(`inspection failed: ${inspected.error.message}`);
  const review = ReviewSchema.parse({
    schemaVersion: 2,
    title: "oauth gate",
    servers: [{ id: "remote", name: "remote", transport: { kind: "http", url: fixture.mcpUrl } }],
    agents: [{ id: "caller", name: "caller", tools: [{ serverId: "remote", tool: "whoami" }] }],
  });
  fixture.requests.length = 0;
  fixture.issued.length = 0;
  return signedRecord(review, "remote", "caller", inspected.snapshot);
}

type Signed = Awaited<ReturnType<typeof recordFor>>;
const recordArgs = (signed: Signed) => [
  "--record",
  signed.recordPath,
  "--public-key",
  signed.publicKeyPath,
];
/** The gate's arguments for the fixture, consent asked of a user (the "authorize at:" lines). */
const interactive = (signed: Signed, fixture: OAuthFixture) => [
  ...recordArgs(signed),
  "--url",
  fixture.mcpUrl,
];
/** The gate's arguments and environment for the fixture, as the CI bot (client credentials). */
const headless = (signed: Signed, fixture: OAuthFixture): [string[], Record<string, string>] => [
  [
    ...recordArgs(signed),
    "--issuer",
    fixture.base,
    "--client-credentials",
    "--client-id",
    BOT.id,
    "--client-secret-env",
    "CI_BOT_SECRET",
    "--url",
    fixture.mcpUrl,
  ],
  { CI_BOT_SECRET: BOT.secret },
];

/** Start the gate as the agent's client would; "authorize at:" lines are approved unless `approve` is false. */
async function connect(gateArgs: string[], env: Record<string, string> = {}, approve = true) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "gate", "--authorize-timeout-ms", "20000", ...gateArgs],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), ...env },
    stderr: "pipe",
  });
  let stderr = "";
  let partial = "";
  const approvals: Promise<unknown>[] = [];
  transport.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
    partial += d.toString();
    const lines = partial.split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) {
      const m = /authorize at: (\S+)/.exec(line);
      if (!m || !approve) continue;
      // The person at the browser: approve, and the browser follows the redirect to the gate.
      approvals.push(
        fetch(m[1]!, { redirect: "manual" }).then((res) => fetch(res.headers.get("location")!)),
      );
    }
  });
  const client = new Client({ name: "agent", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 60_000 });
  } catch (error) {
    throw new Error(`connect failed: ${(error as Error).message}\n${stderr}`);
  }
  agent = client;
  const events = () =>
    stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { event: string; [k: string]: unknown });
  return { client, stderr: () => stderr, events, approvals };
}

const callError = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error("the call was answered");
    },
    (e: unknown) => {
      if (!(e instanceof McpError)) throw e;
      return e;
    },
  );

describe("gate --url: OAuth step-up in the middle of a session", { timeout: 120_000 }, () => {
  test("interactive: a call that needs more scope gets a second consent, then its answer", async () => {
    fx = await startOAuthFixture(STEP_UP);
    const signed = await recordFor(fx);
    const gate = await connect(interactive(signed, fx));
    expect((await gate.client.listTools()).tools.map((t) => t.name)).toEqual(["whoami"]);
    const result = await gate.client.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "fixture" }]);

    // One consent to start (the listing's scope), one mid-session for the call's wider scope.
    const asked = fx.requests.filter((r) => r.path === "/authorize").map((r) => r.query.scope);
    expect(asked).toEqual(["mcp:read", "mcp:read mcp:write"]);
    expect(gate.stderr().match(/authorize at: /g)).toHaveLength(2);
    expect(gate.events()).toContainEqual(
      expect.objectContaining({ event: "step_up", method: "tools/call", outcome: "granted" }),
    );
    // The next call uses the wider token: no third consent.
    await gate.client.callTool({ name: "whoami", arguments: {} });
    expect(fx.requests.filter((r) => r.path === "/authorize")).toHaveLength(2);
    const secrets = fx.issued.flatMap((i) => [i.accessToken, i.refreshToken ?? "none-none"]);
    for (const s of secrets) expect(gate.stderr()).not.toContain(s);
  });

  test("interactive: three calls refused at once wait for one consent, and all are answered", async () => {
    fx = await startOAuthFixture(STEP_UP);
    const signed = await recordFor(fx);
    const gate = await connect(interactive(signed, fx));
    const results = await Promise.all(
      [1, 2, 3].map(() => gate.client.callTool({ name: "whoami", arguments: {} })),
    );
    for (const r of results) expect(r.content).toEqual([{ type: "text", text: "fixture" }]);
    // The listing's consent, then one step-up for all three: no second URL, no step-up counted twice.
    const asked = fx.requests.filter((r) => r.path === "/authorize").map((r) => r.query.scope);
    expect(asked).toEqual(["mcp:read", "mcp:read mcp:write"]);
    expect(gate.stderr().match(/authorize at: /g)).toHaveLength(2);
    const granted = gate.events().filter((e) => e.event === "step_up");
    expect(granted).toHaveLength(3);
    for (const e of granted) expect(e.outcome).toBe("granted");
  });

  test("headless: three calls refused at once get one wider token between them", async () => {
    fx = await startOAuthFixture({ client: BOT, callScopes: ["mcp:write"] });
    const signed = await recordFor(fx);
    const gate = await connect(...headless(signed, fx));
    const results = await Promise.all(
      [1, 2, 3].map(() => gate.client.callTool({ name: "whoami", arguments: {} })),
    );
    for (const r of results) expect(r.content).toEqual([{ type: "text", text: "fixture" }]);
    expect(fx.issued.map((i) => [i.grant, i.scope])).toEqual([
      ["client_credentials", null],
      ["client_credentials", "mcp:write"],
    ]);
  });

  test("a refused step-up is the agent's JSON-RPC error naming the step; the session goes on", async () => {
    fx = await startOAuthFixture({ ...STEP_UP, refuseScope: "mcp:write" });
    const signed = await recordFor(fx);
    const gate = await connect(interactive(signed, fx));
    const error = await callError(gate.client.callTool({ name: "whoami", arguments: {} }));
    expect(error.code).toBe(GATE_ERROR.UNAUTHORIZED);
    expect(error.message).toMatch(/refused the gate's authorization for tools\/call/);
    expect(error.message).toMatch(/authorization response failed: .*access_denied/);
    expect(error.data).toEqual({ reason: "unauthorized", step: "authorization_response" });
    expect(gate.events()).toContainEqual(
      expect.objectContaining({
        event: "step_up",
        outcome: "refused",
        step: "authorization_response",
      }),
    );
    // The listing's grant still serves what it covers.
    expect((await gate.client.listTools()).tools.map((t) => t.name)).toEqual(["whoami"]);
  });

  test("headless client credentials: the wider token is requested without asking anyone", async () => {
    fx = await startOAuthFixture({ client: BOT, callScopes: ["mcp:write"] });
    const signed = await recordFor(fx);
    const gate = await connect(...headless(signed, fx));
    const result = await gate.client.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "fixture" }]);
    expect(fx.issued.map((i) => [i.grant, i.scope])).toEqual([
      ["client_credentials", null],
      ["client_credentials", "mcp:write"],
    ]);
    expect(fx.requests.some((r) => r.path === "/authorize")).toBe(false);
    expect(gate.stderr()).not.toContain(BOT.secret);
  });

  test("a server whose demanded scope grows with every call is stopped after the session's bound", async () => {
    fx = await startOAuthFixture({ client: BOT, callScopes: (n) => [`mcp:step${n}`] });
    const signed = await recordFor(fx);
    const gate = await connect(...headless(signed, fx));
    const error = await callError(gate.client.callTool({ name: "whoami", arguments: {} }));
    expect(error.code).toBe(GATE_ERROR.UNAUTHORIZED);
    expect(error.message).toMatch(/asked to widen the grant 4 times in one session \(limit 3\)/);
    expect(error.data).toEqual({ reason: "unauthorized", step: "challenge" });
    // Three step-up grants after the first token, then nothing more was asked for.
    expect(fx.issued.map((i) => i.scope)).toEqual([null, "mcp:step0", "mcp:step1", "mcp:step2"]);
  });
});
