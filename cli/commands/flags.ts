/**
 * `relay-review flags --workbench URL --review ID [--held] [--json] [--data DIR] [--workbench-max-bytes N]`
 *
 * Lists the detector's flags on a review (GET /api/reviews/ID/content-flags, owner API, the token
 * as `check` finds it: RELAY_REVIEW_TOKEN, else the data folder's owner-token file, never an
 * argument), newest first: where each came from, its score, reasons and excerpt (server text,
 * hidden characters revealed), and whether the gate holds it. `--held` lists only the results a
 * gate still holds, each with the `relay-review release` line that lets it through.
 *
 * Exit codes: 0 listed; 2 usage or no owner token; 6 the workbench could not be asked
 * (unreachable, token refused, no such review, an answer that is not a flag list).
 */
import { q, safeText } from "@/cli/shared/render";
import {
  getReviewJson,
  jsonTextSafe,
  parseReviewCommand,
  type ReviewCommand,
  startReviewCommand,
  type WorkbenchArgs,
} from "@/cli/shared/workbench";
import { ContentFlagsResponseSchema, type ContentFlag } from "@/lib/workbench/content-flags-api";

export const EXIT = { LISTED: 0, USAGE: 2, WORKBENCH_UNAVAILABLE: 6 } as const;

export const USAGE = [
  "usage: relay-review flags --workbench URL --review ID [--held] [--json] [--data DIR] [--workbench-max-bytes N]",
  "  Lists the detector's flags on the review, newest first. --held: only results a gate still holds.",
  "  The owner token comes from RELAY_REVIEW_TOKEN, else the owner-token file in --data DIR /",
  "  RELAY_REVIEW_DATA / ./.data. Detection is not a control: a flag changes no path and no decision.",
  "exit: 0 listed, 2 usage or no owner token, 6 the workbench could not be asked",
].join("\n");

const FLAGS: ReviewCommand<{ held: boolean; json: boolean }> = {
  name: "flags",
  usage: USAGE,
  spec: { booleans: ["--held", "--json"] },
  read: (line) => ({
    ok: true,
    args: { held: line.booleans.has("--held"), json: line.booleans.has("--json") },
  }),
};

/** The command's options (cli/shared/workbench.ts `parseReviewCommand`), checked. */
export function parseFlagsArgs(argv: readonly string[]) {
  return parseReviewCommand(argv, FLAGS);
}

/** The command that releases a held flag, as a person would paste it. */
export function releaseLine(flagId: string, args: WorkbenchArgs): string {
  return `relay-review release ${flagId} --workbench ${args.base} --review ${args.reviewId}`;
}

/** A flag as lines for a terminal; every server-authored string quoted with hidden characters shown. */
export function describeFlag(f: ContentFlag): string[] {
  const status = f.released
    ? `released by ${f.released.by} at ${f.released.at}`
    : f.held
      ? "HELD"
      : "passed (flag mode)";
  const to = f.origin === "sample" ? "a reviewer's sample" : `agent ${q(f.agent ?? "?")}`;
  return [
    `${f.id}  ${f.createdAt}  ${status}`,
    `  ${f.method} ${q(f.tool)} on ${q(f.server)} to ${to}, score ${f.score.toFixed(2)}${f.sources.length ? `, sources ${f.sources.map(q).join(", ")}` : ""}`,
    ...(f.reasons.length ? [`  reasons: ${f.reasons.slice(0, 5).map(q).join("; ")}`] : []),
    ...(f.excerpt ? [`  excerpt: ${q(f.excerpt)}`] : []),
  ];
}

export async function run(argv: string[]): Promise<number> {
  const started = startReviewCommand(argv, FLAGS);
  if (!started.ok) return started.exit;
  const { args, err } = started;
  const answer = await getReviewJson(args, `content-flags?held=${args.held ? 1 : 0}`, err);
  if (!answer.ok) {
    err(answer.isUsage ? answer.message : `cannot list flags: ${answer.message}`);
    return answer.isUsage ? EXIT.USAGE : EXIT.WORKBENCH_UNAVAILABLE;
  }
  const body = ContentFlagsResponseSchema.safeParse(answer.json);
  if (!body.success || body.data.reviewId !== args.reviewId) {
    err(`cannot list flags: the answer from ${answer.shown} is not this review's flag list`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  const { flags, truncated } = body.data;
  if (args.json) {
    process.stdout.write(jsonTextSafe(JSON.stringify(body.data, null, 2)) + "\n");
    return EXIT.LISTED;
  }
  const out = (line: string) => process.stdout.write(safeText(line) + "\n");
  if (flags.length === 0) {
    out(
      args.held
        ? `no held results in review ${args.reviewId}`
        : `no flags in review ${args.reviewId}`,
    );
    return EXIT.LISTED;
  }
  for (const f of flags) for (const line of describeFlag(f)) out(line);
  if (truncated) out(`(the newest ${flags.length} are listed; more matched)`);
  const held = flags.filter((f) => f.held && !f.released);
  if (held.length) {
    out("");
    out(`${held.length} held; a reviewer releases one with:`);
    out(`  ${releaseLine(held[0]!.id, args)}`);
  }
  return EXIT.LISTED;
}
