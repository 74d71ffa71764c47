import "server-only";
/**
 * The audit chain in the database: appending a chained row, sealing rows written before the
 * chain existed, signing the head, and reading the chain back for `verifyChain`
 * (lib/audit/chain.ts). Appends take `LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE` for their
 * transaction, which conflicts with itself and with any other INSERT but not with readers, so two
 * writers (two app instances on one PostgreSQL) never read the same head; `prev_hash` is also
 * UNIQUE, so a writer that skipped the lock would fail to insert rather than fork the chain.
 */
import type { KeyObject } from "node:crypto";
import { asc, desc, sql } from "drizzle-orm";
import {
  GENESIS_PREV_HASH,
  chainTimestamp,
  rowHash,
  signAuditHead,
  verifyChain,
  type ChainRow,
  type ChainRowContent,
  type ChainVerdict,
  type SignedAuditHead,
} from "@/lib/audit/chain";
import { AUDIT_EXPORT_FORMAT, AUDIT_EXPORT_VERSION, type AuditExport } from "@/lib/audit/export";
import { signingKeyId } from "@/lib/decisions/record";
import type { Db } from "@/lib/store/db";
import { auditHeads } from "@/lib/store/tables";

/** Rows read per query while walking the chain. */
export const CHAIN_PAGE_ROWS = 1_000;

/** A transaction or the database: anything that runs a raw query. */
type Queryable = Pick<Db, "execute">;

const rowsOf = <T>(raw: unknown): T[] => (raw as { rows: T[] }).rows; // both drivers answer { rows }

/** Serialises appends for the rest of the transaction (see the module comment). */
export async function lockChain(tx: Queryable): Promise<void> {
  await tx.execute(sql`LOCK TABLE events IN SHARE ROW EXCLUSIVE MODE`);
}

/** The last sealed row's seq and hash; the genesis link for an empty log. Call with the lock held. */
export async function chainHead(tx: Queryable): Promise<{ seq: number; hash: string } | null> {
  const [row] = rowsOf<{ seq: string | number; hash: string }>(
    await tx.execute(
      sql`SELECT seq, hash FROM events WHERE hash IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    ),
  );
  return row ? { seq: Number(row.seq), hash: row.hash } : null;
}

/** The next seq, taken before the insert because the hash covers it. */
export async function nextEventSeq(tx: Queryable): Promise<number> {
  const [row] = rowsOf<{ seq: string | number }>(
    await tx.execute(sql`SELECT nextval(pg_get_serial_sequence('events', 'seq')) AS seq`),
  );
  return Number(row!.seq);
}

/**
 * JSON as jsonb will give it back: undefined members dropped, dates as strings. The hash is taken
 * over this form and this form is stored, so the row hashes the same when it is read again.
 */
export function storedJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}

/** The link and hash for a new row after `head`, and the time it carries. */
export function sealNewRow(
  content: Omit<ChainRowContent, "createdAt">,
  head: { hash: string } | null,
  now: Date,
): { createdAt: Date; prevHash: string; hash: string } {
  // Stored as given: a Date holds whole milliseconds, which both drivers write exactly.
  const createdAt = new Date(now.getTime());
  const prevHash = head?.hash ?? GENESIS_PREV_HASH;
  return {
    createdAt,
    prevHash,
    hash: rowHash({ ...content, createdAt: chainTimestamp(createdAt) }, prevHash),
  };
}

type RawChainRow = {
  seq: string | number;
  id: string;
  kind: string;
  review_id: string | null;
  server_id: string | null;
  actor_kind: string;
  actor: string;
  summary: string;
  detail: unknown;
  created_at: string;
  prev_hash: string | null;
  hash: string | null;
};

// created_at as the chain hashes it, rendered by the database so no driver's date parsing is involved.
const SELECT_CHAIN_ROW = sql`SELECT seq, id, kind, review_id, server_id, actor_kind, actor, summary, detail,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, prev_hash, hash
  FROM events`;

function chainRowOf(r: RawChainRow): ChainRow {
  return {
    seq: Number(r.seq),
    id: r.id,
    kind: r.kind,
    reviewId: r.review_id,
    serverId: r.server_id,
    actorKind: r.actor_kind,
    actor: r.actor,
    summary: r.summary,
    // node-postgres parses jsonb; so does PGlite. A string here would be a driver change, parsed once.
    detail: typeof r.detail === "string" ? (JSON.parse(r.detail) as unknown) : r.detail,
    createdAt: r.created_at,
    prevHash: r.prev_hash,
    hash: r.hash,
  };
}

/** Every row in seq order, a page at a time. */
export async function* readChain(db: Queryable): AsyncGenerator<ChainRow> {
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const page = rowsOf<RawChainRow>(
      await db.execute(
        sql`${SELECT_CHAIN_ROW} WHERE seq > ${after} ORDER BY seq LIMIT ${CHAIN_PAGE_ROWS}`,
      ),
    );
    for (const r of page) yield chainRowOf(r);
    if (page.length < CHAIN_PAGE_ROWS) return;
    after = Number(page.at(-1)!.seq);
  }
}

export async function locateHash(
  db: Queryable,
  hash: string,
): Promise<{ seq: number; id: string } | null> {
  const [row] = rowsOf<{ seq: string | number; id: string }>(
    await db.execute(sql`SELECT seq, id FROM events WHERE hash = ${hash} ORDER BY seq LIMIT 1`),
  );
  return row ? { seq: Number(row.seq), id: row.id } : null;
}

/**
 * Seals rows written before the chain existed (hash null), in seq order after the current head,
 * under the append lock: the one UPDATE the events trigger lets through. Run by the store as it
 * opens, right after the migrations, so an upgraded database verifies. Rows with no hash that sit
 * before a sealed row were written outside the chain later; they are left for `verify` to name.
 */
export async function sealLegacyEvents(db: Db): Promise<number> {
  // A migrations folder older than 0005 (a test of the upgrade) has no chain columns to fill.
  const [hasChain] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'hash' AND table_schema = current_schema()`,
    ),
  );
  if (!hasChain || hasChain.n === 0) return 0;
  return db.transaction(async (tx) => {
    const [pending] = rowsOf<{ n: number }>(
      await tx.execute(sql`SELECT count(*)::int AS n FROM events WHERE hash IS NULL`),
    );
    if (!pending || pending.n === 0) return 0;
    await lockChain(tx);
    const head = await chainHead(tx);
    const rows = rowsOf<RawChainRow>(
      await tx.execute(
        sql`${SELECT_CHAIN_ROW} WHERE hash IS NULL AND seq > ${head?.seq ?? Number.MIN_SAFE_INTEGER} ORDER BY seq`,
      ),
    ).map(chainRowOf);
    let prevHash = head?.hash ?? GENESIS_PREV_HASH;
    for (const row of rows) {
      const hash = rowHash(row, prevHash);
      await tx.execute(
        sql`UPDATE events SET prev_hash = ${prevHash}, hash = ${hash} WHERE seq = ${row.seq} AND hash IS NULL`,
      );
      prevHash = hash;
    }
    if (rows.length < pending.n)
      console.error(
        `[audit] ${pending.n - rows.length} event rows without a hash sit before sealed rows and were left unsealed; relay-review audit verify names them`,
      );
    return rows.length;
  });
}

