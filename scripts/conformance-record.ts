/**
 * A signed decision record for the server conformance run against `relay-review gate --listen`
 * (scripts/conformance.sh): knowledge-mcp inspected over stdio as the gate will start it, the
 * demo review's documentation agent (knowledge_search and read_page), a decision bound to the
 * live fingerprint, signed with a throwaway Ed25519 key. Writes record.json and public.pem into
 * the folder given as the only argument. No workbench, no data folder: the key exists only here.
 *   node --import tsx scripts/conformance-record.ts DIR
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { buildDecision } from "@/lib/decisions/binding";
import { buildDecisionRecord, recordSurfaceOf, signRecord } from "@/lib/decisions/record";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { createDemoReview } from "@/lib/review/demo";
import { buildRegistrationRecord } from "@/lib/surface/registration";

const dir = process.argv[2];
if (!dir) {
  process.stderr.write("usage: conformance-record.ts DIR\n");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const inspected = await inspectServer({
  kind: "stdio",
  command: process.execPath,
  args: ["--import", "tsx", path.join(root, "servers/knowledge-mcp.ts"), "stdio"],
  cwd: root,
});
if (!inspected.ok) {
  process.stderr.write(`inspection failed: ${inspected.error.message}\n`);
  process.exit(1);
}
const snapshot = inspected.snapshot;
const review = createDemoReview();
const server = review.servers.find((s) => s.id === "knowledge-mcp")!;
const decision = buildDecision(review, {
  id: "dec-conformance",
  serverId: "knowledge-mcp",
  agentId: "docs-agent",
  verdict: "approved",
  reviewer: "conformance run",
  rationale: "Search and read only: the server conformance scenarios run through the gate.",
  now: new Date().toISOString(),
  revision: 1,
  surfaceSha256: snapshot.surfaceSha256,
});
review.decisions.push(decision);
const reg = buildRegistrationRecord(snapshot, { server: server.name, image: server.imageDigest });
const unsigned = buildDecisionRecord({
  review,
  reviewId: "rev-conformance",
  revision: 2,
  decision,
  issuedAt: new Date().toISOString(),
  currentSurfaceSha256: snapshot.surfaceSha256,
  surface: recordSurfaceOf(reg, snapshot.era ? { era: snapshot.era } : {}),
});
const { privateKey, publicKey } = generateKeyPairSync("ed25519");
writeFileSync(
  path.join(dir, "record.json"),
  JSON.stringify(signRecord(unsigned, privateKey), null, 2),
);
writeFileSync(
  path.join(dir, "public.pem"),
  publicKey.export({ type: "spki", format: "pem" }).toString(),
);
