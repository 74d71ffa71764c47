import { expect, test } from "@playwright/test";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

test("[history]: every save is listed with who and when, and any two revisions can be compared", async ({
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

  await page.goto(`/reviews/${created.id}?section=history`);
  await expect(page.getByTestId("revision-1")).toBeVisible();
  await expect(page.getByTestId("revision-2")).toContainText("renamed for history");
  const diff = page.getByTestId("revision-diff");
  await expect(diff.locator(".monaco-diff-editor")).toBeVisible();
  // The changed title is on the modified side of the diff.
  await expect(diff.locator(".editor.modified")).toContainText("renamed for history");
  await page.getByLabel("Compare revision").selectOption("2");
  await expect(diff.locator(".monaco-diff-editor")).toBeVisible();
  expect(errors).toEqual([]);
});