export type AuditHeadReason = "interval" | "export";

function headOfRow(row: typeof auditHeads.$inferSelect): SignedAuditHead {
  return {
    seq: row.seq,
    hash: row.hash,
    length: row.length,
    signedAt: row.signedAt,
    keyId: row.keyId,
    reason: row.reason,
    signature: row.signature,
  };
}

export async function listAuditHeads(db: Db): Promise<SignedAuditHead[]> {
  return (await db.select().from(auditHeads).orderBy(asc(auditHeads.id))).map(headOfRow);
}

/**
 * Signs the chain's head now and stores the signature. For "interval", nothing is written when the
 * last signed head already covers the current head (returns that one); an export always signs.
 * Returns null for an empty log.
 */
export async function signChainHead(
  db: Db,
  privateKey: KeyObject,
  reason: AuditHeadReason,
  now: Date = new Date(),
): Promise<SignedAuditHead | null> {
  return db.transaction(async (tx) => {
    // The lock makes (head, length) one consistent reading even while others append.
    await lockChain(tx);
    const head = await chainHead(tx);
    if (!head) return null;
    const [counted] = rowsOf<{ n: string | number }>(
      await tx.execute(sql`SELECT count(*) AS n FROM events WHERE seq <= ${head.seq}`),
    );
    const length = Number(counted!.n);
    if (reason === "interval") {
      const [last] = await tx.select().from(auditHeads).orderBy(desc(auditHeads.id)).limit(1);
      if (last && last.seq === head.seq && last.hash === head.hash) return headOfRow(last);
    }
    const signed = signAuditHead(
      { seq: head.seq, hash: head.hash, length, signedAt: now.toISOString() },
      privateKey,
      reason,
    );
    await tx.insert(auditHeads).values({
      seq: signed.seq,
      hash: signed.hash,
      length: signed.length,
      signedAt: signed.signedAt,
      reason: signed.reason,
      keyId: signed.keyId,
      signature: signed.signature,
    });
    return signed;
  });
}

/** Walks the stored chain and checks every stored head with `publicKey`. */
export async function verifyStoredChain(db: Db, publicKey: KeyObject): Promise<ChainVerdict> {
  return verifyChain({
    rows: readChain(db),
    heads: await listAuditHeads(db),
    publicKey,
    locate: (hash) => locateHash(db, hash),
  });
}

/**
 * The whole log for `relay-review audit verify --file`: a head is signed for the export first, so
 * the file proves its own length; every row and every head follow.
 */
export async function exportAuditLog(
  db: Db,
  privateKey: KeyObject,
  now: Date = new Date(),
): Promise<AuditExport> {
  await signChainHead(db, privateKey, "export", now);
  const rows: ChainRow[] = [];
  for await (const row of readChain(db)) rows.push(row);
  return {
    format: AUDIT_EXPORT_FORMAT,
    version: AUDIT_EXPORT_VERSION,
    exportedAt: now.toISOString(),
    keyId: signingKeyId(privateKey),
    rows,
    heads: await listAuditHeads(db),
  };
}
