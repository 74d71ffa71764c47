/**
 * Interval signing of the audit head (lib/watch/node/audit-heads.ts) on PGlite: a process without
 * the workbench key signs nothing (it would sign with a key nobody verifies with); with the key,
 * a head is signed once per movement of the chain, and the chain then verifies with it.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadOrCreateSigningKey } from "@/lib/decisions/node/keys";
import { listAuditHeads, verifyStoredChain } from "@/lib/store/audit";
import { openStore, type Store } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { signHeadIfKeyed } from "@/lib/watch/node/audit-heads";

let dir: string;
let store: Store;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "rr-audit-heads-"));
  store = await openStore({ target: { kind: "pglite", dataDir: path.join(dir, "pglite") } });
});
afterAll(async () => {
  await store.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe("signing the audit head at intervals", () => {
  test("signs only with the workbench key, and only when the chain moved", async () => {
    await appendEvent(store.db, { kind: "secret.set", actor: "owner", summary: "A" });
    const keyDir = path.join(dir, "data");
    expect(await signHeadIfKeyed(store.db, keyDir)).toBe(false);
    expect(await listAuditHeads(store.db)).toEqual([]);

    const key = await loadOrCreateSigningKey(keyDir);
    expect(await signHeadIfKeyed(store.db, keyDir)).toBe(true);
    expect(await signHeadIfKeyed(store.db, keyDir)).toBe(true);
    expect((await listAuditHeads(store.db)).map((h) => [h.length, h.reason])).toEqual([
      [1, "interval"],
    ]);
    await appendEvent(store.db, { kind: "secret.set", actor: "owner", summary: "B" });
    await signHeadIfKeyed(store.db, keyDir);
    expect((await listAuditHeads(store.db)).map((h) => h.length)).toEqual([1, 2]);
    expect(await verifyStoredChain(store.db, key.publicKey)).toMatchObject({
      isIntact: true,
      signedHeads: 2,
      rowsAfterLastSignedHead: 0,
    });
  });
});
