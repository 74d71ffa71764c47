/**
 * A review's state in one word, for pipelines (`relay-review check`, GET /api/reviews/[id]/state):
 *
 * - `blocked`: a server's current surface differs from its pin under "block" (or cannot be
 *   compared with it). Nothing may rest on it until a reviewer re-pins with a reason.
 * - `stale`: a decision in force (the newest for its server and agent, lib/decisions/lifecycle.ts)
 *   no longer matches what it was bound to (surface, pin, image digest, tool set, controls), a
 *   critical or high finding is open that it neither removes nor accepts, or an acceptance it rests
 *   on has ended (lib/decisions/staleness.ts), so it has to be made again. A superseded decision
 *   does not count.
 * - `failing`: a server's latest inspection failed (a limit, a crash, an unreachable URL), so its
 *   surface now is unknown: the last good one may no longer be what the server says.
 * - `current`: none of these.
 *
 * When several apply, the state is the first of blocked, stale, failing: a definite finding before
 * a check that could not run. `reasons` lists every one, each naming its server or decision.
 * Zod only, shared by the route (which types its answer with it) and the CLI (which parses it).
 */
import { z } from "zod";
import { DetectionViewSchema } from "@/lib/detection/view";
import { StaleChangeSchema } from "@/lib/decisions/api";
import { AgentIdSchema, DecisionIdSchema, ServerIdSchema } from "@/lib/ids";

export const REVIEW_STATES = ["current", "stale", "blocked", "failing"] as const;
export type ReviewStateWord = (typeof REVIEW_STATES)[number];

/** Most important first: the state of a review is the first of these with a reason. */
export const STATE_PRECEDENCE: readonly Exclude<ReviewStateWord, "current">[] = [
  "blocked",
  "stale",
  "failing",
];

const ItemChangeSchema = z.object({
  list: z.enum([
    "tools",
    "resources",
    "resourceTemplates",
    "prompts",
    "instructions",
    "uiResources",
  ]),
  key: z.string(),
  change: z.enum(["added", "removed", "changed"]),
  fields: z.array(z.string()),
});

export const ServerStateSchema = z.object({
  serverId: ServerIdSchema,
  name: z.string(),
  /** Whether a pin is set, and what a change does under it. */
  pin: z
    .object({ surfaceSha256: z.string(), onSurfaceChange: z.enum(["block", "warn"]) })
    .nullable(),
  /** The fingerprint of the current surface (the latest successful inspection); null when never inspected. */
  currentSurfaceSha256: z.string().nullable(),
  /** The latest inspection, failed or not; null when never inspected. */
  latestInspection: z
    .object({
      inspectedAt: z.string(),
      status: z.enum(["ok", "failed"]),
      error: z
        .object({ code: z.string(), limit: z.string().optional(), message: z.string() })
        .nullable(),
    })
    .nullable(),
  /** Why the server is blocked now, with the items that changed when both snapshots are stored. */
  blocked: z.object({ reason: z.string(), items: z.array(ItemChangeSchema) }).nullable(),
});
export type ServerState = z.infer<typeof ServerStateSchema>;

export const DecisionStateSchema = z.object({
  decisionId: DecisionIdSchema,
  serverId: ServerIdSchema,
  serverName: z.string(),
  agentId: AgentIdSchema,
  agentName: z.string(),
  verdict: z.enum(["approved", "approved_with_conditions", "rejected"]),
  state: z.enum(["current", "stale"]),
  changes: z.array(StaleChangeSchema),
  /**
   * Whether the decision is in force: the newest for its server and agent (lib/decisions/lifecycle.ts).
   * Only decisions in force count toward the review's state. Absent from older workbenches: in force.
   */
  inForce: z.boolean().default(true),
  /** A proposal waiting for approvers other than its author (four eyes); null when not pending. */
  pending: z
    .object({ approvals: z.number().int(), required: z.number().int() })
    .nullable()
    .default(null),
  /** The decision that replaced this one, when it is not in force. */
  supersededBy: z.string().nullable().default(null),
  /** What an approval accepts: each finding with its owner and end date. */
  acceptedRisks: z
    .array(
      z.object({
        findingId: z.string(),
        severity: z.string(),
        text: z.string(),
        owner: z.string(),
        until: z.string(),
      }),
    )
    .default([]),
});
export type DecisionState = z.infer<typeof DecisionStateSchema>;

export const StateReasonSchema = z.object({
  state: z.enum(["blocked", "stale", "failing"]),
  /** What the reason is about: a server or a decision, by id. */
  subject: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("server"), serverId: ServerIdSchema }),
    z.object({ kind: z.literal("decision"), decisionId: DecisionIdSchema }),
  ]),
  /** One sentence naming the server or decision and why (server-authored names included: print it escaped). */
  message: z.string(),
});
export type StateReason = z.infer<typeof StateReasonSchema>;

/** GET /api/reviews/[id]/state */
export const ReviewStateResponseSchema = z.object({
  reviewId: z.string(),
  revision: z.number().int().min(1),
  state: z.enum(REVIEW_STATES),
  reasons: z.array(StateReasonSchema),
  servers: z.array(ServerStateSchema),
  decisions: z.array(DecisionStateSchema),
  /** Detection counts (issue 31): printed by `relay-review check`, never part of the state. */
  detection: DetectionViewSchema.optional(),
});
export type ReviewStateResponse = z.infer<typeof ReviewStateResponseSchema>;

const quote = (name: string, id: string) => (name === id ? id : `${id} (${JSON.stringify(name)})`);

/** Every reason the review is not current, in precedence order, then server or decision order. */
export function stateReasons(
  servers: readonly ServerState[],
  decisions: readonly DecisionState[],
): StateReason[] {
  const out: StateReason[] = [];
  for (const s of servers)
    if (s.blocked)
      out.push({
        state: "blocked",
        subject: { kind: "server", serverId: s.serverId },
        message: `server ${quote(s.name, s.serverId)} is blocked: ${s.blocked.reason}`,
      });
  for (const d of decisions)
    if (d.state === "stale" && d.inForce)
      out.push({
        state: "stale",
        subject: { kind: "decision", decisionId: d.decisionId },
        message: `decision ${d.decisionId} (${d.verdict}: ${quote(d.serverName, d.serverId)} into ${quote(d.agentName, d.agentId)}) is stale: ${d.changes.map((c) => `${c.what}: ${c.message}`).join("; ")}`,
      });
  for (const s of servers) {
    const latest = s.latestInspection;
    if (latest?.status !== "failed") continue;
    const e = latest.error;
    const why = e
      ? e.limit
        ? `limit ${e.limit} tripped: ${e.message}`
        : `${e.code}: ${e.message}`
      : "no error was recorded";
    out.push({
      state: "failing",
      subject: { kind: "server", serverId: s.serverId },
      message: `server ${quote(s.name, s.serverId)}: the latest inspection, at ${latest.inspectedAt}, failed (${why}); its surface now is unknown`,
    });
  }
  return out;
}

/** The review's state: the first of blocked, stale, failing that has a reason, else current. */
export function overallState(reasons: readonly StateReason[]): ReviewStateWord {
  return STATE_PRECEDENCE.find((s) => reasons.some((r) => r.state === s)) ?? "current";
}
