/**
 * The shapes of sampling a source (issue 31 item 3), shared by the route and the workbench's panel,
 * and the rule for which tools may be sampled. Pure: the browser reads it to offer only the tools
 * the route will run (lib/workbench/sample-run.ts runs them).
 */
import { z } from "zod";
import type { Review, ToolAssessment, ToolRole } from "@/lib/review/schema";

/** Characters of the returned text shown to the reviewer (hidden characters revealed). */
export const SAMPLE_PREVIEW_CHARS = 4_000;

export const SampleRequestSchema = z
  .object({
    tool: z.string().min(1).max(256),
    /** The tool's arguments, as the reviewer wrote them (the route bounds the body's size). */
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type SampleRequest = z.infer<typeof SampleRequestSchema>;

export const SampleResultSchema = z.object({
  tool: z.string(),
  server: z.string(),
  /** The sources the review maps this tool to (names). */
  sources: z.array(z.string()),
  /** The server answered with isError: its text was scanned all the same. */
  isError: z.boolean(),
  flagged: z.boolean(),
  score: z.number(),
  reasons: z.array(z.object({ signal: z.string(), detail: z.string() })),
  /** At most 240 characters around the strongest signal, hidden characters revealed. */
  excerpt: z.string(),
  /** The first SAMPLE_PREVIEW_CHARS characters of the returned text, hidden characters revealed. */
  preview: z.string(),
  /** Characters returned, and whether the detector read only part of them (its budget). */
  chars: z.number().int(),
  truncated: z.boolean(),
});
export type SampleResult = z.infer<typeof SampleResultSchema>;

/** Roles that act on something: a tool holding any of them is not run from the workbench. */
const ACTING_ROLES: readonly ToolRole[] = ["writes", "deploys_or_destroys", "network_or_shares"];

export type SampleRefusal = { ok: false; message: string };

/** Whether the review lets this tool be sampled; the refusal says what the reviewer must change. */
export function samplableTool(
  review: Review,
  serverId: string,
  tool: string,
): { ok: true; assessment: ToolAssessment } | SampleRefusal {
  const assessment = review.tools.find(
    (t) => t.serverId === serverId && t.tool === tool && (t.item ?? "tool") === "tool",
  );
  const name = JSON.stringify(tool);
  if (!assessment)
    return {
      ok: false,
      message: `the review has no assessment of tool ${name}: only a tool assessed as returning untrusted text, and nothing that writes, can be sampled`,
    };
  const acting = assessment.roles.filter((r) => ACTING_ROLES.includes(r));
  if (acting.length)
    return {
      ok: false,
      message: `tool ${name} is not read-only: the review gives it ${acting.join(", ")}; only read-only tools can be sampled`,
    };
  if (!assessment.roles.includes("returns_untrusted_text"))
    return {
      ok: false,
      message: `tool ${name} is not assessed as returning untrusted text; sampling scans what such a tool returns`,
    };
  if (!assessment.rolesConfirmed)
    return {
      ok: false,
      message: `the roles of tool ${name} are the app's suggestion: confirm them in the review before running it (sampling calls the tool on the real system)`,
    };
  return { ok: true, assessment };
}
