/**
 * examples/ci/relay-review.yml is a workflow a team copies: it must parse, run on a schedule, run
 * `verify` and `check`, export SARIF whatever they returned, and upload it; every relay-review
 * command it runs must be one the CLI has, with options that command takes.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { parse } from "yaml";
import { parseCheckArgs } from "@/cli/commands/check";
import { parseSarifArgs } from "@/cli/commands/sarif";
import { ROOT } from "@/tests/support/cli";

type Step = {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
};

test("the example CI workflow runs verify and check on a schedule and uploads the SARIF", () => {
  const wf = parse(readFileSync(path.join(ROOT, "examples/ci/relay-review.yml"), "utf8")) as {
    on: { schedule: { cron: string }[] };
    permissions: Record<string, string>;
    jobs: Record<string, { steps: Step[] }>;
  };
  expect(wf.on.schedule[0]?.cron).toMatch(/^\S+ \S+ \S+ \S+ \S+$/);
  expect(wf.permissions["security-events"]).toBe("write");
  const steps = Object.values(wf.jobs)[0]!.steps;
  const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
  const command = (name: string) => runs.find((r) => r.includes(`relay-review ${name} `));
  expect(command("verify")).toContain("--pin");
  // The check and sarif lines parse with the commands' own argument parsers (variables as placeholders).
  const args = (line: string, name: string) =>
    line
      .slice(line.indexOf(`relay-review ${name} `) + `relay-review ${name} `.length)
      .replace(/"\$RELAY_REVIEW_URL"/g, "https://workbench.example")
      .replace(/"\$RELAY_REVIEW_ID"/g, "rev-1")
      .split(/\s+/)
      .filter(Boolean);
  expect(parseCheckArgs(args(command("check")!, "check")).ok).toBe(true);
  expect(parseSarifArgs(args(command("sarif")!, "sarif"))).toMatchObject({
    ok: true,
    args: { output: "relay-review.sarif" },
  });
  const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif"));
  expect(upload?.with?.sarif_file).toBe("relay-review.sarif");
  expect(upload?.if).toContain("always()");
  expect(steps.find((s) => s.run?.includes("relay-review sarif"))?.if).toContain("always()");
});
