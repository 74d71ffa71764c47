/**
 * Names in the sentences findings and controls print. A sentence naming 250 tools is not read,
 * and at scale building it costs more than the analysis around it, so prose names the first few
 * and counts the rest; the structured fields beside it (`why.tools`, `sinkTools`…) list them all.
 */

/** Most names one sentence spells out. */
export const MAX_NAMES_IN_PROSE = 8;

/** "a, b, c" or "a, b, … h and 12 more" (at most `max` names). */
export function namesInProse(names: readonly string[], max = MAX_NAMES_IN_PROSE): string {
  if (names.length <= max) return names.join(", ");
  return `${names.slice(0, max).join(", ")} and ${names.length - max} more`;
}
