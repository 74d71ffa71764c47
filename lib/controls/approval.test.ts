import { describe, expect, it, test } from "vitest";
import { toolKey } from "@/lib/model/ids";
import { createDemoReview } from "@/lib/review/demo";
import {
  attentionSecondsPerDay,
  evaluateApproval,
  habituation,
  MIN_SECONDS_TO_REVIEW_A_PROMPT,
  RARE_MAX_PROMPTS_PER_DAY,
} from "./approval";

const seed = createDemoReview().controls.approvals[0]!;
const deploy = toolKey("deploy-tools", "trigger_deploy");
const evaluate = (o: Partial<typeof seed> = {}) =>
  evaluateApproval({ ...seed, ...o }, 0, new Set([deploy]), [deploy]);

describe("[control:approval] approval on the sensitive path", () => {
  test.each([
    [14, 1.9, 26.6],
    [1, 30, 30],
    [3, 0.1, 0.3],
    [0, 5, 0],
  ])("%d prompts × %d s = %d s of attention a day", (n, s, total) => {
    expect(attentionSecondsPerDay(n, s)).toBe(total);
  });

  it("the seed's approval fails: arguments not resolved, not rare, a click not a review", () => {
    const e = evaluate();
    expect(e.status).toBe("fails");
    expect(e.findings.map((f) => f.kind).sort()).toEqual([
      "approval.click_not_review",
      "approval.not_rare",
      "approval.unresolved_arguments",
    ]);
    expect(e.sitsAt).toBe("sink_call");
    expect(e.cutsPath).toBe(false);
  });

  it("holds only if out of band AND resolved arguments AND rare", () => {
    const good = {
      outOfBand: true,
      showsResolvedArguments: true,
      promptsPerDay: 1,
      medianSecondsToApprove: 20,
    };
    expect(evaluate(good).status).toBe("holds");
    expect(evaluate({ ...good, outOfBand: false }).status).toBe("fails");
    expect(evaluate({ ...good, showsResolvedArguments: false }).status).toBe("fails");
    expect(evaluate({ ...good, promptsPerDay: RARE_MAX_PROMPTS_PER_DAY + 1 }).status).toBe("fails");
  });

  it("the verdict turns on the named threshold of seconds per prompt", () => {
    expect(evaluate({ medianSecondsToApprove: MIN_SECONDS_TO_REVIEW_A_PROMPT - 0.1 }).verdict).toBe(
      "a click, not a review",
    );
    expect(evaluate({ medianSecondsToApprove: MIN_SECONDS_TO_REVIEW_A_PROMPT }).verdict).toBe(
      "time to read the arguments",
    );
  });

  it("habituation grows with frequency", () => {
    expect([1, 5, 14].map(habituation)).toEqual(["low", "moderate", "high"]);
  });

  it("reports sinks without approval and approved tools the agent does not hold", () => {
    const other = toolKey("x", "share_file");
    const e = evaluateApproval(seed, 0, new Set([other]), [other]);
    expect(e.findings.map((f) => f.kind)).toEqual(
      expect.arrayContaining(["approval.tool_not_held", "approval.sink_unapproved"]),
    );
  });
});
