/**
 * The conformance scenarios that need a tools/call (scripts/conformance.sh: sse-retry,
 * auth/scope-step-up, and of the 2026-07-28 set tools_call, sep-2322-client-request-state and the
 * http-*-headers scenarios), played through the gate, the one component that calls a tool upstream.
 * What an operator and an agent do, in order, in ONE Node process:
 *   1. inspect the URL (the workbench's runInspection, into a temporary data folder's PGlite),
 *      with the CLI's OAuth session (cli/shared/oauth.ts: "authorize at:" line, loopback redirect);
 *   2. create a review holding that server and an agent whose tool set is every tool it lists,
 *      pin the inspection, record an approved decision, and issue its signed record with the
 *      temporary folder's signing key (lib/workbench/{surface,decisions}.ts, as the app's routes do);
 *   3. verify the record and start the gate (lib/mcp/node/gate.ts, the code `relay-review gate`
 *      runs) on loopback, with the same OAuth session and the CLI's step-up consent;
 *   4. play the agent over Streamable HTTP: initialize, tools/list, tools/call for every tool.
 * Resolves 0 only when every call got a result.
 *
 * Why one process and not `relay-review inspect` then `relay-review gate`: the two would hold two
 * OAuth sessions, each asking for its own consent, and auth/scope-step-up counts authorization
 * requests over the whole run (the first must ask for mcp:basic, the second for mcp:basic
 * mcp:write). The CLI never writes a token to disk or prints one, so a token cannot be handed
 * from one process to the next; here the same in-memory session serves the inspection, the
 * gate's startup check and the relayed calls, and nothing secret leaves the process.
 *
 * Run by scripts/conformance-client.mjs (through tsx) with the same OAuth flags it gives
 * `inspect`; `say` receives the lines a terminal would show (the caller approves "authorize at:").
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { parseArgs } from "@/cli/shared/args";
import { OAUTH_BOOL_FLAGS, OAUTH_VALUE_FLAGS, prepareCliOAuth } from "@/cli/shared/oauth";
import { withRecordVariables } from "@/cli/shared/record-target";
import { DecideRequestSchema } from "@/lib/decisions/api";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { verifyRecord } from "@/lib/decisions/record";
import { formatGateEvent } from "@/lib/gate/policy";
import type { ServerId } from "@/lib/ids";
import { startGate } from "@/lib/mcp/node/gate";
import { ReviewSchema } from "@/lib/review/schema";
import { openStore } from "@/lib/store/db";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";
import { currentSurface } from "@/lib/workbench/current-surface";
import { decide, findingsNow, issueDecisionRecord } from "@/lib/workbench/decisions";
import { runInspection } from "@/lib/workbench/inspect-run";
import { pinLatest } from "@/lib/workbench/surface";

const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER = "upstream" as ServerId;
const AGENT = "agent";
/** Bound on each of the agent's requests (a step-up consent happens inside one). */
const AGENT_REQUEST_TIMEOUT_MS = 45_000;

/** A tool call the scenario names (MCP_CONFORMANCE_CONTEXT's `toolCalls`), as an agent would make it. */
export type ScenarioToolCall = { name: string; arguments?: Record<string, unknown> };

/**
 * The arguments the agent passes: the scenario's own for a tool it names, else one value of the
 * declared type for each required property (an agent fills what the schema asks for).
 */
