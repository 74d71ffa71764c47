/**
 * `relay-review check --workbench URL --review ID [--data DIR] [--json] [--workbench-max-bytes N]`
 *
 * For pipelines: asks the workbench (GET /api/reviews/ID/state, owner API, `Authorization: Bearer`
 * with RELAY_REVIEW_TOKEN, else the data folder's owner-token file, read and never created) for the
 * review's state now, prints it with every reason naming its server or decision, and exits by it
 * (lib/decisions/review-state.ts says what each state means; the first that applies of blocked, stale,
 * failing is the state). The state is recomputed here from the parts the workbench sends, with the
 * same function the workbench uses, so a pipeline never trusts one word of the answer alone.
 *
 * Exit codes: 0 current; 3 blocked (a server's live surface differs from its pin under "block");
 * 4 failing (a server's latest inspection failed: its surface now is unknown); 5 stale (a decision
 * no longer matches what it was bound to); 2 usage or no owner token; 6 the workbench could not be
 * asked (unreachable, refused the token, no such review, or an answer that is not a review state).
 * 3, 4 and 5 match verify-record's live-surface, live-check and stale codes.
 */
import { safeText } from "@/cli/shared/render";
import { describeDetectionCount } from "@/lib/detection/view";
import {
  getReviewJson,
  jsonTextSafe,
  parseReviewCommand,
  type ReviewCommand,
  startReviewCommand,
} from "@/cli/shared/workbench";
import {
  ReviewStateResponseSchema,
  overallState,
  stateReasons,
  type ReviewStateResponse,
  type ReviewStateWord,
} from "@/lib/decisions/review-state";

export const EXIT = {
  CURRENT: 0,
  USAGE: 2,
  BLOCKED: 3,
  FAILING: 4,
  STALE: 5,
  WORKBENCH_UNAVAILABLE: 6,
  DETECTION: 7,
} as const;

const EXIT_OF: Record<ReviewStateWord, number> = {
  current: EXIT.CURRENT,
  blocked: EXIT.BLOCKED,
  failing: EXIT.FAILING,
  stale: EXIT.STALE,
};

export const USAGE = [
  "usage: relay-review check --workbench URL --review ID [--data DIR] [--json] [--fail-on-detection] [--workbench-max-bytes N]",
  "  Asks the workbench for the review's state now and exits by it. The owner token comes from",
  "  RELAY_REVIEW_TOKEN, else the owner-token file in --data DIR / RELAY_REVIEW_DATA / ./.data.",
  "  --json   print the workbench's state answer as JSON on stdout (the reasons go to stderr)",
  "exit: 0 current",
  '      3 blocked  a server\'s live surface differs from its pin under on_surface_change "block"',
  "      4 failing  a server's latest inspection failed, so its surface now is unknown",
  "      5 stale    a decision no longer matches the surface, pin, image, tool set or controls it was bound to",
  "      2 usage or no owner token; 6 the workbench could not be asked (unreachable, token refused, no such review)",
  "      7 with --fail-on-detection only: the review is current but the detector flagged relayed text",
  "  Detection counts are printed beside the state; a detection alone never fails the check unless",
  "  --fail-on-detection is given (the detector is not a control: it has a measured miss and FP rate).",
  "  When several apply, the first of blocked, stale, failing decides; every reason is printed.",
].join("\n");

const CHECK: ReviewCommand<{ json: boolean; failOnDetection: boolean }> = {
  name: "check",
  usage: USAGE,
  spec: { booleans: ["--json", "--fail-on-detection"] },
  read: (line) => ({
    ok: true,
    args: {
      json: line.booleans.has("--json"),
      failOnDetection: line.booleans.has("--fail-on-detection"),
    },
  }),
};

/** The command's options (cli/shared/workbench.ts `parseReviewCommand`), checked. */
export function parseCheckArgs(argv: readonly string[]) {
  return parseReviewCommand(argv, CHECK);
}

/** The lines a person reads: the state and where, then every reason. */
export function describeState(body: ReviewStateResponse, base: string): string[] {
  const reasons = stateReasons(body.servers, body.decisions);
  const state = overallState(reasons);
  const where = `review ${body.reviewId} revision ${body.revision} at ${base}`;
  if (state === "current") {
    const pinned = body.servers.filter((s) => s.pin).length;
    const inspected = body.servers.filter((s) => s.currentSurfaceSha256).length;
    return [
      `current: ${where}: ${body.servers.length} server${body.servers.length === 1 ? "" : "s"} (${inspected} inspected, ${pinned} pinned, none blocked, no failed inspection), ${body.decisions.length} decision${body.decisions.length === 1 ? "" : "s"}, none stale`,
    ];
  }
  return [
    `${state.toUpperCase()}: ${where}`,
    ...reasons.map((r) => `  ${r.state}: ${r.message}`),
    ...(state === "blocked"
      ? body.servers
          .filter((s) => s.blocked && s.blocked.items.length > 0)
          .flatMap((s) =>
            s
              .blocked!.items.slice(0, 20)
              .map(
                (i) =>
                  `    ${s.serverId}: ${i.list === "instructions" ? "instructions" : `${i.list} ${JSON.stringify(i.key)}`} ${i.change}${i.fields.length ? ` (${i.fields.join(", ")})` : ""}`,
              ),
          )
      : []),
  ];
}

export async function run(argv: string[]): Promise<number> {
  const started = startReviewCommand(argv, CHECK);
  if (!started.ok) return started.exit;
  const { args, err } = started;
  const answer = await getReviewJson(args, "state", err);
  if (!answer.ok) {
    err(answer.isUsage ? answer.message : `cannot check: ${answer.message}`);
    return answer.isUsage ? EXIT.USAGE : EXIT.WORKBENCH_UNAVAILABLE;
  }
  const json = answer.json;
  const body = ReviewStateResponseSchema.safeParse(json);
  if (!body.success) {
    const first = body.error.issues[0];
    err(
      `cannot check: the answer from ${answer.shown} is not a review state${first ? ` (${first.path.join(".") || "(root)"}: ${first.message})` : ""}`,
    );
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  if (body.data.reviewId !== args.reviewId) {
    err(
      `cannot check: the workbench answered for review ${body.data.reviewId}, not ${args.reviewId}`,
    );
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  const state = overallState(stateReasons(body.data.servers, body.data.decisions));
  const lines = [...describeState(body.data, answer.shown), ...detectionLines(body.data)];
  if (args.json) {
    process.stdout.write(jsonTextSafe(JSON.stringify(body.data, null, 2)) + "\n");
    for (const line of lines) err(line);
  } else for (const line of lines) process.stdout.write(safeText(line) + "\n");
  const flagged = body.data.detection?.total?.flagged.k ?? 0;
  if (state === "current" && args.failOnDetection && flagged > 0) return EXIT.DETECTION;
  return EXIT_OF[state];
}

/** Detection counts beside the state (issue 31 item 4): per source and per agent, with the detector's figures. */
function detectionLines(body: ReviewStateResponse): string[] {
  const d = body.detection;
  if (!d?.total) return [];
  return [
    "detection (not a control; never changes the state above):",
    ...d.perSource.map((c) => `  source ${c.name}: ${describeDetectionCount(c, d.detector)}`),
    ...d.perAgent.map((c) => `  agent ${c.name}: ${describeDetectionCount(c, d.detector)}`),
  ];
}
