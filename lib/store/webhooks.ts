import "server-only";
/**
 * Webhooks and their deliveries. A delivery is an outbox row queued with its event
 * (lib/store/events.ts appendEvent); any process claims due rows with FOR UPDATE SKIP LOCKED and a
 * lease, so a process killed mid-send leaves the row to be claimed again when the lease runs out,
 * and two processes never send one row at the same moment. Every attempt is kept on the row with
 * its HTTP status or error.
 */
import { and, desc, eq, inArray, lte, sql } from "drizzle-orm";
import { EVENT_KINDS, type EventKind, type EventView } from "@/lib/events/kinds";
import { newId } from "@/lib/ids";
import { eventFromRow } from "@/lib/store/events";
import type { Db } from "@/lib/store/db";
import { events, webhookDeliveries, webhooks } from "@/lib/store/tables";

/** "generic" (signed JSON) or "slack" (lib/watch/webhook-payload.ts). */
export type WebhookFormat = "generic" | "slack";

export interface Webhook {
  id: string;
  label: string;
  url: string;
  format: WebhookFormat;
  secretName: string | null;
  kinds: EventKind[];
  isEnabled: boolean;
  createdAt: string;
}

export type DeliveryAttempt = {
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
};

export interface Delivery {
  id: string;
  webhookId: string;
  eventSeq: number;
  state: "pending" | "delivered" | "failed";
  attempts: DeliveryAttempt[];
  nextAttemptAt: string;
  createdAt: string;
  updatedAt: string;
}

const toWebhook = (r: typeof webhooks.$inferSelect): Webhook => ({
  id: r.id,
  label: r.label,
  url: r.url,
  format: r.format === "slack" ? "slack" : "generic",
  secretName: r.secretName,
  kinds: (Array.isArray(r.kinds) ? r.kinds : []).filter(
    (k): k is EventKind => typeof k === "string" && k in EVENT_KINDS,
  ),
  isEnabled: r.isEnabled,
  createdAt: r.createdAt.toISOString(),
});

const toDelivery = (r: typeof webhookDeliveries.$inferSelect): Delivery => ({
  id: r.id,
  webhookId: r.webhookId,
  eventSeq: r.eventSeq,
  state: r.state === "delivered" || r.state === "failed" ? r.state : "pending",
  attempts: Array.isArray(r.attempts) ? (r.attempts as DeliveryAttempt[]) : [],
  nextAttemptAt: r.nextAttemptAt.toISOString(),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

export async function createWebhook(
  db: Db,
  input: Omit<Webhook, "id" | "createdAt" | "isEnabled"> & { id?: string },
): Promise<Webhook> {
  const [row] = await db
    .insert(webhooks)
    .values({
      id: input.id ?? newId("whk"),
      label: input.label,
      url: input.url,
      format: input.format,
      secretName: input.secretName,
      kinds: input.kinds,
    })
    .returning();
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return toWebhook(row);
}

export async function listWebhooks(db: Db): Promise<Webhook[]> {
  return (await db.select().from(webhooks).orderBy(desc(webhooks.createdAt))).map(toWebhook);
}

export async function getWebhook(db: Db, id: string): Promise<Webhook | null> {
  const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
  return row ? toWebhook(row) : null;
}

export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  return (
    (await db.delete(webhooks).where(eq(webhooks.id, id)).returning({ id: webhooks.id })).length > 0
  );
}

/** A delivery queued directly (the Test button), for an event already logged. */
export async function queueDelivery(db: Db, webhookId: string, eventSeq: number): Promise<string> {
  const id = `dlv-${webhookId}-${eventSeq}`;
  await db
    .insert(webhookDeliveries)
    .values({ id, webhookId, eventSeq, state: "pending" })
    .onConflictDoNothing();
  return id;
}

export async function listDeliveries(db: Db, webhookId: string, limit = 50): Promise<Delivery[]> {
  return (
    await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, webhookId))
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(limit)
  ).map(toDelivery);
}

export async function getDelivery(db: Db, id: string): Promise<Delivery | null> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row ? toDelivery(row) : null;
}

/**
 * Claims up to `limit` pending deliveries that are due (or one named delivery), pushing their
 * next attempt `leaseSeconds` ahead: the lease is how long a claimer has before another process
 * may try the same row.
 */
export async function claimDueDeliveries(
  db: Db,
  options: { limit: number; leaseSeconds: number; id?: string },
): Promise<Delivery[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.state, "pending"),
          lte(webhookDeliveries.nextAttemptAt, sql`now()`),
          ...(options.id ? [eq(webhookDeliveries.id, options.id)] : []),
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(options.limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const rows = await tx
      .update(webhookDeliveries)
      .set({
        nextAttemptAt: sql`now() + make_interval(secs => ${options.leaseSeconds})`,
        updatedAt: sql`now()`,
      })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((d) => d.id),
        ),
      )
      .returning();
    return rows.map(toDelivery);
  });
}

/** Records one attempt: delivered, failed for good, or pending again after `retryInSeconds`. */
export async function recordDeliveryAttempt(
  db: Db,
  id: string,
  attempt: DeliveryAttempt,
  outcome: { state: "delivered" | "failed" } | { state: "pending"; retryInSeconds: number },
): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({
      state: outcome.state,
      attempts: sql`${webhookDeliveries.attempts} || ${JSON.stringify([attempt])}::jsonb`,
      nextAttemptAt:
        outcome.state === "pending"
          ? sql`now() + make_interval(secs => ${outcome.retryInSeconds})`
          : sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(webhookDeliveries.id, id));
}

export async function getEventBySeq(
  db: Db,
  seq: number,
): Promise<Omit<EventView, "isRead"> | null> {
  const [row] = await db.select().from(events).where(eq(events.seq, seq));
  return row ? eventFromRow(row) : null;
}
