/**
 * The audit log's hash chain and its signed heads, as pure functions: how a row is hashed, how a
 * head is signed, and the walk that checks a whole log and names its first break. The store
 * (lib/store/audit.ts) feeds it rows from the database; `relay-review audit verify` feeds it an
 * export. docs/audit.md says the same thing in words, so the chain can be recomputed without this
 * code.
 *
 * A row's hash is SHA-256 (lower-case hex) over the RFC 8785 canonical JSON of
 * `{v, seq, id, kind, reviewId, serverId, actorKind, actor, summary, detail, createdAt, prevHash}`,
 * where `prevHash` is the hash of the row before it in `seq` order (64 zeros for the first row)
 * and `createdAt` is UTC with microseconds, `2026-12-06T06:41:48.123000Z`. A head is the
 * workbench key's Ed25519 signature over the canonical JSON of
 * `{type: "relay-review.audit-head", v, seq, hash, length, signedAt, keyId}`.
 */
import { sign, verify, type KeyObject } from "node:crypto";
import { canonicalJson, sha256Hex } from "@/lib/hash";
import { signingKeyId } from "@/lib/decisions/record";

export const CHAIN_VERSION = 1;
export const HEAD_TYPE = "relay-review.audit-head";
/** What the first row of the chain links to. */
export const GENESIS_PREV_HASH = "0".repeat(64);

/** A row's hashed columns. `createdAt` as `chainTimestamp` writes it. */
export interface ChainRowContent {
  seq: number;
  id: string;
  kind: string;
  reviewId: string | null;
  serverId: string | null;
  actorKind: string;
  actor: string;
  summary: string;
  detail: unknown;
  createdAt: string;
}

/** A row as stored: its content, its link and its hash (null on a row nobody sealed). */
export interface ChainRow extends ChainRowContent {
  prevHash: string | null;
  hash: string | null;
}

/** A time as the chain hashes it: ISO 8601 UTC with six fractional digits (PostgreSQL's precision). */
export function chainTimestamp(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}

/** The exact text a row's hash covers. */
export function rowCanonicalJson(row: ChainRowContent, prevHash: string): string {
  return canonicalJson({
    v: CHAIN_VERSION,
    seq: row.seq,
    id: row.id,
    kind: row.kind,
    reviewId: row.reviewId,
    serverId: row.serverId,
    actorKind: row.actorKind,
    actor: row.actor,
    summary: row.summary,
    detail: row.detail,
    createdAt: row.createdAt,
    prevHash,
  });
}

export function rowHash(row: ChainRowContent, prevHash: string): string {
  return sha256Hex(rowCanonicalJson(row, prevHash));
}

/** What a head says: the chain had `length` rows, the last at `seq` with `hash`. */
export interface AuditHead {
  seq: number;
  hash: string;
  length: number;
  signedAt: string;
  keyId: string;
}

export interface SignedAuditHead extends AuditHead {
  reason: string;
  /** base64 Ed25519 signature over `headSigningInput`. */
  signature: string;
}

export function headSigningInput(head: AuditHead): Buffer {
  return Buffer.from(
    canonicalJson({
      type: HEAD_TYPE,
      v: CHAIN_VERSION,
      seq: head.seq,
      hash: head.hash,
      length: head.length,
      signedAt: head.signedAt,
      keyId: head.keyId,
    }),
    "utf8",
  );
}

export function signAuditHead(
  head: Omit<AuditHead, "keyId">,
  privateKey: KeyObject,
  reason: string,
): SignedAuditHead {
  const full: AuditHead = { ...head, keyId: signingKeyId(privateKey) };
  const signature = sign(null, headSigningInput(full), privateKey).toString("base64");
  return { ...full, reason, signature };
}

export function isHeadSignatureValid(head: SignedAuditHead, publicKey: KeyObject): boolean {
  try {
    return verify(null, headSigningInput(head), publicKey, Buffer.from(head.signature, "base64"));
  } catch {
    return false;
  }
}

export type ChainBreakKind =
  | "unsealed" // a row has no hash or no link
  | "link" // a row's prev_hash is not the hash of the row before it
  | "content" // a row's columns do not hash to its stored hash
  | "head_signature" // a stored head's signature does not verify with the key
  | "head_mismatch" // the row a signed head covers is not the row the head names
  | "tail_removed"; // a signed head covers more rows than the log has

export interface ChainBreak {
  kind: ChainBreakKind;
  /** The row where the break shows (null for a head that matches no row). */
  seq: number | null;
  id: string | null;
  /** What differs, in a sentence that names both values. */
  message: string;
  expected?: string;
  found?: string;
}

export interface ChainVerdict {
  isIntact: boolean;
  /** Rows walked (all of them when intact; up to and including the break otherwise). */
  rows: number;
  head: { seq: number; hash: string } | null;
  signedHeads: number;
  lastSignedHead: SignedAuditHead | null;
  /** Rows after the last signed head: their removal from the end would not be detected yet. */
  rowsAfterLastSignedHead: number;
  firstBreak: ChainBreak | null;
}

/** Where a row with this hash sits now, if anywhere (to tell a removed row from a moved one). */
export type LocateHash = (hash: string) => Promise<{ seq: number; id: string } | null>;

const short = (hash: string | null) => (hash === null ? "none" : hash.slice(0, 16));
const named = (row: { id: string; seq: number }) => `row ${row.id} (seq ${row.seq})`;

