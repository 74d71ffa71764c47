/**
 * Request and response shapes of the reviews JSON API, shared by the route handlers (which parse
 * requests with them) and the browser fetchers (which parse responses with them).
 */
import { z } from "zod";
import { ReviewIdSchema } from "@/lib/ids";
import type { ReviewRecord } from "./record";

export const RevisionNumberSchema = z.coerce.number().int().min(1);

export const ReviewSummarySchema = z.object({
  id: ReviewIdSchema,
  title: z.string(),
  revision: z.number().int().min(1),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ReviewSummary = z.infer<typeof ReviewSummarySchema>;

export const ListReviewsResponseSchema = z.object({ reviews: z.array(ReviewSummarySchema) });
export type ListReviewsResponse = z.infer<typeof ListReviewsResponseSchema>;

/**
 * What the review page's frame and the sections that do not edit the document show of a review:
 * its revision, title and summary, and the names of its servers and agents (the graph labels them).
 * The Graph and History sections paint from this and their own routes; the whole document (1.2 MB
 * on the 5,000-tool review) is loaded only by the sections that edit it, or when a change is saved.
 */
export const ReviewHeadSchema = z.object({
  id: ReviewIdSchema,
  revision: z.number().int().min(1),
  title: z.string(),
  summary: z.string(),
  servers: z.array(z.object({ id: z.string(), name: z.string() })),
  agents: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type ReviewHead = z.infer<typeof ReviewHeadSchema>;

export function reviewHead(record: ReviewRecord): ReviewHead {
  const { review } = record;
  return {
    id: record.id,
    revision: record.revision,
    title: review.title,
    summary: review.summary,
    servers: review.servers.map((s) => ({ id: s.id, name: s.name })),
    agents: review.agents.map((a) => ({ id: a.id, name: a.name })),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export const RevisionSummarySchema = z.object({
  revision: z.number().int().min(1),
  createdAt: z.iso.datetime(),
  author: z.string(),
  title: z.string(),
  /** What this revision changed, in one line (lib/reviews/revision-line.ts); on the newest revisions only. */
  change: z.string().optional(),
});
export type RevisionSummary = z.infer<typeof RevisionSummarySchema>;
export const ListRevisionsResponseSchema = z.object({ revisions: z.array(RevisionSummarySchema) });

/** A revision number in a query string: digits only, so " 1e0" does not read as revision 1. */
const RevisionParamSchema = z
  .string()
  .regex(/^\d{1,9}$/, "a revision number")
  .transform(Number)
  .pipe(z.number().int().min(1));

/** `?from=&to=` of the item-level diff route, and `item=<key>` to get one item's two sides. */
export const RevisionDiffQuerySchema = z.object({
  from: RevisionParamSchema,
  to: RevisionParamSchema,
  item: z.string().min(1).max(4200).optional(),
});

export type RevisionItemKind =
  "review" | "server" | "tool" | "source" | "agent" | "control" | "decision";

/** The order a revision diff lists kinds in, and their headings (lib/reviews/revision-diff.ts). */
export const REVISION_ITEM_KINDS: readonly { kind: RevisionItemKind; label: string }[] = [
  { kind: "review", label: "Review" },
  { kind: "server", label: "Servers" },
  { kind: "tool", label: "Tool assessments" },
  { kind: "source", label: "Sources" },
  { kind: "agent", label: "Agents" },
  { kind: "control", label: "Controls" },
  { kind: "decision", label: "Decisions" },
];

const RevisionItemKindSchema = z.enum([
  "review",
  "server",
  "tool",
  "source",
  "agent",
  "control",
  "decision",
] satisfies readonly RevisionItemKind[]);

/** One changed item, without its two sides (`lib/reviews/revision-diff.ts`). */
export const RevisionChangeSummarySchema = z.object({
  kind: RevisionItemKindSchema,
  key: z.string(),
  label: z.string(),
  change: z.enum(["added", "removed", "changed"]),
  fields: z.array(z.string()),
  details: z.array(z.string()),
});
export type RevisionChangeSummary = z.infer<typeof RevisionChangeSummarySchema>;

/** What changed from revision `from` to `to`, item by item; `summary` counts them per kind. */
export const RevisionDiffResponseSchema = z.object({
  from: z.number().int().min(1),
  to: z.number().int().min(1),
  summary: z.string(),
  changes: z.array(RevisionChangeSummarySchema),
});
export type RevisionDiffResponse = z.infer<typeof RevisionDiffResponseSchema>;

/** One changed item with its two sides (null where it did not exist). */
export const RevisionItemResponseSchema = z.object({
  from: z.number().int().min(1),
  to: z.number().int().min(1),
  item: RevisionChangeSummarySchema.extend({ before: z.unknown(), after: z.unknown() }),
});
export type RevisionItemResponse = z.infer<typeof RevisionItemResponseSchema>;
