/**
 * Named bounds on everything a remote MCP server drives during an inspection. A hostile server
 * is the normal case: each read, wait and loop has one of these limits, the user can raise any of
 * them, and a tripped limit ends the inspection with an error value naming it.
 */
import { z } from "zod";

const ms = (max: number) => z.number().int().min(1).max(max);

export const InspectLimitsSchema = z
  .object({
    /** Spawning or reaching the server and completing `initialize`. */
    connectTimeoutMs: ms(600_000),
    /** Each list request (one page). */
    requestTimeoutMs: ms(600_000),
    /** The whole inspection, from connect to settled. */
    deadlineMs: ms(3_600_000),
    /** Bytes received from the server (stdout for stdio, response bodies for HTTP). */
    totalBytes: z
      .number()
      .int()
      .min(1024)
      .max(2 ** 31),
    /** Items per list, summed over its pages. */
    itemCount: z.number().int().min(1).max(1_000_000),
    /** Pages per list; a repeated cursor trips this limit at once. */
    pageCount: z.number().int().min(1).max(100_000),
    /** Characters in any one description, title or the server's instructions. */
    descriptionLength: z.number().int().min(1).max(10_000_000),
    /** Quiet period with no `list_changed` before the surface counts as settled. */
    settleQuietMs: z.number().int().min(0).max(60_000),
    /** Re-lists per list caused by `list_changed` notifications. */
    relists: z.number().int().min(0).max(1000),
    /** Lines or messages from the server that are not JSON-RPC (e.g. logging on stdout). */
    invalidMessages: z.number().int().min(0).max(1_000_000),
  })
  .strict();
export type InspectLimits = z.infer<typeof InspectLimitsSchema>;

/** Limits that can trip, by name; `settleQuietMs` is a wait, not a limit. */
export type InspectLimitName = Exclude<keyof InspectLimits, "settleQuietMs">;

export const DEFAULT_INSPECT_LIMITS: InspectLimits = Object.freeze({
  connectTimeoutMs: 15_000,
  requestTimeoutMs: 10_000,
  deadlineMs: 60_000,
  totalBytes: 32 * 1024 * 1024,
  itemCount: 10_000,
  pageCount: 100,
  descriptionLength: 32_768,
  settleQuietMs: 300,
  relists: 5,
  invalidMessages: 16,
});

/** Defaults overlaid with the caller's values, validated. */
export function resolveInspectLimits(overrides: Partial<InspectLimits> = {}): InspectLimits {
  return InspectLimitsSchema.parse({ ...DEFAULT_INSPECT_LIMITS, ...overrides });
}
