// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { OWNER_TOKEN, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";

const bearer = { Authorization: `Bearer ${OWNER_TOKEN}` };

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[reviews]: the review list opens the demo review and deletes only after confirmation", async ({
  page,
}) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Reviews", level: 1 })).toBeVisible();
  const row = page.getByRole("row").filter({ has: page.locator(`a[href="/reviews/${id}"]`) });
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: /^Delete / }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this review?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);

  await row.getByRole("button", { name: /^Delete / }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete review" }).click();
  await expect(row).toHaveCount(0);
  expect((await page.request.get(`/api/reviews/${id}`, { headers: bearer })).status()).toBe(404);
});

test("[sources]: the demo's writer bounds follow the seed", async ({ page }) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=sources`);
  const portal = page.getByTestId("bound-support-portal");
  await expect(portal).toContainText("everyone with an email address");
  await expect(portal).toContainText("31,400 registered accounts: a floor, not a measurement");
  await expect(portal).toContainText(
    "Usage fact, not part of the bound: 2,100 of 31,400 external accounts wrote in the last year",
  );
  await expect(portal).toContainText("an attack needs 1 account");
  await expect(page.getByTestId("bound-tracker-internal")).toContainText("412 accounts");
  await expect(page.getByTestId("bound-wiki")).toContainText("internal writers only");
});

test("[sources]: add, edit and remove a source, each saved as a new revision", async ({ page }) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=sources`);

  await page.getByRole("button", { name: "Add source" }).first().click();
  const form = page.getByRole("form", { name: "Add a source" });
  await form.getByLabel("Name").fill("Mail: shared inbox");
  await form.getByLabel("Kind").selectOption("mail");
  await form.getByLabel("Confidentiality").selectOption("confidential");
  await form.getByLabel("Registered external accounts").fill("5000");
  await form.getByRole("button", { name: "Add source" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  const row = page.getByRole("row").filter({ hasText: "Mail: shared inbox" });
  await expect(row).toContainText("5,000 accounts");
  await expect(row).toContainText("Mail · Confidential");
  const saved = (await (
    await page.request.get(`/api/reviews/${id}`, { headers: bearer })
  ).json()) as { review: { sources: { name: string; confidentiality: string }[] } };
  expect(saved.review.sources.find((s) => s.name === "Mail: shared inbox")?.confidentiality).toBe(
    "confidential",
  );

  await row.getByRole("button", { name: "Edit Mail: shared inbox" }).click();
  const edit = page.getByRole("form", { name: "Edit Mail: shared inbox" });
  await edit.getByLabel("The server fetches linked external pages into its results").check();
  await edit.getByRole("button", { name: "Save source" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await expect(page.getByRole("row").filter({ hasText: "Mail: shared inbox" })).toContainText(
    "anyone with a web server",
  );

  await page.getByRole("button", { name: "Remove Mail: shared inbox" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove source" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  await expect(page.getByRole("row").filter({ hasText: "Mail: shared inbox" })).toHaveCount(0);

  const revisions = await page.request.get(`/api/reviews/${id}/revisions`, { headers: bearer });
  expect(((await revisions.json()) as { revisions: unknown[] }).revisions).toHaveLength(4);
});

test("[sources]: invalid counts are refused in the form, naming the field", async ({ page }) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=sources`);
  await page.getByRole("button", { name: "Add source" }).first().click();
  const form = page.getByRole("form", { name: "Add a source" });
  await form.getByLabel("Name").fill("Bad");
  await form.getByLabel("Internal accounts with write access").fill("3");
  await form.getByLabel("… of whom contractors").fill("5");
  await form.getByRole("button", { name: "Add source" }).click();
  await expect(form.getByRole("alert")).toContainText("cannot exceed");
  await expect(page.getByTestId("save-status")).not.toContainText("Saved");
});

test("[sources]: a save in between shows a conflict and overwrites nothing", async ({ page }) => {
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=sources`);
  await expect(page.getByTestId("bound-support-portal")).toBeVisible();

  // Someone else saves revision 2 behind the page's back.
  const current = (await (
    await page.request.get(`/api/reviews/${id}`, { headers: bearer })
  ).json()) as {
    revision: number;
    review: { title: string };
  };
  const other = await page.request.put(`/api/reviews/${id}`, {
    headers: bearer,
    data: {
      baseRevision: current.revision,
      review: { ...current.review, title: "renamed elsewhere" },
    },
  });
  expect(other.status()).toBe(200);

  await page.getByRole("button", { name: "Remove Wiki: internal spaces" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove source" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Not saved: conflict");
  await expect(
    page.getByRole("alert").filter({ hasText: "Someone saved revision 2" }),
  ).toBeVisible();

  const after = (await (
    await page.request.get(`/api/reviews/${id}`, { headers: bearer })
  ).json()) as {
    revision: number;
    review: { title: string; sources: { id: string }[] };
  };
  expect(after.revision).toBe(2);
  expect(after.review.title).toBe("renamed elsewhere");
  expect(after.review.sources.map((s) => s.id)).toContain("wiki");

  await page.getByRole("button", { name: "Load revision 2 and drop my change" }).click();
  await expect(page.getByRole("heading", { name: "renamed elsewhere" })).toBeVisible();
});
