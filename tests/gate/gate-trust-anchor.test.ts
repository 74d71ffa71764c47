/**
 * Issue 28, finding 14: the exported client config pins its trust anchor. It finds the record and
 * the public key by path, in a folder the agent may be able to write; whoever writes there could
 * put a record of their own beside a key of their own. The config therefore carries the SHA-256
 * of the workbench's public key (`--key-sha256`), and the real gate refuses any other key.
 */
import { generateKeyPairSync } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, test } from "vitest";
import { signRecord, signingKeySha256 } from "@/lib/decisions/record";
import { buildExport } from "@/lib/exports/exports";
import { createDemoReview } from "@/lib/review/demo";
import { runCli } from "@/tests/support/cli";
import {
  KNOWLEDGE_ARGS,
  connectThroughGate,
  inspectKnowledge,
  signedDocsRecord,
  type Signed,
} from "./fixtures";

let signed: Signed;
beforeAll(async () => {
  signed = signedDocsRecord(await inspectKnowledge());
}, 120_000);

describe("the client config pins the workbench's key", { timeout: 180_000 }, () => {
  test("the export carries the key's SHA-256 in the gate's arguments", () => {
    const review = createDemoReview();
    review.decisions.push({
      ...signed.record.decision,
      reviewer: signed.record.decision.reviewer ?? "owner token",
      pin: null,
    });
    const sha = signingKeySha256(signed.privateKey);
    const r = buildExport("client-config", review, review.decisions.at(-1)!, {
      publicKeySha256: sha,
    });
    if (!r.ok) throw new Error(r.reason);
    const entry = Object.values(
      (JSON.parse(r.file.text) as { mcpServers: Record<string, { args: string[] }> }).mcpServers,
    )[0]!;
    const at = entry.args.indexOf("--key-sha256");
    expect(at).toBeGreaterThan(-1);
    expect(entry.args[at + 1]).toBe(sha);
  });

  test("a record and key swapped beside it are refused; the pinned pair still runs", async () => {
    const sha = signingKeySha256(signed.privateKey);
    // The attacker's own pair: a record approving every tool, signed with their key, in place of both files.
    const attacker = generateKeyPairSync("ed25519");
    const { signature: _s, ...unsigned } = signed.record;
    const forged = signRecord(unsigned, attacker.privateKey);
    const recordPath = path.join(signed.dir, "swapped.record.json");
    const keyPath = path.join(signed.dir, "swapped.pub.pem");
    writeFileSync(recordPath, JSON.stringify(forged));
    writeFileSync(keyPath, attacker.publicKey.export({ type: "spki", format: "pem" }).toString());
    const server = ["--", "node", "-e", "process.stderr.write('SERVER STARTED'); process.exit(9)"];
    const r = await runCli([
      "gate",
      "--record",
      recordPath,
      "--public-key",
      keyPath,
      "--key-sha256",
      sha,
      ...server,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`is not the pinned key ${sha}`);
    expect(r.stderr).not.toContain("SERVER STARTED");
    const bad = await runCli([
      "gate",
      "--record",
      recordPath,
      "--public-key",
      keyPath,
      "--key-sha256",
      "abc",
      ...server,
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--key-sha256 must be 64 hex characters");
    const session = await connectThroughGate(
      ["--record", signed.recordPath, "--public-key", signed.publicKeyPath, "--key-sha256", sha],
      KNOWLEDGE_ARGS,
    );
    try {
      expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });
});
