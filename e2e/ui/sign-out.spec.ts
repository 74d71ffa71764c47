/**
 * The header's sign-out buttons: "Sign out" ends this browser's session only; "Sign out
 * everywhere" asks first, then ends every browser's session (the other one included), and the
 * page lands on the sign-in page. A share-link reader sees neither button.
 */
import type { BrowserContext } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { CreateShareLinkResponseSchema } from "../../lib/decisions/api";
import { OWNER_TOKEN, sessionHeaders, signIn } from "../support/auth";

const signedIn = async (context: BrowserContext) =>
  (await context.request.get("/api/reviews", { headers: sessionHeaders(context) })).status() ===
  200;

test("sign out everywhere asks first, then signs out this browser and every other one", async ({
  browser,
  baseURL,
}) => {
  const mine = await browser.newContext({ baseURL });
  const other = await browser.newContext({ baseURL });
  try {
    await signIn(mine);
    await signIn(other);
    const page = await mine.newPage();
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Reviews", level: 1 })).toBeVisible();

    // Cancel leaves everyone signed in.
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    expect(await signedIn(mine)).toBe(true);
    expect(await signedIn(other)).toBe(true);

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await dialog.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    expect(await signedIn(mine)).toBe(false);
    expect(await signedIn(other)).toBe(false);
    // The other browser's page, reloaded, is sent to sign in.
    const otherPage = await other.newPage();
    await otherPage.goto("/secrets");
    await expect(otherPage).toHaveURL(/\/sign-in\?next=%2Fsecrets/);
    await expect(otherPage.getByRole("button", { name: "Sign out everywhere" })).toHaveCount(0);
  } finally {
    await mine.close();
    await other.close();
  }
});

test("sign out ends this browser's session only", async ({ browser, baseURL }) => {
  const mine = await browser.newContext({ baseURL });
  const other = await browser.newContext({ baseURL });
  try {
    await signIn(mine);
    await signIn(other);
    const page = await mine.newPage();
    await page.goto("/");
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL((u) => u.pathname === "/sign-in");
    expect(await signedIn(mine)).toBe(false);
    expect(await signedIn(other)).toBe(true);
  } finally {
    await mine.close();
    await other.close();
  }
});

test("a share-link reader sees no sign-out button", async ({ browser, baseURL, request }) => {
  const auth = { Authorization: `Bearer ${OWNER_TOKEN}` };
  const created = await request.post("/api/reviews", { data: { demo: true }, headers: auth });
  const { id } = (await created.json()) as { id: string };
  const link = await request.post(`/api/reviews/${id}/share-links`, {
    data: { frozen: false },
    headers: auth,
  });
  expect(link.status(), await link.text()).toBe(201);
  const { path } = CreateShareLinkResponseSchema.parse(await link.json());
  const reader = await browser.newContext({ baseURL });
  try {
    const page = await reader.newPage();
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Sign out/ })).toHaveCount(0);
  } finally {
    await reader.close();
  }
});
