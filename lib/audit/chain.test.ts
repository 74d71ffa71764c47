import { generateKeyPairSync } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  GENESIS_PREV_HASH,
  chainTimestamp,
  isHeadSignatureValid,
  rowHash,
  signAuditHead,
  verifyChain,
  type ChainRow,
  type ChainRowContent,
} from "@/lib/audit/chain";

/**
 * A row with what canonical JSON is particular about: non-ASCII text, U+2028, control characters,
 * nested keys out of order, and object keys whose UTF-16 order differs from their code point order
 * (U+1F600 is D83D DE00 in UTF-16, so it sorts before U+FF21).
 */
const GOLDEN: ChainRowContent = {
  seq: 7,
  id: "evt-golden",
  kind: "surface.changed",
  reviewId: "rev-1",
  serverId: null,
  actorKind: "schedule",
  actor: "schedule",
  summary: "knowledge-mcp changed — “quoted” \u2028 é\n\t\u0001",
  detail: {
    b: [1, true, null],
    a: { é: "x", z: 2 },
    "\u{1F600}": "emoji key",
    "\uFF21": "high bmp",
  },
  createdAt: "2026-12-06T07:26:37.334000Z",
};

describe("the audit chain's row hash", () => {
  test("matches the independent recomputation in docs/audit.md (Python, standard library)", () => {
    // Computed by the docs/audit.md script's jcs() and hashlib, not by this code.
    expect(rowHash(GOLDEN, GENESIS_PREV_HASH)).toBe(
      "0c352f500ceecda9e7b69441c6dd923500e2a22c34f56372da86d6a2210ff242",
    );
  });

  test("covers every column and the link", () => {
    const base = rowHash(GOLDEN, GENESIS_PREV_HASH);
    const changed: Partial<ChainRowContent>[] = [
      { seq: 8 },
      { id: "evt-other" },
      { kind: "pin.set" },
      { reviewId: null },
      { serverId: "srv" },
      { actorKind: "owner_token" },
      { actor: "owner" },
      { summary: "other" },
      { detail: {} },
      { createdAt: "2026-12-06T07:26:37.335000Z" },
    ];
    for (const change of changed)
      expect(rowHash({ ...GOLDEN, ...change }, GENESIS_PREV_HASH)).not.toBe(base);
    expect(rowHash(GOLDEN, "1".repeat(64))).not.toBe(base);
  });

  test("timestamps carry microseconds, as PostgreSQL renders them", () => {
    expect(chainTimestamp(new Date("2026-12-06T07:26:37.334Z"))).toBe(
      "2026-12-06T07:26:37.334000Z",
    );
  });
});

describe("signed heads", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const head = signAuditHead(
    { seq: 7, hash: "a".repeat(64), length: 3, signedAt: "2026-12-06T07:00:00.000Z" },
    privateKey,
    "export",
  );

  test("verify with the key, and not once any field is changed", () => {
    expect(isHeadSignatureValid(head, publicKey)).toBe(true);
    for (const change of [{ seq: 8 }, { hash: "b".repeat(64) }, { length: 4 }, { signedAt: "x" }])
      expect(isHeadSignatureValid({ ...head, ...change }, publicKey)).toBe(false);
    expect(isHeadSignatureValid({ ...head, signature: "not base64!" }, publicKey)).toBe(false);
  });

  test("an empty log with no heads is intact; a head over an empty log is a removed tail", async () => {
    const none: ChainRow[] = [];
    const locate = () => Promise.resolve(null);
    expect(await verifyChain({ rows: none, heads: [], publicKey, locate })).toMatchObject({
      isIntact: true,
      rows: 0,
      head: null,
    });
    expect(
      (await verifyChain({ rows: none, heads: [head], publicKey, locate })).firstBreak,
    ).toMatchObject({ kind: "tail_removed" });
  });
});
