import "server-only";
/**
 * The event and audit log (table `events`): append, list, and the owner's read marks. Appending
 * is idempotent on the event id, so a retried job that appends the same ids adds nothing, and it
 * queues a delivery for every enabled webhook subscribed to the kind in the same transaction, so
 * an event is never logged without its deliveries. Every event names its actor (lib/events/actor.ts)
 * and is a link of the hash chain (lib/store/audit.ts). Nothing here updates or deletes an event;
 * the database refuses it anyway (triggers in migrations 0004 and 0005).
 */
import { and, desc, eq, inArray, isNull, notInArray, sql, type SQL } from "drizzle-orm";
import { newId } from "@/lib/ids";
import {
  EVENT_KINDS,
  kindsOfGroup,
  type EventFilter,
  type EventKind,
  type EventView,
} from "@/lib/events/kinds";
import {
  ACTOR_KINDS,
  actorOf,
  OWNER_TOKEN_ACTOR,
  shareLinkActor,
  type Actor,
  type ActorKind,
} from "@/lib/events/actor";
import { chainHead, lockChain, nextEventSeq, sealNewRow, storedJson } from "@/lib/store/audit";
import { describeOwnerTokenUse, type OwnerTokenUse } from "@/lib/events/owner-token-use";
import type { Db } from "@/lib/store/db";
import { eventReads, events, webhookDeliveries, webhooks } from "@/lib/store/tables";

/** Event text is built from attacker-named things (tool names); bound what one entry keeps. */
export const MAX_SUMMARY_CHARS = 1_000;
export const DEFAULT_LIST_LIMIT = 200;

export interface AppendEventInput {
  /** Idempotency key; a random id when the event cannot repeat (an owner action). */
  id?: string;
  kind: EventKind;
  reviewId?: string | null;
  serverId?: string | null;
  /** Who caused it: an Actor, or "owner" (the owner token), "schedule", "<kind>:<id>" (lib/events/actor.ts). */
  actor: string | Actor;
  summary: string;
  detail?: Record<string, unknown>;
}

export type AppendResult = { isNew: boolean; seq: number | null; deliveries: number };

/**
 * Appends one event (nothing when its id is already logged) as the next link of the audit chain
 * (lib/store/audit.ts), and queues its webhook deliveries in the same transaction.
 */
export async function appendEvent(db: Db, input: AppendEventInput): Promise<AppendResult> {
  const actor = actorOf(input.actor);
  const id = input.id ?? newId("evt");
  return db.transaction(async (tx) => {
    await lockChain(tx);
    // Under the lock no other writer can add this id between the look and the insert.
    const [existing] = await tx
      .select({ seq: events.seq })
      .from(events)
      .where(eq(events.id, id))
      .limit(1);
    if (existing) return { isNew: false, seq: null, deliveries: 0 };
    const seq = await nextEventSeq(tx);
    const content = {
      seq,
      id,
      kind: input.kind,
      reviewId: input.reviewId ?? null,
      serverId: input.serverId ?? null,
      actorKind: actor.kind,
      actor: actor.id,
      summary: input.summary.slice(0, MAX_SUMMARY_CHARS),
      detail: storedJson(input.detail ?? {}),
    };
    const sealed = sealNewRow(content, await chainHead(tx), new Date());
    const [row] = await tx
      .insert(events)
      .values({ ...content, ...sealed })
      .returning({ seq: events.seq });
    if (!row) throw new Error("the event insert returned no row");
    const subscribed = (
      await tx
        .select({ id: webhooks.id, kinds: webhooks.kinds })
        .from(webhooks)
        .where(eq(webhooks.isEnabled, true))
    ).filter((w) => Array.isArray(w.kinds) && (w.kinds as unknown[]).includes(input.kind));
    if (subscribed.length > 0) {
      await tx
        .insert(webhookDeliveries)
        .values(
          subscribed.map((w) => ({
            id: `dlv-${w.id}-${row.seq}`,
            webhookId: w.id,
            eventSeq: row.seq,
            state: "pending",
          })),
        )
        .onConflictDoNothing();
    }
    return { isNew: true, seq: row.seq, deliveries: subscribed.length };
  });
}

