/**
 * Effective tool annotations. Annotations are server-authored claims, used as hints and never as
 * facts; an absent hint means the MCP spec's default, not "safe" (design.md § Annotation defaults):
 * readOnlyHint defaults to false, destructiveHint and openWorldHint to true, idempotentHint to false.
 */
import type { ToolAnnotations } from "@/lib/review/schema";

export const ANNOTATION_HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;
export type AnnotationHint = (typeof ANNOTATION_HINTS)[number];

/** The MCP specification's default for each hint when a server does not declare it. */
export const SPEC_DEFAULT_HINTS: Record<AnnotationHint, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

export type EffectiveHint = { value: boolean; origin: "declared" | "spec_default" };
export type EffectiveAnnotations = Record<AnnotationHint, EffectiveHint>;

/** The four possible hint values, shared (read-only) by every tool: an analysis may resolve 5,000. */
const HINTS = {
  declared: [{ value: false, origin: "declared" }, { value: true, origin: "declared" }],
  spec_default: [{ value: false, origin: "spec_default" }, { value: true, origin: "spec_default" }],
} as const satisfies Record<EffectiveHint["origin"], readonly [EffectiveHint, EffectiveHint]>;

/** Each hint's effective value and where it came from. Non-boolean declared values count as absent. */
export function effectiveAnnotations(annotations: Partial<Record<string, unknown>> | undefined | null): EffectiveAnnotations {
  const out = {} as EffectiveAnnotations;
  for (const hint of ANNOTATION_HINTS) {
    const declared = annotations?.[hint];
    out[hint] = typeof declared === "boolean" ? HINTS.declared[declared ? 1 : 0] : HINTS.spec_default[SPEC_DEFAULT_HINTS[hint] ? 1 : 0];
  }
  return out;
}

/** Shape check so callers can pass the review's typed annotations or a server's raw object. */
export type AnyAnnotations = ToolAnnotations | Partial<Record<string, unknown>>;
