/**
 * A review at a glance (issue 29, item 5): what the Summary tab shows and what the reviews list
 * sorts and filters on. Per agent, its open findings by severity (paths from untrusted sources to
 * sensitive sinks apart), the trifecta and the Rule of Two, each control on its paths with its
 * state; per server, its pin (pinned, blocked, unpinned); per decision, where it is in its life
 * (lib/decisions/lifecycle.ts), whether it still holds (lib/decisions/staleness.ts via the state
 * route's rule), and what it accepts until when. Every word is computed on the server from the
 * same review context the state route reads, so the summary, `relay-review check` and the share
 * view cannot disagree. Zod only here; lib/workbench/summary.ts fills it.
 */
import { z } from "zod";
import { DetectionViewSchema } from "@/lib/detection/view";
import { REVIEW_STATES } from "@/lib/decisions/review-state";
import { FINDING_SEVERITIES } from "@/lib/review/schema";

export const SeverityCountsSchema = z.object({
  critical: z.number().int().min(0),
  high: z.number().int().min(0),
  medium: z.number().int().min(0),
  low: z.number().int().min(0),
});
export type SeverityCounts = z.infer<typeof SeverityCountsSchema>;

const LegSchema = z.object({ present: z.boolean(), tools: z.number().int().min(0) });

export const AgentSummarySchema = z.object({
  agentId: z.string(),
  name: z.string(),
  toolCount: z.number().int().min(0),
  /** Open paths (one per pair of ends), by severity. */
  paths: SeverityCountsSchema,
  /** Every other open finding about the agent, its servers or the whole review, by severity. */
  findings: SeverityCountsSchema,
  trifecta: z.object({
    met: z.boolean(),
    untrustedInput: LegSchema,
    privateData: LegSchema,
    outboundCommunication: LegSchema,
  }),
  ruleOfTwo: z.object({ count: z.number().int().min(0), violated: z.boolean() }),
  controls: z.array(
    z.object({
      controlId: z.string(),
      name: z.string(),
      status: z.enum(["holds", "fails", "absent", "cannot_evaluate"]),
      scope: z.string(),
    }),
  ),
});
export type AgentSummary = z.infer<typeof AgentSummarySchema>;

export const PIN_WORDS = ["pinned", "blocked", "unpinned"] as const;

export const ServerSummarySchema = z.object({
  serverId: z.string(),
  name: z.string(),
  pin: z.enum(PIN_WORDS),
  /** Why it is blocked, when it is. */
  blockedReason: z.string().nullable(),
  inspected: z.boolean(),
  failing: z.boolean(),
});
export type ServerSummary = z.infer<typeof ServerSummarySchema>;

/** One word per decision, most pressing first: pending, stale, current, superseded. */
export const DECISION_WORDS = ["pending", "stale", "current", "superseded"] as const;
export type DecisionWord = (typeof DECISION_WORDS)[number];

export const DecisionSummarySchema = z.object({
  decisionId: z.string(),
  serverName: z.string(),
  agentName: z.string(),
  verdict: z.enum(["approved", "approved_with_conditions", "rejected"]),
  status: z.enum(DECISION_WORDS),
  /** Why it is stale, one line per change. */
  staleBecause: z.array(z.string()),
  decidedAt: z.string(),
  reviewer: z.string(),
  /** What it accepts: each finding with its owner and end date. */
  accepts: z.array(
    z.object({
      severity: z.enum(FINDING_SEVERITIES),
      text: z.string(),
      owner: z.string(),
      until: z.string(),
    }),
  ),
  /** The earliest end of what it accepts, when that is within EXPIRING_DAYS; null otherwise. */
  expiresAt: z.string().nullable(),
});
export type DecisionSummary = z.infer<typeof DecisionSummarySchema>;

/** An acceptance ending within this many days is "expiring". */
export const EXPIRING_DAYS = 14;

/** The flags the reviews list filters on, and the counts it sorts on. */
export const ReviewFlagsSchema = z.object({
  state: z.enum(REVIEW_STATES),
  openPaths: SeverityCountsSchema,
  stale: z.number().int().min(0),
  blocked: z.number().int().min(0),
  pending: z.number().int().min(0),
  /** Pending proposals the person asking could approve (not their own). */
  pendingMine: z.number().int().min(0),
  expiring: z.number().int().min(0),
  /** A decision in force (or proposed) accepts a critical finding. */
  acceptsCritical: z.boolean(),
  /** The verdict of the newest decision in force, or null without one. */
  verdict: z.enum(["approved", "approved_with_conditions", "rejected"]).nullable(),
});
export type ReviewFlags = z.infer<typeof ReviewFlagsSchema>;

/** GET /api/reviews/[id]/summary */
export const ReviewSummaryViewSchema = z.object({
  reviewId: z.string(),
  revision: z.number().int().min(1),
  flags: ReviewFlagsSchema,
  agents: z.array(AgentSummarySchema),
  servers: z.array(ServerSummarySchema),
  decisions: z.array(DecisionSummarySchema),
  /** Detection counts (issue 31): shown beside the review, never part of its state or its controls. */
  detection: DetectionViewSchema,
});
export type ReviewSummaryView = z.infer<typeof ReviewSummaryViewSchema>;

/** GET /api/reviews/overview: the reviews list's columns, one row per review. */
export const ReviewOverviewRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  revision: z.number().int().min(1),
  updatedAt: z.string(),
  /** Null when the review's summary could not be computed (the row still lists it). */
  flags: ReviewFlagsSchema.nullable(),
});
export type ReviewOverviewRow = z.infer<typeof ReviewOverviewRowSchema>;
export const ReviewOverviewResponseSchema = z.object({
  reviews: z.array(ReviewOverviewRowSchema),
});
export type ReviewOverviewResponse = z.infer<typeof ReviewOverviewResponseSchema>;

export const emptyCounts = (): SeverityCounts => ({ critical: 0, high: 0, medium: 0, low: 0 });
