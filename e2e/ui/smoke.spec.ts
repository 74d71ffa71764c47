// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { OWNER_TOKEN, signIn } from "../support/auth";

const SECTIONS = ["servers", "sources", "agents", "controls", "graph", "decision"] as const;

test("[smoke]: every section of the demo review renders with no page error and no request off this machine", async ({
  page,
  context,
}) => {
  await signIn(context);
  const errors: string[] = [];
  const offHost: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (
      !["127.0.0.1", "localhost"].includes(url.hostname) &&
      url.protocol !== "data:" &&
      url.protocol !== "blob:"
    )
      offHost.push(r.url());
  });

  const created = await page.request.post("/api/reviews", {
    data: { demo: true },
    headers: { Authorization: `Bearer ${OWNER_TOKEN}` },
  });
  const { id } = (await created.json()) as { id: string };
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Reviews", level: 1 })).toBeVisible();
  for (const section of SECTIONS) {
    await page.goto(`/reviews/${id}?section=${section}`);
    await expect(
      page.getByRole("navigation", { name: "Review sections" }).locator('a[aria-current="page"]'),
    ).toBeVisible();
    await page.waitForLoadState("networkidle");
  }
  await page.screenshot({ path: "test-results/smoke-last-section.png" });
  expect(errors).toEqual([]);
  expect(offHost).toEqual([]);
});
