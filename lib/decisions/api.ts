/**
 * Request and response shapes of the decisions, share-link and share-view JSON APIs, shared by the
 * route handlers (which parse requests and type responses with them) and the browser fetchers
 * (which parse responses with them). Zod only: nothing here pulls node:crypto into the browser.
 */
import { z } from "zod";
import { ServerTransportKindSchema } from "@/lib/transport-kind";
import { DetectionViewSchema } from "@/lib/detection/view";
import { AgentIdSchema, ServerIdSchema } from "@/lib/ids";
import {
  DecisionConditionSchema,
  DecisionSchema,
  FINDING_SEVERITIES,
  RelayServerSchema,
  ReviewObjectSchema,
  ToolRefSchema,
} from "@/lib/review/schema";

// ---- decisions -------------------------------------------------------------------------------

/** An open finding of a decision's agent and server (lib/decisions/findings.ts DecisionFinding). */
export const DecisionFindingSchema = z.object({
  id: z.string(),
  kind: z.string(),
  severity: z.enum(FINDING_SEVERITIES),
  text: z.string(),
  ends: z.object({ from: z.string(), to: z.string() }).nullable(),
  subject: z.object({ agentId: z.string().optional(), serverId: z.string().optional() }),
});
export type DecisionFindingView = z.infer<typeof DecisionFindingSchema>;

/** One acceptance in a decide request: the finding by id, who owns the risk, why, and until when. */
export const AcceptRiskRequestSchema = z
  .object({
    findingId: z.string().max(64),
    owner: z.string().trim().min(1, "who owns this risk?").max(120),
    why: z.string().trim().min(1, "say why the risk is accepted").max(4000),
    /** `YYYY-MM-DD` (the end of that day UTC) or an ISO date-time; omitted: 90 days from now. */
    until: z.string().max(40).optional(),
  })
  .strict();
export type AcceptRiskRequest = z.input<typeof AcceptRiskRequestSchema>;

/** POST /api/reviews/[id]/decisions: decide on `serverId` into `agentId`, on top of `baseRevision`. */
export const DecideRequestSchema = z
  .object({
    baseRevision: z.number().int().min(1),
    serverId: ServerIdSchema,
    agentId: AgentIdSchema,
    verdict: z.enum(["approved", "approved_with_conditions", "rejected"]),
    conditions: z.array(DecisionConditionSchema).max(100).default([]),
    /** For an approval: each open critical or high finding no condition removes, accepted. */
    acceptances: z.array(AcceptRiskRequestSchema).max(1000).default([]),
    /**
     * Only with the owner token (no identity provider): who decides, as typed. A signed-in person
     * is named by the identity provider, and this field is ignored.
     */
    reviewer: z
      .string()
      .trim()
      .min(1, "who decides? enter the reviewer's name")
      .max(120)
      .optional(),
    rationale: z.string().trim().min(1, "a decision needs a rationale").max(20_000),
  })
  .strict();
export type DecideRequest = z.input<typeof DecideRequestSchema>;

/** One change to what a decision is bound to (lib/decisions/staleness.ts StaleChange). */
export const StaleChangeSchema = z.looseObject({
  what: z.enum([
    "surface",
    "pin",
    "image_digest",
    "tool_set",
    "controls",
    "granted_scopes",
    "agent_removed",
    "server_removed",
    "finding_unaccepted",
    "acceptance_expired",
  ]),
  message: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  added: z.array(ToolRefSchema).optional(),
  removed: z.array(ToolRefSchema).optional(),
  /** For an unaccepted finding or an ended acceptance: the finding. */
  finding: DecisionFindingSchema.pick({
    id: true,
    kind: true,
    severity: true,
    text: true,
    ends: true,
  }).optional(),
  /** For a wider OAuth grant: the scopes added since the decision. */
  addedScopes: z.array(z.string()).optional(),
  /** For a surface change: the items that differ, when both snapshots are stored. */
  items: z
    .array(
      z.object({
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
      }),
    )
    .optional(),
});
export type StaleChangeView = z.infer<typeof StaleChangeSchema>;

export const DecisionStatusSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("current") }),
  z.object({ state: z.literal("stale"), changes: z.array(StaleChangeSchema).min(1) }),
]);
export type DecisionStatusView = z.infer<typeof DecisionStatusSchema>;

/** A condition as checked against the current review: `holds: null` means it cannot be checked. */
export const ConditionCheckSchema = z.object({
  condition: DecisionConditionSchema,
  holds: z.boolean().nullable(),
  reason: z.string(),
  /**
   * Candidates only, for "tool absent from agent": `keep_out`, a sensitive sink the agent does not
   * hold; `on_path`, a tool the agent holds on its paths (shown, not selectable: it cannot hold
   * for this tool set). `offerNote` says why it is offered.
   */
  offer: z.enum(["keep_out", "on_path"]).optional(),
  offerNote: z.string().optional(),
});
export type ConditionCheckView = z.infer<typeof ConditionCheckSchema>;

