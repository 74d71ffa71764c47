/**
 * Effective tool annotations. Annotations are server-authored claims, used as hints and never as
 * facts; an absent hint means the MCP spec's default, not "safe" (the spec's ToolAnnotations):
 * readOnlyHint defaults to false, destructiveHint and openWorldHint to true, idempotentHint to false.
 */
import type { ToolAnnotations } from "@/lib/review/schema";

export const ANNOTATION_HINTS = [
  "readOnlyHint",
  "destructiveHint",
  "idempotentHint",
  "openWorldHint",
] as const;
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
  declared: [
    { value: false, origin: "declared" },
    { value: true, origin: "declared" },
  ],
  spec_default: [
    { value: false, origin: "spec_default" },
    { value: true, origin: "spec_default" },
  ],
} as const satisfies Record<EffectiveHint["origin"], readonly [EffectiveHint, EffectiveHint]>;

/**
 * Every combination of the four hints' values, built once and shared (read-only): an analysis may
 * resolve 5,000 tools, and there are only 4^4 combinations. Indexed by `combinationIndex`.
 */
const COMBINATIONS: readonly EffectiveAnnotations[] = Array.from(
  { length: 4 ** ANNOTATION_HINTS.length },
  (_, index) => {
    const out = {} as EffectiveAnnotations;
    ANNOTATION_HINTS.forEach((hint, i) => {
      const state = Math.floor(index / 4 ** i) % 4; // 0, 1: declared false, true; 2: the spec default
      out[hint] =
        state < 2
          ? HINTS.declared[state as 0 | 1]
          : HINTS.spec_default[SPEC_DEFAULT_HINTS[hint] ? 1 : 0];
    });
    return Object.freeze(out);
  },
);

/** The index of an annotations object's combination of hint values (see `effectiveAnnotationsOf`). Non-boolean declared values count as absent. */
export function annotationCombination(
  annotations: Partial<Record<string, unknown>> | undefined | null,
): number {
  let index = 0;
  for (let i = 0, scale = 1; i < ANNOTATION_HINTS.length; i++, scale *= 4) {
    const declared = annotations?.[ANNOTATION_HINTS[i]!];
    index += scale * (typeof declared === "boolean" ? (declared ? 1 : 0) : 2);
  }
  return index;
}

/** The shared, frozen effective annotations of a combination index from `annotationCombination`. */
export const effectiveAnnotationsOf = (combination: number): EffectiveAnnotations =>
  COMBINATIONS[combination]!;

/** Each hint's effective value and where it came from. Non-boolean declared values count as absent. */
export function effectiveAnnotations(
  annotations: Partial<Record<string, unknown>> | undefined | null,
): EffectiveAnnotations {
  return effectiveAnnotationsOf(annotationCombination(annotations));
}

/** Shape check so callers can pass the review's typed annotations or a server's raw object. */
export type AnyAnnotations = ToolAnnotations | Partial<Record<string, unknown>>;
