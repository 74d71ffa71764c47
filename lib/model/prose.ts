/**
 * Names in the sentences findings and controls print. A sentence naming 250 tools is not read,
 * and at scale building it costs more than the analysis around it, so prose names the first few
 * and counts the rest; the structured fields beside it (`why.tools`, `sinkTools`…) list them all.
 *
 * A tool's name is the server's text: in a label or a sentence for a person, its hidden characters
 * (a right-to-left override, a zero-width space) are shown as markers, so `deploy⟦U+202E …⟧` never
 * reads as an innocent name. Keys and structured fields keep the name as sent.
 */
import { revealHidden } from "@/lib/surface/reveal";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A name as a person should read it: unchanged when it is printable ASCII, its hidden characters revealed otherwise. */
export function shownName(name: string): string {
  return PRINTABLE_ASCII.test(name) ? name : revealHidden(name);
}

/** Most names one sentence spells out. */
export const MAX_NAMES_IN_PROSE = 8;

/** "a, b, c" or "a, b, … h and 12 more" (at most `max` names). */
export function namesInProse(names: readonly string[], max = MAX_NAMES_IN_PROSE): string {
  const shown = names.slice(0, max).map(shownName).join(", ");
  return names.length <= max ? shown : `${shown} and ${names.length - max} more`;
}
