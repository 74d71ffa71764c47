/**
 * The shapes of sampling a source (issue 31 item 3), shared by the route and the workbench's panel,
 * and the rule for which tools may be sampled. Pure: the browser reads it to offer only the tools
 * the route will run (lib/workbench/sample-run.ts runs them).
 */
import { z } from "zod";
import {
  AssessedItemKindSchema,
  type AssessedItemKind,
  type Review,
  type ToolAssessment,
  type ToolRole,
} from "@/lib/review/schema";

/** Characters of the returned text shown to the reviewer (hidden characters revealed). */
export const SAMPLE_PREVIEW_CHARS = 4_000;

export const SampleRequestSchema = z
  .object({
    /**
     * What is sampled: a tool (called with `tools/call`), a resource (its URI read with
     * `resources/read`) or a resource template (expanded with `arguments`, then read). The
     * review's assessment of the same kind and name decides whether it may run.
     */
    item: AssessedItemKindSchema.default("tool"),
    /** The tool's name, the resource's URI or the template's URI template, as the review names it. */
    tool: z.string().min(1).max(2000),
    /**
     * The tool's arguments, or the template's variables (strings), as the reviewer wrote them (the
     * route bounds the body's size). A fixed resource takes none.
     */
    arguments: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type SampleRequest = z.infer<typeof SampleRequestSchema>;

/** What the sampled response says about returned text (lib/roles/sampled-text.ts). */
const SampledTextSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("prose"),
    fields: z.array(
      z.object({ path: z.string(), values: z.number().int(), longestWords: z.number().int() }),
    ),
    values: z.number().int(),
  }),
  z.object({
    kind: z.literal("names_only"),
    values: z.number().int(),
    longestWords: z.number().int(),
  }),
  z.object({ kind: z.literal("no_text") }),
]);

export const SampleResultSchema = z.object({
  item: AssessedItemKindSchema,
  /** The tool's name, the resource's URI or the template, as requested. */
  tool: z.string(),
  /** The URI read, for a resource or a template (expanded); absent for a tool. */
  uri: z.string().optional(),
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
  /** Whether prose came back, and in which fields: evidence for or against returns_untrusted_text. */
  returnedText: SampledTextSchema,
});
export type SampleResult = z.infer<typeof SampleResultSchema>;

/** Roles that act on something: a tool holding any of them is not run from the workbench. */
const ACTING_ROLES: readonly ToolRole[] = ["writes", "deploys_or_destroys", "network_or_shares"];

export type SampleRefusal = { ok: false; message: string };

/** How an item of this kind is named in a refusal: `tool "x"`, `resource "u"`, `resource template "t"`. */
export function itemLabel(item: AssessedItemKind, name: string): string {
  const kind = item === "resource_template" ? "resource template" : item;
  return `${kind} ${JSON.stringify(name)}`;
}

/**
 * Whether the review lets this tool (or resource, or resource template) be sampled; the refusal
 * says what the reviewer must change. A resource is read, never called, but it is held to the same
 * assessment as a tool: reading it may still act on a real system (a feed marked read, a log
 * rotated), and the reviewer's confirmed roles are what say it does not.
 */
export function samplableTool(
  review: Review,
  serverId: string,
  tool: string,
  item: AssessedItemKind = "tool",
): { ok: true; assessment: ToolAssessment } | SampleRefusal {
  const assessment = review.tools.find(
    (t) => t.serverId === serverId && t.tool === tool && (t.item ?? "tool") === item,
  );
  const name = itemLabel(item, tool);
  if (!assessment)
    return {
      ok: false,
      message: `the review has no assessment of ${name}: only an item whose roles a reviewer confirmed as read-only can be sampled`,
    };
  const acting = assessment.roles.filter((r) => ACTING_ROLES.includes(r));
  if (acting.length)
    return {
      ok: false,
      message: `${name} is not read-only: the review gives it ${acting.join(", ")}; only read-only items can be sampled`,
    };
  if (!assessment.rolesConfirmed)
    return {
      ok: false,
      message: `the roles of ${name} are the app's suggestion: confirm them in the review before running it (sampling ${item === "tool" ? "calls the tool" : "reads the resource"} on the real system)`,
    };
  return { ok: true, assessment };
}

/** Refuses arguments a resource cannot take: a fixed resource takes none, a template only strings. */
export function sampleArgumentsRefusal(request: SampleRequest): string | null {
  const names = Object.keys(request.arguments);
  if (request.item === "resource" && names.length)
    return `resource ${JSON.stringify(request.tool)} is read by its URI and takes no arguments (got ${names.slice(0, 5).join(", ")})`;
  if (request.item === "resource_template") {
    const bad = names.find((n) => typeof request.arguments[n] !== "string");
    if (bad !== undefined)
      return `the variable ${JSON.stringify(bad)} of resource template ${JSON.stringify(request.tool)} must be a string`;
  }
  return null;
}
