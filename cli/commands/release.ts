/**
 * `relay-review release FLAG_ID --workbench URL --review ID [--data DIR]`
 *
 * Releases a result a gate holds on a detector flag (POST
 * /api/reviews/ID/content-flags/FLAG_ID/release, owner API, the token as `check` finds it:
 * RELAY_REVIEW_TOKEN, else the data folder's owner-token file, never an argument that a process
 * list would show). The gate learns of it on its next report and passes the result to the agent's
 * next identical request. `relay-review flags --held` lists the ids.
 *
 * Exit codes: 0 released; 1 refused (no such flag in the review, not held, already released, the
 * credential may not release); 2 usage or no owner token; 6 the workbench could not be asked.
 */
import { safeText } from "@/cli/shared/render";
import {
  askReview,
  parseReviewCommand,
  type ReviewCommand,
  serverErrorMessage,
  startReviewCommand,
} from "@/cli/shared/workbench";
import { workbenchHttpFailure } from "@/lib/decisions/workbench-check";
import { ReleaseResponseSchema } from "@/lib/workbench/content-flags-api";

export const EXIT = { RELEASED: 0, REFUSED: 1, USAGE: 2, WORKBENCH_UNAVAILABLE: 6 } as const;

export const USAGE = [
  "usage: relay-review release FLAG_ID --workbench URL --review ID [--data DIR]",
  "  Releases a result a gate holds on a detector flag (ids: relay-review flags --held). The owner",
  "  token comes from RELAY_REVIEW_TOKEN, else the owner-token file in --data DIR / RELAY_REVIEW_DATA / ./.data.",
  "exit: 0 released, 1 refused (unknown id, not held, already released, not allowed), 2 usage or no owner token,",
  "      6 the workbench could not be asked",
].join("\n");

/** A flag id as the workbench names it (the route's own pattern): it goes into a URL path. */
const FLAG_ID = /^[A-Za-z0-9_-]{1,200}$/;

const RELEASE: ReviewCommand<{ flagId: string }> = {
  name: "release",
  usage: USAGE,
  spec: { positionals: true },
  read: (line) => {
    if (line.positionals.length !== 1)
      return {
        ok: false,
        message:
          line.positionals.length === 0
            ? "FLAG_ID is required (relay-review flags --held lists them)"
            : `one FLAG_ID at a time (got ${line.positionals.length})`,
      };
    const flagId = line.positionals[0]!;
    if (!FLAG_ID.test(flagId))
      return {
        ok: false,
        message: `FLAG_ID ${JSON.stringify(flagId.slice(0, 80))} is not a flag id: 1–200 letters, digits, '_' or '-' (relay-review flags --held lists them)`,
      };
    return { ok: true, args: { flagId } };
  },
};

/** The command's options (cli/shared/workbench.ts `parseReviewCommand`), checked. */
export function parseReleaseArgs(argv: readonly string[]) {
  return parseReviewCommand(argv, RELEASE);
}

export async function run(argv: string[]): Promise<number> {
  const started = startReviewCommand(argv, RELEASE);
  if (!started.ok) return started.exit;
  const { args, err } = started;
  const answer = await askReview(
    args,
    `content-flags/${encodeURIComponent(args.flagId)}/release`,
    err,
    { method: "POST" },
  );
  if (!answer.ok) {
    err(answer.isUsage ? answer.message : `cannot release: ${answer.message}`);
    return answer.isUsage ? EXIT.USAGE : EXIT.WORKBENCH_UNAVAILABLE;
  }
  const said = serverErrorMessage(answer.text);
  const flag = `flag ${args.flagId}`;
  if (answer.status === 404) {
    err(
      `cannot release ${flag}: review ${args.reviewId} has no flagged result with this id${said ? ` (404: ${said})` : ""}; relay-review flags --held lists the held ones`,
    );
    return EXIT.REFUSED;
  }
  if (answer.status === 422) {
    err(`cannot release ${flag}: ${said ?? "the workbench refused it (422)"}`);
    return EXIT.REFUSED;
  }
  if (answer.status === 403) {
    err(
      `cannot release ${flag}: the credential from ${answer.tokenFrom} may not release held results (403${said ? `: ${said}` : ""}); releasing needs the reviewer role`,
    );
    return EXIT.REFUSED;
  }
  if (answer.status < 200 || answer.status > 299) {
    err(
      `cannot release ${flag}: ${workbenchHttpFailure("owner", answer.status, said, args.reviewId, answer.tokenFrom)}`,
    );
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  let body;
  try {
    body = ReleaseResponseSchema.safeParse(JSON.parse(answer.text));
  } catch {
    body = null;
  }
  if (!body?.success) {
    err(`cannot release ${flag}: the answer from ${answer.shown} is not a release`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  if (!body.data.isNew) {
    err(`${flag} was already released; nothing changed`);
    return EXIT.REFUSED;
  }
  process.stdout.write(
    safeText(
      `released ${flag} in review ${args.reviewId}: the gate learns of it on its next report and passes the result to the agent's next identical request`,
    ) + "\n",
  );
  return EXIT.RELEASED;
}
