/**
 * The audit routes' answers as schemas a browser may load (no node:crypto): a signed chain head
 * and GET /api/audit/verify's verdict. lib/audit/export.ts re-exports them beside the export format.
 */
import { z } from "zod";

const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lower-case hex digits");

export const SignedAuditHeadSchema = z
  .object({
    seq: z.number().int(),
    hash: hex64,
    length: z.number().int().min(1),
    signedAt: z.string(),
    keyId: z.string(),
    reason: z.string(),
    signature: z.string(),
  })
  .strict();

const ChainBreakSchema = z.object({
  kind: z.enum(["unsealed", "link", "content", "head_signature", "head_mismatch", "tail_removed"]),
  seq: z.number().int().nullable(),
  id: z.string().nullable(),
  message: z.string(),
  expected: z.string().optional(),
  found: z.string().optional(),
});

/** GET /api/audit/verify's answer. */
export const AuditVerifyResponseSchema = z.object({
  isIntact: z.boolean(),
  rows: z.number().int(),
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  signedHeads: z.number().int(),
  lastSignedHead: SignedAuditHeadSchema.nullable(),
  rowsAfterLastSignedHead: z.number().int(),
  firstBreak: ChainBreakSchema.nullable(),
  keyId: z.string(),
});
export type AuditVerifyResponse = z.infer<typeof AuditVerifyResponseSchema>;
