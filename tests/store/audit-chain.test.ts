/**
 * The audit log as evidence, on both stores: every appended event is a link of the hash chain and
 * names its actor; a row altered, removed or reordered directly in the database (the append-only
 * trigger switched off, as a database owner can) is detected and named by the walk; a signed head
 * catches a removed last row and a rehashed chain; concurrent writers on PostgreSQL (two store
 * instances, each with its own pool) never fork it; and a database upgraded from migration 0004
 * with events already in it verifies after the store opens.
 */
import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { GENESIS_PREV_HASH, rowHash, type ChainRow } from "@/lib/audit/chain";
import { shareLinkActor } from "@/lib/events/actor";
import { readChain, sealLegacyEvents, signChainHead, verifyStoredChain } from "@/lib/store/audit";
import { MIGRATIONS_FOLDER, openStore, type Db, type Store } from "@/lib/store/db";
import { appendEvent, listEvents } from "@/lib/store/events";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { createReview } from "@/lib/store/reviews";
import { createShareLink } from "@/lib/store/share-links";
import { createDemoReview } from "@/lib/review/demo";
import { hashShareToken, loadShareView, newShareToken } from "@/lib/workbench/share";
import { BACKENDS } from "./support/backends";

const { privateKey, publicKey } = generateKeyPairSync("ed25519");

type Opened = { store: Store; drop: () => Promise<void>; target: Store["target"] };
const opened: Opened[] = [];
afterEach(async () => {
  for (const o of opened.splice(0)) {
    await o.store.close();
    await o.drop();
  }
});

/** Five events by four kinds of actor, in order: e1 … e5. */
async function logFive(db: Db): Promise<void> {
  await appendEvent(db, { id: "e1", kind: "secret.set", actor: "owner", summary: "Secret A set" });
  await appendEvent(db, {
    id: "e2",
    kind: "surface.changed",
    actor: "schedule",
    reviewId: "rev-1",
    serverId: "srv-1",
    summary: "knowledge-mcp changed",
    detail: { added: ["get_page"], counts: { tools: 3 }, note: undefined },
  });
  await appendEvent(db, {
    id: "e3",
    kind: "pin.set",
    actor: "owner",
    reviewId: "rev-1",
    summary: "Pinned knowledge-mcp",
    detail: { reason: 'reviewed the new tool — ünïcode \u2028 and "quotes"' },
  });
  await appendEvent(db, {
    id: "e4",
    kind: "share_link.created",
    actor: shareLinkActor("shl-1"),
    summary: "Share link used",
  });
  await auditOwnerAction(db, { kind: "decision.made", reviewId: "rev-1", summary: "Approved" });
}

/** What a database owner can do: switch the append-only trigger off for one statement. */
async function tamper(db: Db, statement: ReturnType<typeof sql>): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`ALTER TABLE events DISABLE TRIGGER events_no_rewrite`);
    await tx.execute(statement);
    await tx.execute(sql`ALTER TABLE events ENABLE TRIGGER events_no_rewrite`);
  });
}

const seqOf = async (db: Db, id: string) => {
  const raw: unknown = await db.execute(sql`SELECT seq FROM events WHERE id = ${id}`);
  return Number((raw as { rows: { seq: string }[] }).rows[0]!.seq);
};

