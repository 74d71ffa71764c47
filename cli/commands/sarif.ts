/**
 * `relay-review sarif --workbench URL --review ID [--output FILE] [--data DIR] [--workbench-max-bytes N]`
 *
 * Downloads the review's findings as a SARIF 2.1.0 log (GET /api/reviews/ID/export/sarif, owner
 * API, the token as `check` finds it) and writes it to FILE, exactly as the workbench served it, or
 * to stdout with terminal-moving characters escaped. Results carry stable fingerprints, so
 * uploading each run's file to code scanning updates its alerts instead of adding new ones
 * (docs/sarif.md). The answer is checked to be a SARIF 2.1.0 log before anything is written.
 *
 * Exit codes: 0 written; 1 the file could not be written; 2 usage or no owner token; 6 the
 * workbench could not be asked (unreachable, token refused, no such review, not a SARIF log).
 */
import { writeFile } from "node:fs/promises";
import {
  getReviewJson,
  jsonTextSafe,
  parseReviewCommand,
  type ReviewCommand,
  startReviewCommand,
} from "@/cli/shared/workbench";

export const EXIT = { WRITTEN: 0, WRITE_FAILED: 1, USAGE: 2, WORKBENCH_UNAVAILABLE: 6 } as const;

export const USAGE = [
  "usage: relay-review sarif --workbench URL --review ID [--output FILE] [--data DIR] [--workbench-max-bytes N]",
  "  Writes the review's findings as SARIF 2.1.0 to FILE (default: stdout). The owner token comes from",
  "  RELAY_REVIEW_TOKEN, else the owner-token file in --data DIR / RELAY_REVIEW_DATA / ./.data.",
  "exit: 0 written, 1 the file could not be written, 2 usage or no owner token, 6 the workbench could not be asked",
].join("\n");

const SARIF: ReviewCommand<{ output: string | null }> = {
  name: "sarif",
  usage: USAGE,
  spec: { values: ["--output"] },
  read: (line) => ({ ok: true, args: { output: line.values.get("--output") ?? null } }),
};

/** The command's options (cli/shared/workbench.ts `parseReviewCommand`), checked. */
export function parseSarifArgs(argv: readonly string[]) {
  return parseReviewCommand(argv, SARIF);
}

type SarifShape = { version?: unknown; runs?: { results?: { level?: unknown }[] }[] };

export async function run(argv: string[]): Promise<number> {
  const started = startReviewCommand(argv, SARIF);
  if (!started.ok) return started.exit;
  const { args, err } = started;
  const answer = await getReviewJson(
    args,
    "export/sarif",
    err,
    "application/sarif+json, application/json",
  );
  if (!answer.ok) {
    err(answer.isUsage ? answer.message : `cannot export: ${answer.message}`);
    return answer.isUsage ? EXIT.USAGE : EXIT.WORKBENCH_UNAVAILABLE;
  }
  const log = answer.json as SarifShape;
  if (log?.version !== "2.1.0" || !Array.isArray(log.runs)) {
    err(`cannot export: the answer from ${answer.shown} is not a SARIF 2.1.0 log`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  const counts = new Map<string, number>();
  for (const r of log.runs.flatMap((run) => (Array.isArray(run.results) ? run.results : []))) {
    const level = typeof r.level === "string" ? r.level : "warning";
    counts.set(level, (counts.get(level) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const byLevel = ["error", "warning", "note"]
    .filter((l) => counts.has(l))
    .map((l) => `${counts.get(l)} ${l}`)
    .join(", ");
  if (args.output === null) process.stdout.write(jsonTextSafe(answer.text));
  else {
    try {
      await writeFile(args.output, answer.text);
    } catch (error) {
      err(`cannot write ${args.output}: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT.WRITE_FAILED;
    }
  }
  err(
    `${total} result${total === 1 ? "" : "s"}${byLevel ? ` (${byLevel})` : ""} for review ${args.reviewId} from ${answer.shown}${args.output === null ? "" : ` written to ${args.output}`}`,
  );
  return EXIT.WRITTEN;
}
