/**
 * The allowlisted launcher nearest to a refused command, so a near miss (a missing `stdio`, a
 * version typed differently) names the entry the reviewer probably meant instead of only "not in
 * the allowlist". Distance is Levenshtein's over the command line as one string (command and
 * args joined by spaces), each side cut at NEAREST_MAX_CHARS so a hostile or pasted giant line
 * costs a bounded amount.
 */
import { distance } from "fastest-levenshtein";
import type { Launcher } from "@/lib/sandbox/launchers";

/** Characters of a command line compared; the rest is ignored. */
export const NEAREST_MAX_CHARS = 400;
/** A launcher further than this share of the longer line's length is not "near": nothing is named. */
export const NEAREST_MAX_SHARE = 0.5;

const line = (command: string, args: readonly string[]) =>
  [command, ...args].join(" ").slice(0, NEAREST_MAX_CHARS);

/** The nearest launcher and its distance, or null when none is near enough to suggest. */
export function nearestLauncher(
  launchers: readonly Launcher[],
  request: { command: string; args: readonly string[] },
): { launcher: Launcher; distance: number } | null {
  const wanted = line(request.command, request.args);
  let best: { launcher: Launcher; distance: number } | null = null;
  for (const launcher of launchers) {
    const candidate = line(launcher.command, launcher.args);
    const d = distance(wanted, candidate);
    if (d > NEAREST_MAX_SHARE * Math.max(wanted.length, candidate.length)) continue;
    if (!best || d < best.distance) best = { launcher, distance: d };
  }
  return best;
}
