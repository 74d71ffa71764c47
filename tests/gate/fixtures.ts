/**
 * Signed decision records for gate tests, made the way the workbench makes them: a real
 * inspection of the demo server, the demo review's documentation agent (knowledge_search and
 * read_page only), a decision bound to the live fingerprint, signed with a throwaway key.
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { buildDecision } from "@/lib/decisions/binding";
import {
  buildDecisionRecord,
  recordSurfaceOf,
  signRecord,
  type DecisionRecord,
} from "@/lib/decisions/record";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { createDemoReview } from "@/lib/review/demo";
import { ReviewSchema, type Review } from "@/lib/review/schema";
import { buildRegistrationRecord } from "@/lib/surface/registration";
import type { SurfaceSnapshot } from "@/lib/surface/types";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const BIN = path.join(ROOT, "bin/relay-review.mjs");
export const KNOWLEDGE_ARGS = [
  "--import",
  "tsx",
  path.join(ROOT, "servers/knowledge-mcp.ts"),
  "stdio",
];
export const MUTATING_ARGS = [
  "--import",
  "tsx",
  path.join(ROOT, "tests/gate/fixtures/mutating-server.ts"),
];

export async function inspectStdio(
  args: string[],
  env: Record<string, string> = {},
): Promise<SurfaceSnapshot> {
  const r = await inspectServer({ kind: "stdio", command: process.execPath, args, env, cwd: ROOT });
  if (!r.ok) throw new Error(`inspection failed: ${r.error.message}`);
  return r.snapshot;
}
export const inspectKnowledge = (env: Record<string, string> = {}) =>
  inspectStdio(KNOWLEDGE_ARGS, env);

/** A one-server review for the mutating fixture: its agent holds echo only. */
export function mutatingReview(): Review {
  return ReviewSchema.parse({
    schemaVersion: 2,
    title: "mutating fixture",
    servers: [
      {
        id: "mutating",
        name: "mutating",
        transport: { kind: "stdio", command: "node", args: MUTATING_ARGS },
      },
    ],
    agents: [
      { id: "echo-agent", name: "echo agent", tools: [{ serverId: "mutating", tool: "echo" }] },
    ],
  });
}

export type Signed = {
  record: DecisionRecord;
  privateKey: KeyObject;
  dir: string;
  recordPath: string;
  publicKeyPath: string;
  snapshot: SurfaceSnapshot;
};

/** The docs agent's decision about knowledge-mcp, signed; files written to a fresh temp folder. */
export function signedDocsRecord(snapshot: SurfaceSnapshot, agentId = "docs-agent"): Signed {
  return signedRecord(createDemoReview(), "knowledge-mcp", agentId, snapshot);
}

export function signedRecord(
  review: Review,
  serverId: string,
  agentId: string,
  snapshot: SurfaceSnapshot,
  more: { elicitationUrlDomains?: string[] } = {},
): Signed {
  const server = review.servers.find((s) => s.id === serverId)!;
  const decision = buildDecision(review, {
    id: "dec-docs",
    serverId,
    agentId,
    verdict: "approved",
    reviewer: "R. Reviewer",
    rationale:
      "Search and read only; the documentation agent holds nothing that writes, deploys or shares.",
    now: "2026-01-05T10:00:00.000Z",
    revision: 1,
    surfaceSha256: snapshot.surfaceSha256,
  });
  review.decisions.push(decision);
  const reg = buildRegistrationRecord(snapshot, { server: server.name, image: server.imageDigest });
  const unsigned = buildDecisionRecord({
    review,
    reviewId: "rev-demo",
    revision: 2,
    decision,
    issuedAt: new Date().toISOString(),
    currentSurfaceSha256: snapshot.surfaceSha256,
    surface: recordSurfaceOf(reg, { ...(snapshot.era ? { era: snapshot.era } : {}), ...more }),
  });
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const record = signRecord(unsigned, privateKey);
  const dir = mkdtempSync(path.join(tmpdir(), "relay-review-gate-"));
  const recordPath = path.join(dir, "record.json");
  const publicKeyPath = path.join(dir, "public.pem");
  writeFileSync(recordPath, JSON.stringify(record, null, 2));
  writeFileSync(publicKeyPath, publicKey.export({ type: "spki", format: "pem" }).toString());
  return { record, privateKey, dir, recordPath, publicKeyPath, snapshot };
}

export type Events = { event: string; [k: string]: unknown }[];

/** The gate's JSON event lines in what it wrote to stderr. */
export const eventsIn = (stderr: string): Events =>
  stderr
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Events[number]);

/** Start the gate as a child of a real SDK client; stderr is collected. */
export async function connectThroughGate(
  gateArgs: string[],
  serverArgs: string[],
): Promise<{ client: Client; stderr: () => string; close: () => Promise<void> }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "gate", ...gateArgs, "--", "node", ...serverArgs],
    cwd: ROOT,
    env: getDefaultEnvironment(),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: "agent", version: "1.0.0" });
  try {
    await client.connect(transport, { timeout: 90_000 });
  } catch (error) {
    throw Object.assign(new Error(`connect failed: ${(error as Error).message}\n${stderr}`), {
      stderr: () => stderr,
    });
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}
