/**
 * Risk acceptance at the decision, in the demo review: approving knowledge-mcp into the on-call
 * agent lists its open findings grouped by severity before Record, with nothing ticked; a missing
 * rationale is said once; a plain approval is refused naming what it leaves uncovered; accepting
 * each critical and high finding (owner, why, until) records it, and the decision, the share view
 * and `verify-record` all say what it accepts and until when, never a plain green "current".
 */
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { CreateShareLinkResponseSchema } from "../../lib/decisions/api";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

const run = promisify(execFile);

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[decision]: an approval over the on-call agent's critical paths names who accepts each, why and until when", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id } = await createDemoReview(page.request);
  await page.goto(`/reviews/${id}?section=decision`);
  const form = page.getByRole("form", { name: "Decide" });
  await form.getByLabel("Server").selectOption("knowledge-mcp");
  await form.getByLabel("Into agent").selectOption("on-call");

  // Listed before Record, grouped by severity; nothing is ticked.
  const findings = form.getByTestId("decide-findings");
  await expect(findings.getByTestId("findings-critical")).toContainText(
    "Tracker: support portal project (SUP) (writers: everyone with an email address) can reach trigger_deploy",
  );
  await expect(findings.getByTestId("findings-high")).toContainText("breaks the Rule of Two");
  await form.getByLabel("Approved", { exact: true }).check();
  const boxes = findings.getByRole("checkbox");
  const count = await boxes.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) await expect(boxes.nth(i)).not.toBeChecked();

  // No rationale: said once, readably.
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form.getByRole("button", { name: "Record decision" }).click();
  const message = form.getByTestId("decide-message");
  await expect(message).toContainText("Rationale: a decision needs a rationale");
  expect((await message.innerText()).split("a decision needs a rationale").length - 1).toBe(1);

  // A plain approval is refused, naming every finding it leaves uncovered.
  await form.getByLabel("Rationale").fill("The on-call agent needs the knowledge base.");
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(message).toContainText(
    `Not recorded: ${count} critical or high findings are neither removed by a condition nor accepted`,
  );
  await expect(message).toContainText("critical: Text written into Tracker: support portal");
  await expect(page.locator("[data-decision-id]")).toHaveCount(0);

  // Accept each: owner, why; the critical one until a date of the reviewer's choosing.
  const until = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
  const rows = findings.locator("[data-finding-id]").filter({ has: page.getByRole("checkbox") });
  await expect(rows).toHaveCount(count);
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    await row.getByRole("checkbox").check();
    await row.getByLabel("Risk owner").fill("Head of Platform");
    await row
      .getByLabel("Why it is accepted")
      .fill("Deploys are rare and a second person approves");
    if (i === 0) await row.getByLabel("Accepted until").fill(until);
  }
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(message).toContainText("saved as revision 2");

  const card = page.locator("[data-decision-id]");
  await expect(card.getByTestId("decision-verdict")).toHaveText(
    `Approved, accepting ${count} findings`,
  );
  await expect(card.getByTestId("decision-verdict")).not.toHaveClass(/badge-ok/);
  const status = card.getByTestId("decision-status");
  await expect(status).toHaveAttribute("data-state", "current-accepting-risk");
  await expect(status).toContainText(`accepting risk: ${count} open findings`);
  const accepted = card.getByTestId("decision-accepted-risks");
  await expect(accepted.locator("li")).toHaveCount(count);
  await expect(accepted.locator('[data-severity="critical"]')).toContainText(
    "accepted by Head of Platform until",
  );

  // The share view says the same.
  const linkRes = await page.request.post(`/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  expect(linkRes.status()).toBe(201);
  const link = CreateShareLinkResponseSchema.parse(await linkRes.json());
  await page.goto(link.path);
  await expect(page.getByTestId("decision-verdict")).toHaveText(
    `Approved, accepting ${count} findings`,
  );
  await expect(page.getByTestId("decision-status")).toHaveAttribute(
    "data-state",
    "current-accepting-risk",
  );

  // The signed record carries the acceptances; verify-record prints them.
  const list = (await (
    await page.request.get(`/api/reviews/${id}/decisions`, { headers: bearer })
  ).json()) as { decisions: { decision: { id: string } }[] };
  const did = list.decisions[0]!.decision.id;
  const recordRes = await page.request.get(`/api/reviews/${id}/decisions/${did}/record`, {
    headers: bearer,
  });
  expect(recordRes.status(), await recordRes.text()).toBe(200);
  const record = (await recordRes.json()) as {
    recordVersion: number;
    decision: { acceptedRisks: { severity: string; owner: string; until: string }[] };
  };
  // Version 3 (issue 29): the record names its author (here the owner token) instead of a typed reviewer.
  expect(record.recordVersion).toBe(3);
  expect(record.decision.acceptedRisks).toHaveLength(count);
  expect(record.decision.acceptedRisks[0]).toMatchObject({
    severity: "critical",
    owner: "Head of Platform",
    until: `${until}T23:59:59.000Z`,
  });
  const dir = await mkdtemp(path.join(os.tmpdir(), "rr-accept-"));
  const recordFile = path.join(dir, "record.json");
  await writeFile(recordFile, JSON.stringify(record));
  const keyFile = path.join(dir, "public.pem");
  await writeFile(
    keyFile,
    await (await page.request.get("/api/signing-key", { headers: bearer })).text(),
  );
  const { stdout } = await run(
    process.execPath,
    ["bin/relay-review.mjs", "verify-record", recordFile, "--public-key", keyFile],
    { timeout: 60_000 },
  );
  expect(stdout).toContain(`ACCEPTS RISK: ${count} open findings, until ${until}T23:59:59.000Z`);
  expect(stdout).toMatch(/critical fnd-[0-9a-f]{24} path\.to_sensitive_sink: Text written into/);
  expect(stdout).toContain("owner Head of Platform");
});