/** Logs one use of the owner token as a principal (lib/auth/owner-token-use.ts): break-glass evidence. */
export async function logOwnerTokenUse(db: Db, use: OwnerTokenUse): Promise<void> {
  await appendEvent(db, {
    kind: "auth.owner_token",
    actor: OWNER_TOKEN_ACTOR,
    summary: describeOwnerTokenUse(use),
    detail: { via: use.via, method: use.method, path: use.path.slice(0, MAX_SUMMARY_CHARS) },
  });
}

/**
 * Logs a read of a review through a share link, by the link (its id, never its token). Best
 * effort, like an owner action's entry: a failed write is reported on stderr and the view served.
 */
export async function logShareLinkView(
  db: Db,
  view: { linkId: string; reviewId: string; revision: number },
): Promise<void> {
  try {
    await appendEvent(db, {
      kind: "share_link.viewed",
      actor: shareLinkActor(view.linkId),
      reviewId: view.reviewId,
      summary: `Share link ${view.linkId} viewed (revision ${view.revision})`,
      detail: { linkId: view.linkId, revision: view.revision },
    });
  } catch (error) {
    console.error(
      `[events] could not log share_link.viewed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A stored event as the UI and the webhook deliveries read it; `isRead` only where a read was joined. */
export function eventFromRow(
  row: Omit<typeof events.$inferSelect, "prevHash" | "hash">,
): Omit<EventView, "isRead"> {
  return {
    seq: row.seq,
    id: row.id,
    kind: (row.kind in EVENT_KINDS ? row.kind : "inspection.failed") as EventKind,
    reviewId: row.reviewId,
    serverId: row.serverId,
    actorKind: row.actorKind in ACTOR_KINDS ? (row.actorKind as ActorKind) : "unknown",
    actor: row.actor,
    summary: row.summary,
    detail:
      typeof row.detail === "object" && row.detail !== null && !Array.isArray(row.detail)
        ? (row.detail as Record<string, unknown>)
        : {},
    createdAt: row.createdAt.toISOString(),
  };
}

function toView(
  row: Omit<typeof events.$inferSelect, "prevHash" | "hash"> & { readSeq: number | null },
): EventView {
  return { ...eventFromRow(row), isRead: row.readSeq !== null };
}

/** Events newest first, unread before read, filtered; with the owner's unread count over the same filter. */
export async function listEvents(
  db: Db,
  owner: string,
  filter: EventFilter = {},
): Promise<{ events: EventView[]; unread: number }> {
  const where: SQL[] = [];
  if (filter.reviewId) where.push(eq(events.reviewId, filter.reviewId));
  if (filter.kind) where.push(eq(events.kind, filter.kind));
  else if (filter.group) where.push(inArray(events.kind, kindsOfGroup(filter.group)));
  // Unfiltered, the routine "inspected, matches its pin" entries and the owner token's uses (each
  // a pipeline's call) would bury what needs reading; their group or kind lists them.
  else where.push(notInArray(events.kind, ["watch.inspected", ...kindsOfGroup("access")]));
  const joined = and(eq(eventReads.owner, owner), eq(eventReads.eventSeq, events.seq));
  const base = and(...where);
  const rows = await db
    .select({
      seq: events.seq,
      id: events.id,
      kind: events.kind,
      reviewId: events.reviewId,
      serverId: events.serverId,
      actorKind: events.actorKind,
      actor: events.actor,
      summary: events.summary,
      detail: events.detail,
      createdAt: events.createdAt,
      readSeq: eventReads.eventSeq,
    })
    .from(events)
    .leftJoin(eventReads, joined)
    .where(filter.isUnreadOnly ? and(base, isNull(eventReads.eventSeq)) : base)
    .orderBy(sql`(${eventReads.eventSeq} IS NULL) DESC`, desc(events.seq))
    .limit(filter.limit ?? DEFAULT_LIST_LIMIT);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .leftJoin(eventReads, joined)
    .where(and(base, isNull(eventReads.eventSeq)));
  return { events: rows.map(toView), unread: count?.n ?? 0 };
}

/** Marks events read for `owner`: the listed ones, or every event logged so far. */
export async function markEventsRead(
  db: Db,
  owner: string,
  which: { all: true } | { seqs: number[] },
): Promise<void> {
  if ("all" in which) {
    await db.execute(
      sql`INSERT INTO event_reads (owner, event_seq) SELECT ${owner}, seq FROM events ON CONFLICT DO NOTHING`,
    );
    return;
  }
  await db
    .insert(eventReads)
    .values(which.seqs.map((eventSeq) => ({ owner, eventSeq })))
    .onConflictDoNothing();
}