/** A decision with what the server knows about it now. */
export const DecisionViewSchema = z.object({
  decision: DecisionSchema,
  status: DecisionStatusSchema,
  conditionChecks: z.array(ConditionCheckSchema),
  /** "made against the live surface …" or "made against declared tools, not a live surface". */
  basis: z.object({ kind: z.enum(["live_surface", "declared_tools"]), label: z.string() }),
  /** The newer decision for the same server and agent that replaced this one; null while it is in force. */
  supersededBy: z.string().nullable().optional(),
});
export type DecisionView = z.infer<typeof DecisionViewSchema>;

/**
 * GET /api/reviews/[id]/decisions[?serverId=&agentId=]. `surfaces` is each server's current
 * fingerprint (latest successful inspection, with the pin's declared capabilities when pinned).
 * With both query parameters, `candidates` are the checkable conditions for that pair, each with
 * whether it holds now.
 */
export const ListDecisionsResponseSchema = z.object({
  revision: z.number().int().min(1),
  decisions: z.array(DecisionViewSchema),
  surfaces: z.array(z.object({ serverId: ServerIdSchema, surfaceSha256: z.string().nullable() })),
  candidates: z.array(ConditionCheckSchema).optional(),
  /** With both query parameters: the open findings of that pair, most severe first (what an approval must cover). */
  findings: z.array(DecisionFindingSchema).optional(),
});
export type ListDecisionsResponse = z.infer<typeof ListDecisionsResponseSchema>;

export const DecideQuerySchema = z.object({
  serverId: ServerIdSchema.optional(),
  agentId: AgentIdSchema.optional(),
});

/** POST answer: the saved review revision and the new decision. */
export const DecideResponseSchema = z.object({
  revision: z.number().int().min(1),
  decision: DecisionViewSchema,
});
export type DecideResponse = z.infer<typeof DecideResponseSchema>;

// ---- share links -----------------------------------------------------------------------------

/** Longest a share link may live: a year. */
export const MAX_SHARE_LINK_HOURS = 24 * 366;

export const CreateShareLinkRequestSchema = z
  .object({
    /** Freeze at the review's current revision; otherwise the link shows the latest. */
    frozen: z.boolean(),
    /** Hours from now; fractional hours allowed. Omitted: the link does not expire. */
    expiresInHours: z.number().positive().max(MAX_SHARE_LINK_HOURS).optional(),
    label: z.string().trim().max(120).default(""),
  })
  .strict();
export type CreateShareLinkRequest = z.input<typeof CreateShareLinkRequestSchema>;

/** A share link as the owner sees it: never its token, nor the token's hash. */
export const ShareLinkViewSchema = z.object({
  id: z.string(),
  frozenRevision: z.number().int().nullable(),
  expiresAt: z.iso.datetime().nullable(),
  revokedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  label: z.string(),
  state: z.enum(["active", "revoked", "expired"]),
});
export type ShareLinkView = z.infer<typeof ShareLinkViewSchema>;

/** The only response that ever carries the token: shown once, stored nowhere but as its hash. */
export const CreateShareLinkResponseSchema = z.object({
  link: ShareLinkViewSchema,
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/),
  /** Path of the read-only view, `/share/<token>`; the page builds the absolute URL. */
  path: z.string(),
});
export type CreateShareLinkResponse = z.infer<typeof CreateShareLinkResponseSchema>;

export const ListShareLinksResponseSchema = z.object({ links: z.array(ShareLinkViewSchema) });
export type ListShareLinksResponse = z.infer<typeof ListShareLinksResponseSchema>;

// ---- the read-only share view ----------------------------------------------------------------

/**
 * GET /api/share/[token]: the review (at the frozen revision, or the latest), its analysis and its
 * decisions with their status now — and nothing else. `analysis` is the analysis route's body
 * without the review id; the view parses its envelope where it renders it.
 */
const SharedNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
/** A transport as a share link shows it (lib/review/transport-variables.ts `sharedTransport`): no args, path or query. */
export const SharedTransportSchema = z.strictObject({
  kind: ServerTransportKindSchema,
  command: z.string().max(120).nullable(),
  origin: z.string().max(2000).nullable(),
  envNames: z.array(SharedNameSchema).max(256),
  headerEnv: z.record(z.string().max(128), SharedNameSchema),
});
/** The review a share link shows: the document with each server's transport reduced. */
export const SharedReviewSchema = ReviewObjectSchema.extend({
  servers: z.array(RelayServerSchema.extend({ transport: SharedTransportSchema })).max(1000),
});
export type SharedReview = z.infer<typeof SharedReviewSchema>;

export const ShareViewResponseSchema = z.object({
  revision: z.number().int().min(1),
  frozen: z.boolean(),
  expiresAt: z.iso.datetime().nullable(),
  review: SharedReviewSchema,
  analysis: z.record(z.string(), z.unknown()),
  decisions: z.array(DecisionViewSchema),
  /** Detection counts now (issue 31 item 4); not a control, not part of any decision. */
  detection: DetectionViewSchema,
});
export type ShareViewResponse = z.infer<typeof ShareViewResponseSchema>;