async function linkBreak(
  row: ChainRow & { prevHash: string },
  before: ChainRow | null,
  locate: LocateHash,
): Promise<ChainBreak> {
  const expected = before?.hash ?? GENESIS_PREV_HASH;
  const located = row.prevHash === GENESIS_PREV_HASH ? null : await locate(row.prevHash);
  const base = { kind: "link" as const, seq: row.seq, id: row.id, expected, found: row.prevHash };
  if (located && located.seq > row.seq)
    return {
      ...base,
      message: `${named(row)} links to row ${located.id}, which now sits after it at seq ${located.seq}: the rows were reordered`,
    };
  if (!before)
    return {
      ...base,
      message: `${named(row)} is the first row but links to a row before it (prev_hash ${short(row.prevHash)}…): the rows before it were removed`,
    };
  if (located && located.seq < before.seq)
    return {
      ...base,
      message: `${named(row)} links to row ${located.id} (seq ${located.seq}), not to the row before it, ${named(before)}: the rows between were inserted or moved`,
    };
  return {
    ...base,
    message: `${named(row)} links to prev_hash ${short(row.prevHash)}…, but the row before it, ${named(before)}, has hash ${short(before.hash)}…: the row it linked to was removed, or ${before.id} was rewritten with a new hash`,
  };
}

/**
 * Walks the chain in `seq` order and checks every signed head: each row is sealed, links to the row
 * before it, and hashes to its stored hash; each head's signature verifies with `publicKey`, and the
 * row at the head's length is the one it names. Stops at the first break and names it.
 */
export async function verifyChain(input: {
  rows: AsyncIterable<ChainRow> | Iterable<ChainRow>;
  heads: readonly SignedAuditHead[];
  publicKey: KeyObject;
  locate: LocateHash;
}): Promise<ChainVerdict> {
  const heads = [...input.heads].sort((a, b) => a.length - b.length || a.seq - b.seq);
  const lastSignedHead = heads.at(-1) ?? null;
  const verdict = (
    rows: number,
    head: ChainRow | null,
    firstBreak: ChainBreak | null,
  ): ChainVerdict => ({
    isIntact: firstBreak === null,
    rows,
    head: head?.hash ? { seq: head.seq, hash: head.hash } : null,
    signedHeads: heads.length,
    lastSignedHead,
    rowsAfterLastSignedHead: Math.max(0, rows - (lastSignedHead?.length ?? 0)),
    firstBreak,
  });

  const keyId = signingKeyId(input.publicKey);
  for (const h of heads) {
    if (h.keyId !== keyId || !isHeadSignatureValid(h, input.publicKey)) {
      return verdict(0, null, {
        kind: "head_signature",
        seq: h.seq,
        id: null,
        message:
          h.keyId !== keyId
            ? `the head signed at ${h.signedAt} (seq ${h.seq}) names key ${h.keyId}, not the key given (${keyId})`
            : `the head signed at ${h.signedAt} (seq ${h.seq}) has a signature that does not verify with key ${keyId}: it was forged or altered`,
        expected: keyId,
        found: h.keyId,
      });
    }
  }

  let before: ChainRow | null = null;
  let count = 0;
  let headIndex = 0;
  for await (const row of input.rows) {
    count++;
    if (row.hash === null || row.prevHash === null) {
      return verdict(count, before, {
        kind: "unsealed",
        seq: row.seq,
        id: row.id,
        message: `${named(row)} has no ${row.hash === null ? "hash" : "prev_hash"}: it was written outside the chain`,
      });
    }
    const expectedPrev = before?.hash ?? GENESIS_PREV_HASH;
    if (row.prevHash !== expectedPrev) {
      return verdict(
        count,
        before,
        await linkBreak(row as ChainRow & { prevHash: string }, before, input.locate),
      );
    }
    const recomputed = rowHash(row, row.prevHash);
    if (recomputed !== row.hash) {
      return verdict(count, before, {
        kind: "content",
        seq: row.seq,
        id: row.id,
        message: `${named(row)} was altered: its columns hash to ${short(recomputed)}…, but the chain recorded ${short(row.hash)}…`,
        expected: row.hash,
        found: recomputed,
      });
    }
    while (headIndex < heads.length && heads[headIndex]!.length === count) {
      const h = heads[headIndex]!;
      if (h.seq !== row.seq || h.hash !== row.hash) {
        return verdict(count, before, {
          kind: "head_mismatch",
          seq: row.seq,
          id: row.id,
          message: `the head signed at ${h.signedAt} says row ${count} of the chain is seq ${h.seq} with hash ${short(h.hash)}…, but it is ${named(row)} with hash ${short(row.hash)}…: rows before it were removed, inserted or rehashed`,
          expected: h.hash,
          found: row.hash,
        });
      }
      headIndex++;
    }
    before = row;
  }
  const uncovered = heads[headIndex];
  if (uncovered) {
    return verdict(count, before, {
      kind: "tail_removed",
      seq: uncovered.seq,
      id: null,
      message: `the head signed at ${uncovered.signedAt} covers ${uncovered.length} rows through seq ${uncovered.seq}, but the log has ${count}${before ? `, ending at ${named(before)}` : ""}: rows were removed from the end`,
      expected: String(uncovered.length),
      found: String(count),
    });
  }
  return verdict(count, before, null);
}
