/**
 * The audit log as a file: every chained row and every signed head, as GET /api/audit/export
 * serves it (with a head signed for the export) and `relay-review audit verify --file` reads it;
 * and the verdict as GET /api/audit/verify and the CLI report it. Pure. The key that checks the
 * heads is never taken from the export: a forger would put their own there.
 */
import type { KeyObject } from "node:crypto";
import { z } from "zod";
import { SignedAuditHeadSchema } from "@/lib/audit/api";
import { verifyChain, type ChainRow, type ChainVerdict } from "@/lib/audit/chain";

export {
  AuditVerifyResponseSchema,
  SignedAuditHeadSchema,
  type AuditVerifyResponse,
} from "@/lib/audit/api";

export const AUDIT_EXPORT_FORMAT = "relay-review.audit-log";
export const AUDIT_EXPORT_VERSION = 1;

export const ChainRowSchema = z
  .object({
    seq: z.number().int(),
    id: z.string(),
    kind: z.string(),
    reviewId: z.string().nullable(),
    serverId: z.string().nullable(),
    actorKind: z.string(),
    actor: z.string(),
    summary: z.string(),
    detail: z.unknown(),
    createdAt: z.string(),
    prevHash: z.string().nullable(),
    hash: z.string().nullable(),
  })
  .strict();

export const AuditExportSchema = z
  .object({
    format: z.literal(AUDIT_EXPORT_FORMAT),
    version: z.literal(AUDIT_EXPORT_VERSION),
    exportedAt: z.string(),
    /** The key id of the workbench that exported it: informative; the verifier brings its own key. */
    keyId: z.string(),
    rows: z.array(ChainRowSchema),
    heads: z.array(SignedAuditHeadSchema),
  })
  .strict();
export type AuditExport = z.infer<typeof AuditExportSchema>;

/** Checks an export's chain and heads with `publicKey`; rows are walked in seq order, as stored. */
export function verifyAuditExport(
  exported: AuditExport,
  publicKey: KeyObject,
): Promise<ChainVerdict> {
  const rows: ChainRow[] = [...exported.rows].sort((a, b) => a.seq - b.seq);
  const bySeq = new Map<string, { seq: number; id: string }>();
  for (const r of rows) if (r.hash !== null && !bySeq.has(r.hash)) bySeq.set(r.hash, r);
  return verifyChain({
    rows,
    heads: exported.heads,
    publicKey,
    locate: (hash) => {
      const found = bySeq.get(hash);
      return Promise.resolve(found ? { seq: found.seq, id: found.id } : null);
    },
  });
}

/** The verdict in lines a person reads; the first says intact or names the break. */
export function describeVerdict(verdict: ChainVerdict): string[] {
  const lines: string[] = [];
  if (verdict.firstBreak) {
    lines.push(`BROKEN: ${verdict.firstBreak.message}`);
    if (verdict.firstBreak.expected !== undefined)
      lines.push(
        `  expected ${verdict.firstBreak.expected}`,
        `  found    ${verdict.firstBreak.found ?? "(none)"}`,
      );
    lines.push(`  checked ${verdict.rows} row${verdict.rows === 1 ? "" : "s"} up to the break`);
    return lines;
  }
  lines.push(
    verdict.head
      ? `intact: ${verdict.rows} rows, head seq ${verdict.head.seq} hash ${verdict.head.hash}`
      : "intact: the log is empty",
  );
  const last = verdict.lastSignedHead;
  lines.push(
    last
      ? `  ${verdict.signedHeads} signed head${verdict.signedHeads === 1 ? "" : "s"}, the last signed ${last.signedAt} over ${last.length} rows (key ${last.keyId})`
      : "  no signed head yet: a row removed from the end would not be detected",
  );
  if (last && verdict.rowsAfterLastSignedHead > 0)
    lines.push(
      `  ${verdict.rowsAfterLastSignedHead} row${verdict.rowsAfterLastSignedHead === 1 ? "" : "s"} after the last signed head: removing them from the end would not be detected yet`,
    );
  return lines;
}
