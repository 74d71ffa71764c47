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
import { parseArgs } from "@/cli/shared/args";
import { OAUTH_BOOL_FLAGS, OAUTH_VALUE_FLAGS, prepareCliOAuth } from "@/cli/shared/oauth";
import { ROOT } from "@/tests/support/cli";

const VARS: Record<string, string> = {
  KNOWLEDGE_MCP_URL: "https://mcp.example/mcp",
  KNOWLEDGE_MCP_ISSUER: "https://sso.example",
  KNOWLEDGE_MCP_CLIENT_ID: "relay-review-ci",
};

type Step = {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
};

test("the example CI workflow runs verify and check on a schedule and uploads the SARIF", async () => {
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
  // verify signs in with the organisation's client secret: only to the authorization server
  // --issuer names (issue 28), and the CLI's own OAuth preparation accepts the line as written.
  const verifyLine = command("verify")!.replace(
    /"\$\{\{ vars\.(\w+) \}\}"/g,
    (whole, v: string) => VARS[v] ?? whole,
  );
  const verify = parseArgs(
    args(verifyLine, "verify"),
    ["--pin", ...OAUTH_VALUE_FLAGS],
    ["--quiet", ...OAUTH_BOOL_FLAGS],
  );
  expect(verify.errors).toEqual([]);
  expect(verify.flags.get("--issuer")).toBe(VARS.KNOWLEDGE_MCP_ISSUER);
  const oauth = await prepareCliOAuth(verify.flags, verify.target!, () => {}, {
    KNOWLEDGE_MCP_CLIENT_SECRET: "ci-secret",
  });
  expect(oauth).toMatchObject({ ok: true });
  for (const run of runs)
    if (/--client-(credentials|secret-env|key-env)|--refresh-token-env/.test(run))
      expect(run).toContain("--issuer ");
  const upload = steps.find((s) => s.uses?.startsWith("github/codeql-action/upload-sarif"));
  expect(upload?.with?.sarif_file).toBe("relay-review.sarif");
  expect(upload?.if).toContain("always()");
  expect(steps.find((s) => s.run?.includes("relay-review sarif"))?.if).toContain("always()");
});
