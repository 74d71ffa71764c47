import "server-only";
/**
 * A review's detector flags with whether each is held and who released it (issue 31 item 2), for
 * GET /api/reviews/ID/content-flags, `relay-review flags` and the workbench. Read from the event
 * log, the one place flags and releases are written (lib/workbench/detection-report.ts,
 * lib/workbench/sample-run.ts). A listing, nothing more: detection is not a control.
 */
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { describeActor } from "@/lib/events/actor";
import type { Db } from "@/lib/store/db";
import { eventFromRow } from "@/lib/store/events";
import { events } from "@/lib/store/tables";
import type { ContentFlag, ContentFlagsResponse } from "@/lib/workbench/content-flags-api";
import { releaseEventId } from "@/lib/workbench/detection-report";

/** Flags listed at most, newest first: a gate on a busy relay can flag thousands. */
export const MAX_LISTED_FLAGS = 500;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

export async function listContentFlags(
  db: Db,
  reviewId: string,
  options: { heldOnly?: boolean; limit?: number } = {},
): Promise<ContentFlagsResponse> {
  const limit = Math.min(options.limit ?? MAX_LISTED_FLAGS, MAX_LISTED_FLAGS);
  const flagged = and(eq(events.reviewId, reviewId), eq(events.kind, "content.flagged"));
  // Held only: every result ever held is read (a release may have come for any of them); else
  // one past the limit, which says whether the list was cut.
  const rows = options.heldOnly
    ? await db
        .select()
        .from(events)
        .where(and(flagged, sql`${events.detail}->>'mode' = 'hold'`))
        .orderBy(desc(events.seq))
    : await db
        .select()
        .from(events)
        .where(flagged)
        .orderBy(desc(events.seq))
        .limit(limit + 1);
  const flags = rows.map(eventFromRow).map((e) => {
    const held = e.actorKind === "gate" && e.detail.mode === "hold";
    const flagId = str(e.detail.flagId);
    return {
      event: e,
      releaseId: held && flagId ? releaseEventId(e.actor, flagId) : null,
    };
  });
  const releaseIds = flags.flatMap((f) => (f.releaseId ? [f.releaseId] : []));
  const releases = new Map<string, { at: string; by: string }>();
  // In slices: one IN list per few hundred ids keeps the statement's size bounded.
  for (let i = 0; i < releaseIds.length; i += 400) {
    const found = await db
      .select()
      .from(events)
      .where(inArray(events.id, releaseIds.slice(i, i + 400)));
    for (const r of found.map(eventFromRow))
      if (r.kind === "content.released" && r.reviewId === reviewId)
        releases.set(r.id, { at: r.createdAt, by: describeActor(r.actorKind, r.actor) });
  }
  const listed: ContentFlag[] = [];
  let matched = 0;
  for (const { event: e, releaseId } of flags) {
    const released = releaseId ? (releases.get(releaseId) ?? null) : null;
    if (options.heldOnly && (!releaseId || released)) continue;
    matched++;
    if (listed.length >= limit) continue;
    listed.push({
      id: e.id,
      createdAt: e.createdAt,
      origin: e.detail.origin === "sample" ? "sample" : "gate",
      agent: str(e.detail.agent) || null,
      server: str(e.detail.server),
      method: str(e.detail.method),
      tool: str(e.detail.tool),
      sources: strings(e.detail.sources),
      score: typeof e.detail.score === "number" ? e.detail.score : 0,
      reasons: strings(e.detail.reasons),
      excerpt: str(e.detail.excerpt),
      held: releaseId !== null,
      released,
    });
  }
  return { reviewId, flags: listed, truncated: matched > listed.length };
}
