// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

test("[history]: every save is listed with who and when, and any two revisions are compared item by item", async ({
  page,
  context,
}) => {
  await signIn(context);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const created = await createDemoReview(page.request);
  const saved = await page.request.put(`/api/reviews/${created.id}`, {
    headers: bearer,
    data: {
      baseRevision: created.revision,
      review: { ...created.review, title: "renamed for history" },
    },
  });
  expect(saved.status()).toBe(200);

  const renamed = (await saved.json()) as { revision: number };
  const agentRenamed = await page.request.put(`/api/reviews/${created.id}`, {
    headers: bearer,
    data: {
      baseRevision: renamed.revision,
      review: {
        ...created.review,
        title: "renamed for history",
        agents: (created.review.agents as { id: string; name: string }[]).map((a) =>
          a.id === "on-call" ? { ...a, name: "on-call (renamed)" } : a,
        ),
      },
    },
  });
  expect(agentRenamed.status()).toBe(200);

  await page.goto(`/reviews/${created.id}?section=history`);
  await expect(page.getByTestId("revision-1")).toBeVisible();
  // Each revision says in one line what it changed, with names.
  await expect(page.getByTestId("revision-1-change")).toHaveText("created the review");
  await expect(page.getByTestId("revision-2-change")).toHaveText(
    "retitled the review renamed for history",
  );
  await expect(page.getByTestId("revision-3-change")).toHaveText(
    "renamed agent on-call agent to on-call (renamed)",
  );
  await page.getByLabel("Compare revision").selectOption("1");
  await page.getByLabel("with revision").selectOption("2");
  // What changed, item by item; Monaco is not loaded until an item is opened.
  const changes = page.getByTestId("revision-changes");
  await expect(page.getByTestId("revision-summary")).toContainText("review: 1 changed");
  const item = changes.locator('[data-change-key="review"]');
  await expect(item).toContainText("title");
  await expect(page.locator(".monaco-diff-editor")).toHaveCount(0);
  await item.getByRole("button", { name: /Show difference in/ }).click();
  const diff = item.getByTestId("revision-diff");
  // Monaco's first load in a fresh browser context parses a few MB of script: 5 s alone, and once
  // over 20 s on a CI machine running other work, so this one wait has the test's whole budget.
  await expect(diff.locator(".monaco-diff-editor")).toBeVisible({ timeout: 45_000 });
  // The changed title is on the modified side of the item's diff.
  await expect(diff.locator(".editor.modified")).toContainText("renamed for history");
  await item.getByRole("button", { name: /Hide difference in/ }).click();
  await expect(page.locator(".monaco-diff-editor")).toHaveCount(0);
  await page.getByLabel("Compare revision").selectOption("2");
  await expect(changes).toContainText("nothing to compare");
  expect(errors).toEqual([]);
});
