/**
 * The shape of a review's detector flags as the workbench lists them (GET
 * /api/reviews/ID/content-flags), shared by the route, `relay-review flags|release` and the
 * workbench's pages. Pure. A flag is a `content.flagged` event; a held one (the gate ran with
 * `--content-scan hold`) can be released by a reviewer, which logs `content.released`.
 */
import { z } from "zod";

export const ContentFlagSchema = z.object({
  /** The `content.flagged` event's id: what a release names. */
  id: z.string(),
  createdAt: z.string(),
  /** "gate" (an agent's traffic, reported by a gate) or "sample" (a reviewer's sample). */
  origin: z.enum(["gate", "sample"]),
  agent: z.string().nullable(),
  server: z.string(),
  method: z.string(),
  /** The tool, resource URI (or template) or prompt. */
  tool: z.string(),
  sources: z.array(z.string()),
  score: z.number(),
  reasons: z.array(z.string()),
  /** Bounded, hidden characters revealed by whoever shows it (it is the server's text). */
  excerpt: z.string(),
  /** The gate withheld the result from the agent until a reviewer releases it. */
  held: z.boolean(),
  /** When and by whom a held result was released; null while it is held (or was never held). */
  released: z.object({ at: z.string(), by: z.string() }).nullable(),
});
export type ContentFlag = z.infer<typeof ContentFlagSchema>;

export const ContentFlagsResponseSchema = z.object({
  reviewId: z.string(),
  flags: z.array(ContentFlagSchema),
  /** More flags matched than were listed (newest first, up to the limit). */
  truncated: z.boolean(),
});
export type ContentFlagsResponse = z.infer<typeof ContentFlagsResponseSchema>;

export const ReleaseResponseSchema = z.object({
  flagId: z.string(),
  released: z.literal(true),
  /** False when a reviewer had released it already: nothing changed. */
  isNew: z.boolean(),
});
