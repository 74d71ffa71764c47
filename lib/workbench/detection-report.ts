import "server-only";
/**
 * What `relay-review gate` reports to the workbench (issue 31 items 1 and 2): scan counts per source
 * and agent, and its `content.flagged` events, under a reporting token. The token resolves to one
 * review inside the server and is accepted by POST /api/report/[token] only, so it can add counts
 * and flag events to that review and do nothing else; every event names it as the actor (kind
 * "gate", id the token's id, never the token). Counts and flags feed no control and no decision.
 */
import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { detectionViewOf, type DetectionView } from "@/lib/detection/view";
import type { Db } from "@/lib/store/db";
import {
  addDetectionCounts,
  findActiveReportingToken,
  listDetectionCounts,
  type ReportingToken,
} from "@/lib/store/detection-counts";
import { appendEvent } from "@/lib/store/events";

export const REPORTING_TOKEN_PATTERN = /^rr_rep_[A-Za-z0-9_-]{43}$/;

export function newReportingToken(): string {
  return `rr_rep_${randomBytes(32).toString("base64url")}`;
}

export function hashReportingToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The active token for a presented one; null for an unknown, revoked or malformed token alike. */
export async function activeReportingToken(db: Db, token: string): Promise<ReportingToken | null> {
  const found = await findActiveReportingToken(db, hashReportingToken(token.slice(0, 200)));
  return found && REPORTING_TOKEN_PATTERN.test(token) ? found : null;
}

const Name = z.string().min(1).max(200);
const Count = z.number().int().min(0).max(1_000_000_000);

export const DetectionReportSchema = z
  .object({
    counts: z
      .array(
        z
          .object({ source: Name, agent: Name, scanned: Count, flagged: Count })
          .strict()
          .refine((c) => c.flagged <= c.scanned, "flagged must not exceed scanned"),
      )
      .max(200)
      .default([]),
    flags: z
      .array(
        z
          .object({
            /** The gate's id for the event: a retried report logs it once. */
            id: z.string().regex(/^[A-Za-z0-9_-]{8,80}$/),
            agent: Name,
            server: Name,
            method: z.enum(["tools/call", "resources/read", "prompts/get"]),
            tool: z.string().max(200),
            score: z.number().min(0).max(1),
            reasons: z.array(z.string().max(300)).max(20),
            excerpt: z.string().max(400),
            mode: z.enum(["flag", "hold"]),
          })
          .strict(),
      )
      .max(200)
      .default([]),
  })
  .strict();
export type DetectionReport = z.infer<typeof DetectionReportSchema>;

/** Adds the counts and logs each flag as a `content.flagged` event (and so to its webhooks). */
export async function acceptDetectionReport(
  db: Db,
  token: ReportingToken,
  report: DetectionReport,
): Promise<{ counted: number; logged: number }> {
  await addDetectionCounts(db, token.reviewId, "gate", report.counts);
  let logged = 0;
  for (const f of report.flags) {
    const r = await appendEvent(db, {
      id: `flag-${token.id}-${f.id}`,
      kind: "content.flagged",
      reviewId: token.reviewId,
      actor: { kind: "gate", id: token.id },
      summary: `Detector flagged ${f.method} ${f.tool} from ${f.server} to ${f.agent} (score ${f.score.toFixed(2)}): ${f.reasons.slice(0, 3).join("; ")}`,
      detail: { ...f, id: undefined, flagId: f.id },
    });
    if (r.isNew) logged++;
  }
  return { counted: report.counts.length, logged };
}

/** The review's counts, gate and sampled together, per source and per agent. */
export async function detectionView(db: Db, reviewId: string): Promise<DetectionView> {
  return detectionViewOf(await listDetectionCounts(db, reviewId));
}
