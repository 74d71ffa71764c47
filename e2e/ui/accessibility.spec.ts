/**
 * axe-core on every page a reviewer or a share-link reader works in: each section of the review
 * page, the review list and the share view. The workflow must work from the keyboard and a screen
 * reader, so any serious or critical violation fails, listed with the rule, its help and the
 * elements it found. axe runs inside the page from the copy bundled in @axe-core/playwright: no
 * network.
 */
import { expect, test, type Page } from "@playwright/test";
import { REVIEW_SECTIONS } from "../../components/review/sections";
import { CreateShareLinkResponseSchema } from "../../lib/decisions/api";
import { DEMO_REVIEW_TITLE } from "../../lib/review/demo";
import { expectNoSeriousViolations } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview, editReview } from "../support/surface";

/** The demo review with a second revision (History compares two) and a decision (Decision and the share view list one). */
async function seededReview(page: Page): Promise<string> {
  const { id } = await createDemoReview(page.request);
  await editReview(page.request, id, (r) => void (r.summary = "Checked with axe."));
  const decided = await page.request.post(`/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: {
      baseRevision: 2,
      serverId: "knowledge-mcp",
      agentId: "on-call",
      verdict: "rejected",
      reviewer: "R. Reviewer",
      rationale: "The on-call agent also holds trigger_deploy.",
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  return id;
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[a11y]: the review list has no serious or critical axe violation", async ({ page }) => {
  await seededReview(page);
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: DEMO_REVIEW_TITLE }).first()).toBeVisible();
  await expectNoSeriousViolations(page, "review list");
});

for (const section of REVIEW_SECTIONS) {
  test(`[a11y]: the review section ${section.id} has no serious or critical axe violation`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const id = await seededReview(page);
    await page.goto(`/reviews/${id}?section=${section.id}`);
    await expect(page.getByRole("link", { name: section.label })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.locator("main h2").first()).toBeVisible();
    if (section.id === "servers") {
      // An inspected surface: its item lists and detail are part of what a reviewer reads here.
      const panel = page.getByTestId("surface-knowledge-mcp");
      await panel.getByRole("button", { name: "Inspect knowledge-mcp" }).click();
      await expect(panel.getByRole("list", { name: "tools" }).getByRole("listitem")).toHaveCount(4);
    }
    if (section.id === "agents")
      await expect(page.getByRole("table", { name: "Tool roles and sources" })).toBeVisible();
    if (section.id === "graph") await expect(page.locator("svg").first()).toBeVisible();
    if (section.id === "history") {
      // The item list, and the one item's diff a reviewer opens (Monaco loads on demand).
      const changes = page.getByTestId("revision-changes");
      await changes
        .getByRole("button", { name: /Show difference in/ })
        .first()
        .click();
      // The modified side's own lines: once Monaco has computed the diff, a removed line also
      // shows there as a `.view-lines.line-delete` zone, which made this locator match two.
      await expect(
        changes
          .getByTestId("revision-diff")
          .locator(".modified-in-monaco-diff-editor .view-lines:not(.line-delete)"),
      ).toBeVisible();
    }
    await expectNoSeriousViolations(page, `review section ${section.id}`);
  });
}

test("[a11y]: the share view has no serious or critical axe violation", async ({
  browser,
  baseURL,
  page,
}) => {
  const id = await seededReview(page);
  const link = await page.request.post(`/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { path } = CreateShareLinkResponseSchema.parse(await link.json());
  const guest = await browser.newContext({ baseURL });
  try {
    const view = await guest.newPage();
    await view.goto(path);
    await expect(view.getByRole("heading", { level: 1 })).toBeVisible();
    await expectNoSeriousViolations(view, "share view");
  } finally {
    await guest.close();
  }
});