function argumentsFor(
  tool: { name: string; inputSchema?: { properties?: unknown; required?: unknown } },
  toolCalls: readonly ScenarioToolCall[],
): Record<string, unknown> {
  const named = toolCalls.find((c) => c.name === tool.name);
  if (named) return named.arguments ?? {};
  const properties = (tool.inputSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = Array.isArray(tool.inputSchema?.required) ? tool.inputSchema.required : [];
  const sample: Record<string, unknown> = { number: 1, integer: 1, boolean: true, string: "x" };
  const args: Record<string, unknown> = {};
  for (const name of required)
    if (typeof name === "string") args[name] = sample[String(properties[name]?.type)] ?? "x";
  return args;
}

export async function runAgent(
  argv: string[],
  say: (line: string) => void,
  toolCalls: readonly ScenarioToolCall[] = [],
  /**
   * Exit 0 when every call was answered, by a result or an error (scenarios whose server answers
   * some calls with what a client must refuse, such as a 2026 result without `resultType`);
   * otherwise only when every call got a result.
   */
  anyAnswer = false,
): Promise<number> {
  const parsed = parseArgs(argv, [...OAUTH_VALUE_FLAGS], [...OAUTH_BOOL_FLAGS]);
  if (parsed.errors.length || parsed.target?.kind !== "http") {
    say(`usage: conformance-agent [oauth flags] --url URL (${parsed.errors.join("; ")})`);
    return 2;
  }
  const url = parsed.target.url;
  const prepared = await prepareCliOAuth(parsed.flags, parsed.target, say);
  if (!prepared.ok) {
    say(prepared.message);
    return 2;
  }
  const oauth = prepared.oauth;
  const dataDir = mkdtempSync(path.join(tmpdir(), "relay-review-conformance-"));
  const store = await openStore({
    target: { kind: "pglite", dataDir: path.join(dataDir, "pglite") },
    migrationsFolder: path.join(ROOT, "drizzle"),
  });
  try {
    // 1-2. The review, the inspection (consent on the way), the agent's tools, the pin, the decision.
    const db = store.db;
    const created = await createReview(
      db,
      ReviewSchema.parse({
        schemaVersion: 2,
        title: "conformance scenario",
        servers: [{ id: SERVER, name: "conformance server", transport: { kind: "http", url } }],
        agents: [{ id: AGENT, name: "conformance agent", tools: [] }],
      }),
      "conformance",
    );
    const reviewId = created.id;
    const server = created.review.servers[0]!;
    const inspect = () =>
      runInspection(
        db,
        {
          ok: true,
          record: created,
          server,
          target: prepared.target,
          variables: [],
          values: new Map(),
        },
        {},
      );
    const inspected = oauth
      ? await oauth.authorizing(inspect, (error) => ({
          type: "result" as const,
          ok: false as const,
          inspectionId: null,
          error,
        }))
      : await inspect();
    if (!inspected.ok) {
      say(`inspection failed: ${inspected.error?.message ?? "no reason given"}`);
      return 1;
    }
    const snapshot = (await currentSurface(db, reviewId, SERVER))?.snapshot;
    if (!snapshot) throw new Error("the inspection's snapshot was not stored");
    const tools = snapshot.tools.map((t) => t.name);
    say(`inspected ${url}: ${tools.length} tools (${tools.join(", ")})`);
    const current = (await getReview(db, reviewId))!;
    const withTools = {
      ...current.review,
      agents: current.review.agents.map((a) =>
        a.id === AGENT ? { ...a, tools: tools.map((tool) => ({ serverId: SERVER, tool })) } : a,
      ),
    };
    const saved = await saveReview(db, reviewId, current.revision, withTools, "conformance");
    if (!saved?.ok) throw new Error("could not save the agent's tools");
    const pinned = await pinLatest(db, reviewId, SERVER, {
      reason: "",
      author: "conformance",
      surfaceSha256: snapshot.surfaceSha256,
      baseRevision: saved.record.revision,
    });
    // The scenario servers' tools read as risky (text returned to the model, writes): the
    // reviewer of this throwaway review accepts each open finding for the run, as the app asks.
    const open = (await findingsNow(db, reviewId, pinned.record.review)).of(SERVER, AGENT);
    const decided = await decide(
      db,
      reviewId,
      DecideRequestSchema.parse({
        baseRevision: pinned.record.revision,
        serverId: SERVER,
        agentId: AGENT,
        verdict: "approved",
        acceptances: open.map((f) => ({
          findingId: f.id,
          owner: "conformance",
          why: "A conformance scenario's test server, for this run only.",
        })),
        reviewer: "conformance",
        rationale: "The conformance scenario's server, every tool it lists, for this run only.",
      }),
    );
    const key = await loadOrCreateSigningKey(dataDir);
    const signed = await issueDecisionRecord(db, reviewId, decided.decision.decision.id, key);

    // 3. The gate, as `relay-review gate --record … --url …` starts it, on the same OAuth session.
    const verified = verifyRecord(JSON.stringify(signed), key.publicKeyPem);
    if (!verified.ok) throw new Error(`the record did not verify: ${verified.message}`);
    const started = await startGate({
      record: verified.record,
      target: withRecordVariables(prepared.target, verified.record.server.transport).target,
      onEvent: (e) => process.stderr.write(formatGateEvent(e)),
      ...(oauth ? { consent: oauth.consent } : {}),
    });
    if (!started.ok) {
      say(`the gate refused to start: ${started.refusal.message}`);
      return 1;
    }
    const gate = started.gate;
    // A bearer token, as `gate --listen` requires by default.
    const token = randomBytes(32).toString("base64url");
    const listening = await gate.listen(0, token);
    try {
      // 4. The agent.
      const client = new Client({ name: "conformance-agent", version: "1.0.0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(listening.url), {
          requestInit: { headers: { Authorization: `Bearer ${token}` } },
        }),
      );
      const listed = await client.listTools(undefined, { timeout: AGENT_REQUEST_TIMEOUT_MS });
      let answered = 0;
      for (const tool of listed.tools) {
        try {
          const args = argumentsFor(tool, toolCalls);
          const result = await client.callTool({ name: tool.name, arguments: args }, undefined, {
            timeout: AGENT_REQUEST_TIMEOUT_MS,
          });
          answered++;
          say(`tools/call ${tool.name}: answered${result.isError ? " (isError)" : ""}`);
        } catch (error) {
          if (anyAnswer && error instanceof McpError) answered++;
          say(`tools/call ${tool.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await client.close();
      say(`${answered} of ${listed.tools.length} calls answered through the gate`);
      return listed.tools.length > 0 && answered === listed.tools.length ? 0 : 1;
    } finally {
      await listening.close();
      await gate.close();
    }
  } finally {
    await oauth?.close();
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