describe.each(BACKENDS)("audit chain on $name", (backend) => {
  let shared: Opened | undefined;
  beforeAll(async () => {
    const p = await backend.provision();
    shared = { store: await openStore({ target: p.target }), drop: p.drop, target: p.target };
  });
  afterAll(async () => {
    await shared?.store.close();
    await shared?.drop();
  });
  /** The suite's store, emptied: opening a store per test costs seconds on this machine. */
  async function fresh(): Promise<Opened> {
    const o = shared!;
    await o.store.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE events DISABLE TRIGGER USER`);
      await tx.execute(sql`ALTER TABLE audit_heads DISABLE TRIGGER USER`);
      await tx.execute(sql`DELETE FROM events`);
      await tx.execute(sql`DELETE FROM audit_heads`);
      await tx.execute(sql`ALTER TABLE events ENABLE TRIGGER USER`);
      await tx.execute(sql`ALTER TABLE audit_heads ENABLE TRIGGER USER`);
      await tx.execute(
        sql`ALTER TABLE events DROP CONSTRAINT IF EXISTS events_prev_hash_unique, ADD CONSTRAINT events_prev_hash_unique UNIQUE (prev_hash)`,
      );
    });
    return o;
  }

  test("every event is a link of the chain and names its actor by kind; the walk finds it intact", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    const rows: ChainRow[] = [];
    for await (const r of readChain(store.db)) rows.push(r);
    expect(rows.map((r) => [r.id, r.actorKind, r.actor])).toEqual([
      ["e1", "owner_token", "owner"],
      ["e2", "schedule", "schedule"],
      ["e3", "owner_token", "owner"],
      ["e4", "share_link", "shl-1"],
      [expect.stringMatching(/^evt/), "owner_token", "owner"],
    ]);
    expect(rows[0]!.prevHash).toBe(GENESIS_PREV_HASH);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.prevHash).toBe(rows[i - 1]!.hash);
    // Recomputed from the columns as read back (jsonb, timestamps): the hash taken at insert holds.
    for (const r of rows) expect(rowHash(r, r.prevHash!)).toBe(r.hash);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict).toMatchObject({ isIntact: true, rows: 5, firstBreak: null, signedHeads: 0 });
    const view = await listEvents(store.db, "owner", { kind: "share_link.created" });
    expect(view.events[0]).toMatchObject({ actorKind: "share_link", actor: "shl-1" });
  });

  test("a retried event id adds nothing and leaves the chain intact", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    const again = await appendEvent(store.db, {
      id: "e2",
      kind: "surface.changed",
      actor: "schedule",
      summary: "knowledge-mcp changed",
    });
    expect(again.isNew).toBe(false);
    expect(await verifyStoredChain(store.db, publicKey)).toMatchObject({ isIntact: true, rows: 5 });
  });

  test("the database still refuses UPDATE and DELETE of a chained row", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await expect(
      store.db.execute(sql`UPDATE events SET summary = 'nothing happened' WHERE id = 'e3'`),
    ).rejects.toThrow();
    await expect(store.db.execute(sql`DELETE FROM events WHERE id = 'e3'`)).rejects.toThrow();
    // Not even "sealing" a row again with another hash.
    await expect(
      store.db.execute(sql`UPDATE events SET hash = ${"f".repeat(64)} WHERE id = 'e3'`),
    ).rejects.toThrow();
  });

  test("a row altered directly in the database is named, with what differs", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await tamper(store.db, sql`UPDATE events SET summary = 'Pinned nothing' WHERE id = 'e3'`);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.isIntact).toBe(false);
    expect(verdict.firstBreak).toMatchObject({ kind: "content", id: "e3" });
    expect(verdict.firstBreak!.message).toMatch(/row e3 \(seq \d+\) was altered/);
    expect(verdict.firstBreak!.expected).not.toBe(verdict.firstBreak!.found);
  });

  test("a detail altered in its jsonb is named too", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await tamper(
      store.db,
      sql`UPDATE events SET detail = jsonb_set(detail, '{counts,tools}', '4') WHERE id = 'e2'`,
    );
    expect((await verifyStoredChain(store.db, publicKey)).firstBreak).toMatchObject({
      kind: "content",
      id: "e2",
    });
  });

  test("a row deleted from the middle is detected at the row after it", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await tamper(store.db, sql`DELETE FROM events WHERE id = 'e3'`);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.firstBreak).toMatchObject({ kind: "link", id: "e4" });
    expect(verdict.firstBreak!.message).toMatch(/row e2 .*removed/);
  });

  test("the first row deleted is detected", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await tamper(store.db, sql`DELETE FROM events WHERE id = 'e1'`);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.firstBreak).toMatchObject({ kind: "link", id: "e2" });
    expect(verdict.firstBreak!.message).toMatch(/first row .*removed/);
  });

  test("two rows reordered (their seqs swapped) are detected and called reordered", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    const [s2, s3] = [await seqOf(store.db, "e2"), await seqOf(store.db, "e3")];
    await tamper(
      store.db,
      sql`UPDATE events SET seq = CASE id WHEN 'e2' THEN ${-1} ELSE seq END WHERE id = 'e2'`,
    );
    await tamper(store.db, sql`UPDATE events SET seq = ${s2} WHERE id = 'e3'`);
    await tamper(store.db, sql`UPDATE events SET seq = ${s3} WHERE id = 'e2'`);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.firstBreak).toMatchObject({ kind: "link", id: "e3", seq: s2 });
    expect(verdict.firstBreak!.message).toMatch(
      /links to row e2, which now sits after it.*reordered/,
    );
  });

  test("the last row removed after a signed head is caught by the head", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    const head = await signChainHead(store.db, privateKey, "export");
    expect(head).toMatchObject({ length: 5, reason: "export" });
    const last = (await listEvents(store.db, "owner", { kind: "decision.made" })).events[0]!;
    await tamper(store.db, sql`DELETE FROM events WHERE id = ${last.id}`);
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.firstBreak).toMatchObject({ kind: "tail_removed" });
    expect(verdict.firstBreak!.message).toMatch(/covers 5 rows .* the log has 4/);
  });

  test("a chain rehashed after an edit (every later hash recomputed) is caught by the signed head", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    await signChainHead(store.db, privateKey, "interval");
    // The careful attacker: alter e3 and rewrite the chain from e3 on so every link holds.
    const rows: ChainRow[] = [];
    for await (const r of readChain(store.db)) rows.push(r);
    let prev = rows[1]!.hash!;
    await store.db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE events DISABLE TRIGGER events_no_rewrite`);
      await tx.execute(sql`ALTER TABLE events DROP CONSTRAINT events_prev_hash_unique`);
      for (const r of rows.slice(2)) {
        const summary = r.id === "e3" ? "Pinned nothing" : r.summary;
        const hash = rowHash({ ...r, summary }, prev);
        await tx.execute(
          sql`UPDATE events SET summary = ${summary}, prev_hash = ${prev}, hash = ${hash} WHERE id = ${r.id}`,
        );
        prev = hash;
      }
    });
    const verdict = await verifyStoredChain(store.db, publicKey);
    expect(verdict.firstBreak).toMatchObject({ kind: "head_mismatch" });
    expect(verdict.firstBreak!.message).toMatch(/says row 5 of the chain is seq/);
  });

  test("a head not signed by the workbench key is refused", async () => {
    const { store } = await fresh();
    await logFive(store.db);
    const other = generateKeyPairSync("ed25519").privateKey;
    const forged = await signChainHead(store.db, other, "export");
    expect(forged).not.toBeNull();
    expect((await verifyStoredChain(store.db, publicKey)).firstBreak).toMatchObject({
      kind: "head_signature",
    });
  });

  test("interval signing adds a head only when the chain moved", async () => {
    const { store } = await fresh();
    expect(await signChainHead(store.db, privateKey, "interval")).toBeNull();
    await logFive(store.db);
    const a = await signChainHead(store.db, privateKey, "interval");
    const b = await signChainHead(store.db, privateKey, "interval");
    expect(b).toEqual(a);
    await auditOwnerAction(store.db, { kind: "secret.deleted", summary: "Secret A deleted" });
    const c = await signChainHead(store.db, privateKey, "interval");
    expect(c!.length).toBe(6);
    expect(await verifyStoredChain(store.db, publicKey)).toMatchObject({
      isIntact: true,
      signedHeads: 2,
      rowsAfterLastSignedHead: 0,
    });
  });

  test("a database upgraded from migration 0004 with events in it verifies after it opens", async () => {
    // Migrations 0000-0004 only, as an install before the chain had them.
    const old = await fs.mkdtemp(path.join(os.tmpdir(), "rr-migrations-0004-"));
    try {
      await fs.cp(MIGRATIONS_FOLDER, old, { recursive: true });
      await fs.rm(path.join(old, "0005_audit_chain.sql"));
      const journalFile = path.join(old, "meta", "_journal.json");
      const journal = JSON.parse(await fs.readFile(journalFile, "utf8")) as {
        entries: { tag: string }[];
      };
      journal.entries = journal.entries.filter((e) => e.tag < "0005");
      await fs.writeFile(journalFile, JSON.stringify(journal));

      const p = await backend.provision();
      const before = await openStore({ target: p.target, migrationsFolder: old });
      for (const [id, actor, micro] of [
        ["old-1", "owner", "123456"],
        ["old-2", "schedule", "000001"],
        ["old-3", "owner", "999999"],
      ] as const)
        await before.db.execute(
          sql`INSERT INTO events (id, kind, actor, summary, detail, created_at)
              VALUES (${id}, 'secret.set', ${actor}, ${`legacy ${id}`}, ${'{"n": 1.5, "b": [true, null]}'}::jsonb,
                      ${`2026-11-30T10:00:00.${micro}Z`}::timestamptz)`,
        );
      await before.close();

      const after = await openStore({ target: p.target });
      opened.push({ store: after, drop: p.drop, target: p.target });
      // Sealing is idempotent: a second run (another instance starting) finds nothing to do.
      expect(await sealLegacyEvents(after.db)).toBe(0);
      await appendEvent(after.db, { id: "new-1", kind: "pin.set", actor: "owner", summary: "x" });
      const rows: ChainRow[] = [];
      for await (const r of readChain(after.db)) rows.push(r);
      expect(rows.map((r) => [r.id, r.actorKind, r.createdAt.slice(-7)])).toEqual([
        ["old-1", "owner_token", "123456Z"],
        ["old-2", "schedule", "000001Z"],
        ["old-3", "owner_token", "999999Z"],
        ["new-1", "owner_token", expect.stringMatching(/000Z$/)],
      ]);
      expect(await verifyStoredChain(after.db, publicKey)).toMatchObject({
        isIntact: true,
        rows: 4,
      });
      // Once sealed, a legacy row is as fixed as any other.
      await expect(
        after.db.execute(sql`UPDATE events SET summary = 'rewritten' WHERE id = 'old-2'`),
      ).rejects.toThrow();
      // And a new row without a hash is refused outright.
      await expect(
        after.db.execute(
          sql`INSERT INTO events (id, kind, actor_kind, actor, summary) VALUES ('raw', 'pin.set', 'owner_token', 'owner', 'x')`,
        ),
      ).rejects.toThrow();
    } finally {
      await fs.rm(old, { recursive: true, force: true });
    }
  });

  test("a read through a share link is logged by the link (its id, never its token) and chained", async () => {
    const { store } = await fresh();
    const { id } = await createReview(store.db, createDemoReview(), "test");
    const token = newShareToken();
    const link = await createShareLink(store.db, {
      reviewId: id,
      tokenHash: hashShareToken(token),
    });
    expect(await loadShareView(store.db, token)).not.toBeNull();
    const { events: viewed } = await listEvents(store.db, "owner", { group: "access" });
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({
      kind: "share_link.viewed",
      actorKind: "share_link",
      actor: link.id,
      reviewId: id,
    });
    expect(JSON.stringify(viewed)).not.toContain(token);
    // An unknown token is no read and logs nothing.
    expect(await loadShareView(store.db, newShareToken())).toBeNull();
    expect((await listEvents(store.db, "owner", { group: "access" })).events).toHaveLength(1);
    expect(await verifyStoredChain(store.db, publicKey)).toMatchObject({ isIntact: true, rows: 1 });
  });

  test("concurrent writers never fork the chain (on PostgreSQL, from two store instances)", async () => {
    const { store, target } = await fresh();
    // PGlite admits one instance per folder (its lock), so there the writers share one.
    const second = backend.name === "postgres" ? await openStore({ target }) : null;
    try {
      const WRITERS = 40;
      const results = await Promise.all(
        Array.from({ length: WRITERS }, (_, i) =>
          appendEvent(i % 2 === 0 || !second ? store.db : second.db, {
            id: `c${i}`,
            kind: "watch.inspected",
            actor: "schedule",
            summary: `run ${i}`,
          }),
        ),
      );
      expect(results.every((r) => r.isNew)).toBe(true);
      const verdict = await verifyStoredChain(store.db, publicKey);
      expect(verdict).toMatchObject({ isIntact: true, rows: WRITERS });
    } finally {
      await second?.close();
    }
  });
});
