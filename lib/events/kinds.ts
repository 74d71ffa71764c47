/**
 * The kinds of entry in the event and audit log, as data: what the schedule finds about a watched
 * server, and the owner actions an audit needs. Pure. Webhooks subscribe to kinds from this list;
 * the Changes page filters by them. A secret is logged by name only, never a value.
 */
import { z } from "zod";
import { ActorKindSchema } from "@/lib/events/actor";

export const EVENT_KINDS = {
  "surface.changed": { group: "drift", label: "Surface changed" },
  "server.blocked": { group: "drift", label: "Server blocked" },
  "decision.stale": { group: "drift", label: "Decision went stale" },
  "inspection.failed": { group: "drift", label: "Inspection failed" },
  "watch.inspected": { group: "schedule", label: "Scheduled inspection" },
  "watch.dead": { group: "schedule", label: "Scheduled inspection gave up" },
  "decision.made": { group: "audit", label: "Decision made" },
  "decision.approved": { group: "audit", label: "Proposal approved" },
  "person.role_assigned": { group: "audit", label: "Role assigned" },
  "pin.set": { group: "audit", label: "Pin set" },
  "pin.removed": { group: "audit", label: "Pin removed" },
  "share_link.created": { group: "audit", label: "Share link created" },
  "share_link.revoked": { group: "audit", label: "Share link revoked" },
  "secret.set": { group: "audit", label: "Secret set" },
  "secret.deleted": { group: "audit", label: "Secret deleted" },
  "webhook.test": { group: "audit", label: "Webhook test" },
  // Its own group: a pipeline's bearer calls would otherwise bury the owner actions.
  "auth.owner_token": { group: "access", label: "Owner token used" },
  "auth.signed_in": { group: "access", label: "Person signed in" },
  "share_link.viewed": { group: "access", label: "Share link viewed" },
  // Issue 31: what the gate's detector flagged in relayed text, and the tokens it reports with.
  "content.flagged": { group: "detection", label: "Content flagged" },
  "content.released": { group: "detection", label: "Held content released" },
  "reporting_token.created": { group: "audit", label: "Reporting token created" },
  // A reviewer ran a server's read-only tool from the workbench to scan what it returns (item 3).
  "source.sampled": { group: "audit", label: "Source sampled" },
} as const;

export type EventKind = keyof typeof EVENT_KINDS;
export const EVENT_KIND_NAMES = Object.keys(EVENT_KINDS) as EventKind[];
export const EventKindSchema = z.enum(EVENT_KIND_NAMES as [EventKind, ...EventKind[]]);

/** What a webhook receives unless the owner picks otherwise: the drift a platform team acts on. */
export const DEFAULT_WEBHOOK_KINDS: EventKind[] = [
  "surface.changed",
  "server.blocked",
  "decision.stale",
  "inspection.failed",
  "watch.dead",
];

/** An entry as the API returns it. `detail` is stored JSON whose shape depends on `kind`. */
export const EventViewSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  kind: EventKindSchema,
  reviewId: z.string().nullable(),
  serverId: z.string().nullable(),
  /** What sort of principal caused it (lib/events/actor.ts); `actor` says which one. */
  actorKind: ActorKindSchema,
  actor: z.string(),
  summary: z.string(),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
  isRead: z.boolean(),
});
export type EventView = z.infer<typeof EventViewSchema>;

export const ListEventsResponseSchema = z.object({
  events: z.array(EventViewSchema),
  unread: z.number().int(),
});
export type ListEventsResponse = z.infer<typeof ListEventsResponseSchema>;

/** The Changes page's filter: by review, kind, group, and unread only. */
export const EventFilterSchema = z.object({
  reviewId: z.string().max(80).optional(),
  kind: EventKindSchema.optional(),
  group: z.enum(["drift", "schedule", "audit", "access", "detection"]).optional(),
  isUnreadOnly: z.boolean().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type EventFilter = z.infer<typeof EventFilterSchema>;

export const MarkReadRequestSchema = z.union([
  z.object({ all: z.literal(true) }),
  z.object({ seqs: z.array(z.number().int()).min(1).max(500) }),
]);

export const kindsOfGroup = (group: EventFilter["group"]): EventKind[] =>
  EVENT_KIND_NAMES.filter((k) => !group || EVENT_KINDS[k].group === group);
