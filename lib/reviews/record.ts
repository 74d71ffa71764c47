/**
 * The reviews API's shapes that carry a whole review document: a review record, the create and
 * save requests, a save's conflict and a past revision. Apart from `./api.ts` because they bring
 * the document's schema (and the secret checks behind it) with them: the browser loads them when it
 * loads or saves a document, not on a page that shows a review's head (the Graph and History
 * sections, the review list).
 */
import { z } from "zod";
import { ReviewIdSchema } from "@/lib/ids";
import { ReviewSchema } from "@/lib/review/schema";

/** Create a review from a document, or a fresh copy of the demo review. */
export const CreateReviewRequestSchema = z.union([
  z.object({ review: ReviewSchema }).strict(),
  z.object({ demo: z.literal(true) }).strict(),
]);
export type CreateReviewRequest = z.input<typeof CreateReviewRequestSchema>;

export const ReviewRecordSchema = z.object({
  id: ReviewIdSchema,
  revision: z.number().int().min(1),
  review: ReviewSchema,
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
  /** Set when the stored document was written by an older schema version and upgraded on read. */
  upgradedFrom: z.number().int().nullable(),
});
export type ReviewRecord = z.infer<typeof ReviewRecordSchema>;

/** A save names the revision it was based on; a save in between answers 409 with the current record. */
export const UpdateReviewRequestSchema = z
  .object({ baseRevision: z.number().int().min(1), review: ReviewSchema })
  .strict();
export type UpdateReviewRequest = z.input<typeof UpdateReviewRequestSchema>;

export const ConflictDetailsSchema = z.object({ current: ReviewRecordSchema });

/** One past revision: a ReviewRecord as it was, with who saved it; `updatedAt` is when. */
export const RevisionRecordSchema = ReviewRecordSchema.extend({ author: z.string() });
export type RevisionRecord = z.infer<typeof RevisionRecordSchema>;
