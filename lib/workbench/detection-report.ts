import "server-only";
/**
 * What `relay-review gate` reports to the workbench (issue 31 items 1 and 2): scan counts per source
 * and agent, and its `content.flagged` events, under a reporting token. The token resolves to one
 * review inside the server and is accepted by POST /api/report/[token] only, so it can add counts
 * and flag events to that review and do nothing else; every event names it as the actor (kind
 * "gate", id the token's id, never the token). Counts and flags feed no control and no decision.
 */
import { createHash, randomBytes } from "node:crypto";
import { inArray } from "drizzle-orm";
import { z } from "zod";
import { detectionViewOf, type DetectionView } from "@/lib/detection/view";
import type { Db } from "@/lib/store/db";
import {
  addDetectionCounts,
  findActiveReportingToken,
  listDetectionCounts,
  type ReportingToken,
} from "@/lib/store/detection-counts";
import { appendEvent, eventFromRow } from "@/lib/store/events";
import { readReview } from "@/lib/store/reviews";
import { events } from "@/lib/store/tables";
import type { Review } from "@/lib/review/schema";

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
const FlagId = z.string().regex(/^[A-Za-z0-9_-]{8,80}$/);
/** Held results the gate asks about per report (lib/gate/reporter.ts MAX_HELD_ASKED). */
const MAX_HELD_ASKED = 64;
const Count = z.number().int().min(0).max(1_000_000_000);

export const DetectionReportSchema = z
  .object({
    /** The batch's idempotency key: a retried batch (same key) adds its counts once. */
    batch: FlagId.optional(),
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
            /** The gate's id for the event: a retried report logs it once; a held result is released by it. */
            id: FlagId,
            agent: Name,
            server: Name,
            /** The record's server id: the sources the review maps the tool to are named by it. */
            serverId: Name.optional(),
            method: z.enum(["tools/call", "resources/read", "prompts/get", "elicitation/create"]),
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
    /** Ids of results the gate holds: the answer says which a reviewer has released. */
    held: z.array(FlagId).max(MAX_HELD_ASKED).default([]),
  })
  .strict();
export type DetectionReport = z.infer<typeof DetectionReportSchema>;

/** A flag's event id: one per token and gate flag id, so a retried report logs it once. */
export const flagEventId = (tokenId: string, flagId: string) => `flag-${tokenId}-${flagId}`;
/** The release of a held result: one per flag, so releasing twice logs once. */
export const releaseEventId = (tokenId: string, flagId: string) => `release-${tokenId}-${flagId}`;

/**
 * The sources the review maps a flagged item to, by name: the record names the server and the tool
 * (or resource URI, or prompt), the review's tool → source map the rest. Read when the report
 * arrives, so a map edited since the decision is the one named.
 */
export function sourcesOf(
  review: Review | null,
  flag: { server: string; serverId?: string | undefined; method: string; tool: string },
): string[] {
  if (!review) return [];
  const server = review.servers.find((s) =>
    flag.serverId !== undefined ? s.id === flag.serverId : s.name === flag.server,
  );
  if (!server) return [];
  const kinds = flag.method === "resources/read" ? ["resource", "resource_template"] : ["tool"];
  const ids = new Set(
    review.tools
      .filter(
        (t) => t.serverId === server.id && t.tool === flag.tool && kinds.includes(t.item ?? "tool"),
      )
      .flatMap((t) => t.sourceIds),
  );
  return review.sources.filter((s) => ids.has(s.id)).map((s) => s.name);
}

/**
 * Adds the counts, logs each flag as a `content.flagged` event (and so to its webhooks) naming the
 * sources the tool is mapped to, and answers which of the gate's held results a reviewer released.
 */
export async function acceptDetectionReport(
  db: Db,
  token: ReportingToken,
  report: DetectionReport,
): Promise<{ counted: number; logged: number; released: string[] }> {
  await addDetectionCounts(db, token.reviewId, "gate", report.counts, report.batch);
  const review = report.flags.length
    ? ((await readReview(db, token.reviewId))?.review ?? null)
    : null;
  let logged = 0;
  for (const f of report.flags) {
    const sources = sourcesOf(review, f);
    const r = await appendEvent(db, {
      id: flagEventId(token.id, f.id),
      kind: "content.flagged",
      reviewId: token.reviewId,
      ...(f.serverId && review?.servers.some((s) => s.id === f.serverId)
        ? { serverId: f.serverId }
        : {}),
      actor: { kind: "gate", id: token.id },
      summary: `Detector flagged ${f.method} ${f.tool} from ${f.server}${sources.length ? ` (${sources.join(", ")})` : ""} to ${f.agent} (score ${f.score.toFixed(2)}${f.mode === "hold" ? ", held" : ""}): ${f.reasons.slice(0, 3).join("; ")}`,
      detail: { ...f, id: undefined, flagId: f.id, sources },
    });
    if (r.isNew) logged++;
  }
  return {
    counted: report.counts.length,
    logged,
    released: await releasedOf(db, token, report.held),
  };
}

/** Which of these held ids a reviewer has released (a `content.released` event for the token's flag). */
async function releasedOf(
  db: Db,
  token: ReportingToken,
  held: readonly string[],
): Promise<string[]> {
  if (held.length === 0) return [];
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(
      inArray(
        events.id,
        held.map((h) => releaseEventId(token.id, h)),
      ),
    );
  const found = new Set(rows.map((r) => r.id));
  return held.filter((h) => found.has(releaseEventId(token.id, h)));
}

export type ReleaseOutcome =
  { ok: true; flagId: string; isNew: boolean } | { ok: false; status: 404 | 422; message: string };

/**
 * A reviewer releases a result the gate held: the `content.flagged` event must be this review's, a
 * gate's and in `hold` mode. Logged as `content.released` (once per flag); the gate learns of it
 * on its next report (every few seconds) and answers the agent's next identical request with it.
 */
export async function releaseHeldResult(
  db: Db,
  reviewId: string,
  flagEventIdToRelease: string,
  actor: Parameters<typeof appendEvent>[1]["actor"],
): Promise<ReleaseOutcome> {
  const [row] = await db
    .select()
    .from(events)
    .where(inArray(events.id, [flagEventIdToRelease]));
  const flag = row ? eventFromRow(row) : null;
  if (!flag || flag.reviewId !== reviewId || flag.kind !== "content.flagged")
    return {
      ok: false,
      status: 404,
      message: "there is no flagged result with this id in this review",
    };
  const flagId = flag.detail.flagId;
  if (flag.actorKind !== "gate" || flag.detail.mode !== "hold" || typeof flagId !== "string")
    return {
      ok: false,
      status: 422,
      message:
        "this result was not held (the gate passed it in flag mode); there is nothing to release",
    };
  const r = await appendEvent(db, {
    id: releaseEventId(flag.actor, flagId),
    kind: "content.released",
    reviewId,
    serverId: flag.serverId,
    actor,
    summary: `Held result released: ${[flag.detail.method, flag.detail.tool, flag.detail.server].filter((x) => typeof x === "string").join(" ")}`,
    detail: { flagId, flagEvent: flag.id },
  });
  return { ok: true, flagId, isNew: r.isNew };
}

/** The review's counts, gate and sampled together, per source and per agent. */
export async function detectionView(db: Db, reviewId: string): Promise<DetectionView> {
  return detectionViewOf(await listDetectionCounts(db, reviewId));
}
