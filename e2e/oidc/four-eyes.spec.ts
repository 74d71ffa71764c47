/**
 * Named reviewers and four eyes in Chromium against a real OpenID provider on loopback (issue 29
 * items 2-3): reviewer Alice signs in through the provider and proposes approving knowledge-mcp
 * into the on-call agent accepting its critical paths; the proposal is pending, and Alice cannot
 * approve it; approver Bob signs in in another browser and approves it; the signed record names
 * Alice and Bob, lists the accepted findings and verifies with `relay-review verify-record`.
 * No request leaves 127.0.0.1.
 */
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type Browser, type Page } from "@playwright/test";

const run = promisify(execFile);
const bearer = { Authorization: "Bearer e2e-oidc-owner-token-0123456789abcdef0123456789" };

async function signedIn(browser: Browser, user: string, foreign: string[]): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on("request", (r) => {
    if (new URL(r.url()).hostname !== "127.0.0.1") foreign.push(r.url());
  });
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByTestId("oidc-sign-in").click();
  await page.getByLabel("User").fill(user);
  await page.getByLabel("Password").fill(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/sign-in|interaction|callback/);
  return page;
}

test("[four eyes]: reviewer A proposes, cannot approve; approver B approves; the record names both and verifies", async ({
  browser,
  request,
}) => {
  const foreign: string[] = [];
  const created = await request.post("/api/reviews", { data: { demo: true }, headers: bearer });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  const alice = await signedIn(browser, "alice", foreign);
  await alice.goto(`/reviews/${id}?section=decision`);
  const form = alice.getByRole("form", { name: "Decide" });
  await form.getByLabel("Server").selectOption("knowledge-mcp");
  await form.getByLabel("Into agent").selectOption("on-call");
  await form.getByLabel("Approved", { exact: true }).check();
  // A signed-in person is named by the provider: no Reviewer field to type in.
  await expect(form.getByLabel("Reviewer")).toBeHidden();
  const findings = form.getByTestId("decide-findings");
  await expect(findings.getByTestId("findings-critical")).toContainText("trigger_deploy");
  const rows = findings.locator("[data-finding-id]").filter({ has: alice.getByRole("checkbox") });
  const count = await rows.count();
  expect(count).toBeGreaterThan(1);
  for (let i = 0; i < count; i++) {
    const row = rows.nth(i);
    await row.getByRole("checkbox").check();
    await row.getByLabel("Risk owner").fill("Head of Platform");
    await row.getByLabel("Why it is accepted").fill("Deploys are rare and watched");
  }
  await form.getByLabel("Rationale").fill("The on-call agent needs the knowledge base.");
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(form.getByTestId("decide-message")).toContainText("saved as revision 2");

  const card = alice.locator("[data-decision-id]");
  await expect(card.getByTestId("decision-status")).toHaveAttribute("data-state", "pending");
  await expect(card.getByTestId("decision-pending")).toContainText("PENDING");
  await expect(card.getByTestId("decision-author")).toContainText("proposed by Alice Reviewer");
  await card.getByTestId("approve-proposal").click();
  await expect(card).toContainText("this needs the approver role; you are reviewer");
  await expect(card.getByTestId("decision-status")).toHaveAttribute("data-state", "pending");

  const bob = await signedIn(browser, "bob", foreign);
  await bob.goto(`/reviews/${id}?section=decision`);
  const bobCard = bob.locator("[data-decision-id]");
  await bobCard.getByTestId("approve-proposal").click();
  await expect(bobCard.getByTestId("decision-status")).toHaveAttribute(
    "data-state",
    "current-accepting-risk",
  );
  await expect(bobCard.getByTestId("decision-approvals")).toContainText("Approved by Bob Approver");

  const did = await bobCard.getAttribute("data-decision-id");
  const recordRes = await request.get(`/api/reviews/${id}/decisions/${did}/record`, {
    headers: bearer,
  });
  expect(recordRes.status(), await recordRes.text()).toBe(200);
  const record = (await recordRes.json()) as {
    recordVersion: number;
    decision: {
      author: { name: string; subject: string };
      approvals: { name: string; subject: string }[];
      acceptedRisks: { severity: string }[];
    };
  };
  expect(record.recordVersion).toBe(3);
  expect(record.decision.author).toMatchObject({ name: "Alice Reviewer", subject: "alice" });
  expect(record.decision.approvals).toEqual([
    expect.objectContaining({ name: "Bob Approver", subject: "bob" }),
  ]);
  expect(record.decision.acceptedRisks).toHaveLength(count);
  expect(record.decision.acceptedRisks.some((a) => a.severity === "critical")).toBe(true);
  const dir = await mkdtemp(path.join(os.tmpdir(), "rr-four-eyes-"));
  const recordFile = path.join(dir, "record.json");
  await writeFile(recordFile, JSON.stringify(record));
  const keyFile = path.join(dir, "public.pem");
  await writeFile(
    keyFile,
    await (await request.get("/api/signing-key", { headers: bearer })).text(),
  );
  const { stdout } = await run(
    process.execPath,
    ["bin/relay-review.mjs", "verify-record", recordFile, "--public-key", keyFile],
    { timeout: 60_000 },
  );
  expect(stdout).toMatch(/^valid: signed by key/);
  expect(stdout).toContain("decided by Alice Reviewer");
  expect(stdout).toContain("approved by Bob Approver");
  expect(stdout).toContain(`ACCEPTS RISK: ${count} open findings`);
  expect(foreign).toEqual([]);
});

test("[people]: an admin assigns a role on the People page; a viewer cannot open it; the change is logged and the audit chain verifies", async ({
  browser,
}) => {
  const foreign: string[] = [];
  const carol = await signedIn(browser, "carol", foreign);
  await expect(carol.getByTestId("signed-in-as")).toHaveText("Carol Viewer · viewer");
  await expect(carol.getByRole("navigation", { name: "Main" })).not.toContainText("People");
  const refused = await carol.goto("/people");
  expect(refused?.status()).toBe(403);

  const dana = await signedIn(browser, "dana", foreign);
  await expect(dana.getByTestId("signed-in-as")).toHaveText("Dana Admin · admin");
  await dana
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "People" })
    .click();
  await expect(dana).toHaveURL(/\/people$/);
  const row = dana.getByRole("row").filter({ hasText: "Carol Viewer" });
  await expect(row.getByTestId("person-role")).toHaveText("viewer");
  await row.getByLabel("Assigned role of Carol Viewer").selectOption("reviewer");
  await expect(row.getByRole("status")).toHaveText("saved: holds reviewer");
  await expect(row.getByTestId("person-role")).toHaveText("reviewer");

  // The role is read at each request, so Carol holds it at once, without signing in again.
  await carol.goto("/");
  await expect(carol.getByTestId("signed-in-as")).toHaveText("Carol Viewer · reviewer");

  await dana.goto("/changes?group=audit");
  await expect(dana.getByText("Carol Viewer assigned reviewer")).toBeVisible();
  const chain = dana.getByTestId("audit-chain");
  await chain.getByRole("button", { name: "Verify the chain" }).click();
  await expect(chain.getByRole("status")).toContainText("Intact:");
  expect(foreign).toEqual([]);
});
