/**
 * The import route's request and response, shared by the route handler, the CLI and the upload
 * panel. The file travels as text; the response never echoes it.
 */
import { z } from "zod";
import { CLIENT_SHAPES } from "@/lib/import/config";
import { MAX_CONFIG_LENGTH } from "@/lib/import/jsonc";
import { ImportSummarySchema } from "@/lib/import/merge";

export const ImportRequestSchema = z.object({
  text: z.string().min(1, "the config is empty").max(MAX_CONFIG_LENGTH),
  fileName: z.string().trim().max(500).optional(),
  shape: z.enum(CLIENT_SHAPES).optional(),
  /** Without it, a new review is created. */
  reviewId: z.string().max(80).optional(),
  /** Required with reviewId: the revision the import is applied to (a conflict is a 409). */
  baseRevision: z.number().int().min(1).optional(),
});
export type ImportRequest = z.input<typeof ImportRequestSchema>;

export const ImportResponseSchema = z.object({
  reviewId: z.string(),
  revision: z.number().int(),
  created: z.boolean(),
  summary: ImportSummarySchema,
});
export type ImportResponse = z.infer<typeof ImportResponseSchema>;
