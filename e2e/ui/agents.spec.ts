import { expect, test } from "@playwright/test";
import { bearer, signIn } from "../support/auth";

const review = {
  schemaVersion: 2,
  title: "share_file review",
  servers: [
    { id: "files", name: "files-mcp", transport: { kind: "manual" }, declaredTools: [{ name: "share_file", description: "Share a file with an external address." }] },
    { id: "tickets", name: "tickets-mcp", transport: { kind: "manual" }, declaredTools: [{ name: "search_tickets", description: "Search tickets.", annotations: { readOnlyHint: true } }] },
  ],
  sources: [{ id: "portal", name: "Support portal", writers: { externalAccounts: 100, selfServiceSignupOpen: true } }],
  agents: [{ id: "helper", name: "helper agent", tools: [{ serverId: "tickets", tool: "search_tickets" }] }],
};

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[agents]: a suggested role is marked unconfirmed until the reviewer confirms it, and the union property makes a path", async ({ page }) => {
  const res = await page.request.post("/api/reviews", { headers: bearer, data: { review } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=agents`);

  const shareRow = page.getByTestId("tool-roles-files/share_file");
  await expect(shareRow).toContainText("suggestion, unconfirmed");
  // Absent hints are the spec's defaults, not "safe".
  await expect(shareRow).toContainText("destructiveHint=true (default)");

  // Map search_tickets to the portal and confirm it returns text from there.
  const searchRow = page.getByTestId("tool-roles-tickets/search_tickets");
  await searchRow.getByLabel("returns text from sources").check();
  await searchRow.getByLabel("Support portal").check();
  await searchRow.getByRole("button", { name: "Confirm roles of search_tickets" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  await expect(page.getByTestId("tool-roles-tickets/search_tickets")).toContainText("confirmed");

  // Put share_file into the same agent: text from the portal can now reach it.
  // The checkbox reflects the saved review, so it turns checked once the save lands.
  const holdsShare = page.getByTestId("agent-helper").getByLabel("share_file");
  await holdsShare.click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await expect(holdsShare).toBeChecked();
  const analysis = (await (await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })).json()) as {
    paths: { listed: { sink: string; reliesOnSuggestions: boolean }[] };
  };
  const toShare = analysis.paths.listed.filter((p) => p.sink === "files/share_file");
  expect(toShare.length).toBeGreaterThan(0);
  expect(toShare.every((p) => p.reliesOnSuggestions)).toBe(true);

  // Confirm share_file's roles: the path no longer relies on a suggestion.
  const row = page.getByTestId("tool-roles-files/share_file");
  await row.getByRole("button", { name: "Confirm roles of share_file" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  const after = (await (await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })).json()) as typeof analysis;
  expect(after.paths.listed.filter((p) => p.sink === "files/share_file").every((p) => !p.reliesOnSuggestions)).toBe(true);
});
