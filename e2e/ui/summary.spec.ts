/**
 * The state of a review at a glance (issue 29, item 5), in Chromium: a review opens on its Summary
 * tab, which shows the on-call agent's open critical paths and an approval that accepts them as
 * accepting critical risk, never as plain green; the reviews list shows the same as columns, sorts
 * on them and filters to the reviews that accept critical risk. axe finds no serious or critical
 * violation on either.
 */
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, expectNoSeriousViolations, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

/** The demo review with an approval of knowledge-mcp into on-call that accepts its critical and high findings. */
async function acceptedReview(page: Page, title: string): Promise<string> {
  const { id } = await createDemoReview(page.request);
  const retitled = await page.request.get(`/api/reviews/${id}`, { headers: bearer });
  const record = (await retitled.json()) as { revision: number; review: Record<string, unknown> };
  const put = await page.request.put(`/api/reviews/${id}`, {
    headers: bearer,
    data: { baseRevision: record.revision, review: { ...record.review, title } },
  });
  expect(put.status(), await put.text()).toBe(200);
  const listed = await page.request.get(
    `/api/reviews/${id}/decisions?serverId=knowledge-mcp&agentId=on-call`,
    { headers: bearer },
  );
  const { findings, revision } = (await listed.json()) as {
    revision: number;
    findings: { id: string; severity: string }[];
  };
  const decided = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: {
      baseRevision: revision,
      serverId: "knowledge-mcp",
      agentId: "on-call",
      verdict: "approved",
      reviewer: "A. Author",
      rationale: "Accepted for the incident window.",
      acceptances: findings
        .filter((f) => f.severity === "critical" || f.severity === "high")
        .map((f) => ({ findingId: f.id, owner: "Risk Owner", why: "incident window" })),
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  return id;
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[summary]: a review opens on Summary: open paths by severity, the trifecta, pins and what a decision accepts", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = await acceptedReview(page, "Summary: on-call accepts critical");
  await page.goto(`/reviews/${id}`);
  await expect(page.getByRole("link", { name: "Summary" })).toHaveAttribute("aria-current", "page");
  const onCall = page.getByTestId("summary-agent-on-call");
  await expect(onCall.getByTestId("summary-paths")).toContainText("critical");
  await expect(onCall.getByTestId("summary-trifecta")).toContainText("Untrusted input");
  await expect(onCall.getByTestId("summary-rule-of-two")).toContainText("of 4 properties held");
  await expect(page.getByTestId("summary-server-knowledge-mcp")).toContainText("unpinned");
  const decision = page.getByRole("table", { name: "Decisions" }).getByRole("row").nth(1);
  await expect(decision).toContainText("Approved: knowledge-mcp into");
  await expect(decision).toContainText("current");
  await expect(decision).toContainText("critical");
  await expect(decision).toContainText("owner Risk Owner");
  await expectNoSeriousViolations(page, "summary tab");
});

test("[summary]: the reviews list shows state, open paths and accepted risk as columns, sorts and filters on them", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const accepted = await acceptedReview(page, "List: accepts critical");
  const plain = (await createDemoReview(page.request)).id;
  await page.goto("/");
  const row = (id: string) => page.getByTestId(`review-row-${id}`);
  await expect(row(accepted)).toContainText("accepts critical risk");
  await expect(row(accepted)).toContainText("Approved");
  await expect(row(accepted).getByTestId("review-state")).toHaveText("current");
  await expect(row(plain)).not.toContainText("accepts critical risk");
  await expect(row(plain).getByTestId("review-open-paths")).not.toHaveText("0 / 0");

  // Sorting by a column says so to assistive technology.
  await page.getByRole("button", { name: "Stale" }).click();
  await expect(page.getByRole("columnheader", { name: "Stale" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );

  await page.getByRole("checkbox", { name: "Accepts critical risk" }).check();
  await expect(row(accepted)).toBeVisible();
  await expect(row(plain)).toHaveCount(0);
  await page.getByRole("checkbox", { name: "Accepts critical risk" }).uncheck();
  await expect(row(plain)).toBeVisible();
  await expectNoSeriousViolations(page, "reviews list");
});
