// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";

const review = {
  schemaVersion: 2,
  title: "share_file review",
  servers: [
    {
      id: "files",
      name: "files-mcp",
      transport: { kind: "manual" },
      declaredTools: [
        { name: "share_file", description: "Share a file with an external address." },
      ],
    },
    {
      id: "tickets",
      name: "tickets-mcp",
      transport: { kind: "manual" },
      declaredTools: [
        {
          name: "search_tickets",
          description: "Search tickets.",
          annotations: { readOnlyHint: true },
        },
      ],
    },
  ],
  sources: [
    {
      id: "portal",
      name: "Support portal",
      writers: { externalAccounts: 100, selfServiceSignupOpen: true },
    },
  ],
  agents: [
    {
      id: "helper",
      name: "helper agent",
      tools: [{ serverId: "tickets", tool: "search_tickets" }],
    },
  ],
};

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[agents]: a suggested role is marked unconfirmed until the reviewer confirms it, and the union property makes a path", async ({
  page,
}) => {
  const res = await page.request.post("/api/reviews", { headers: bearer, data: { review } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=agents`);

  const shareRow = page.getByTestId("tool-roles-files/share_file");
  await expect(shareRow).toContainText("suggestion, unconfirmed");
  // Absent hints are the spec's defaults, not "safe".
  await expect(shareRow).toContainText("destructiveHint=true (default)");

  // Map search_tickets to the portal: each tick saves, and the burst of two is one revision. Until
  // it lands the row and the header say it is unsaved.
  const searchRow = page.getByTestId("tool-roles-tickets/search_tickets");
  await searchRow.getByLabel("returns text from sources").check();
  await searchRow.getByLabel("Support portal").check();
  await expect(searchRow.getByTestId("roles-unsaved")).toBeVisible();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  await expect(searchRow.getByTestId("roles-unsaved")).toHaveCount(0);
  await expect(page.getByTestId("tool-roles-tickets/search_tickets")).toContainText("confirmed");

  // Put share_file into the same agent: text from the portal can now reach it.
  // The checkbox reflects the saved review, so it turns checked once the save lands.
  const holdsShare = page.getByTestId("agent-helper").getByLabel("share_file");
  await holdsShare.click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await expect(holdsShare).toBeChecked();
  const analysis = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as {
    paths: { listed: { sink: string; reliesOnSuggestions: boolean }[] };
  };
  const toShare = analysis.paths.listed.filter((p) => p.sink === "files/share_file");
  expect(toShare.length).toBeGreaterThan(0);
  expect(toShare.every((p) => p.reliesOnSuggestions)).toBe(true);

  // Confirm share_file's roles: the path no longer relies on a suggestion.
  const row = page.getByTestId("tool-roles-files/share_file");
  await row.getByRole("button", { name: "Confirm roles of share_file" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  const after = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as typeof analysis;
  expect(
    after.paths.listed
      .filter((p) => p.sink === "files/share_file")
      .every((p) => !p.reliesOnSuggestions),
  ).toBe(true);
});

test("[agents]: a large server stays workable: an agent card shows the tools it holds with a way to all of them, and the tool roles table is filtered and shown a page at a time", async ({
  page,
}) => {
  const tools = Array.from({ length: 150 }, (_, t) => ({
    name: `get_page_${t}`,
    description: `Get page ${t}.`,
    annotations: { readOnlyHint: true },
  }));
  const sources = Array.from({ length: 30 }, (_, i) => ({
    id: `space-${i}`,
    name: `Space ${i}`,
    writers: { internalAccounts: 10 + i },
  }));
  const big = {
    schemaVersion: 2,
    title: "large server",
    servers: [
      { id: "wiki", name: "wiki-mcp", transport: { kind: "manual" }, declaredTools: tools },
    ],
    sources,
    tools: [
      {
        serverId: "wiki",
        tool: "get_page_7",
        sourceIds: ["space-3"],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: true,
      },
    ],
    agents: [
      {
        id: "reader",
        name: "reader",
        tools: ["get_page_1", "get_page_7", "get_page_42"].map((tool) => ({
          serverId: "wiki",
          tool,
        })),
      },
    ],
  };
  const res = await page.request.post("/api/reviews", { headers: bearer, data: { review: big } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=agents`);

  const card = page.getByTestId("agent-reader");
  await expect(card).toContainText("3 of 150 tools held");
  await expect(card.getByRole("checkbox")).toHaveCount(3);
  await expect(card.getByLabel("get_page_42")).toBeChecked();
  await card.getByRole("button", { name: "Show all 150 tools" }).click();
  await expect(card.getByRole("checkbox")).toHaveCount(150);
  await expect(card.getByLabel("get_page_99")).not.toBeChecked();

  const table = page.getByRole("table", { name: "Tool roles and sources" });
  await expect(table.locator("tbody tr")).toHaveCount(100);
  await expect(page.getByText("100 of 150 tools shown.")).toBeVisible();
  await page.getByLabel("Filter tools by server or name").fill("get_page_7");
  await expect(table.locator("tbody tr")).toHaveCount(11); // get_page_7 and get_page_70 … get_page_79
  // A row lists the sources mapped to its tool, with a way to all of them.
  const row = page.getByTestId("tool-roles-wiki/get_page_7");
  await expect(
    row.getByRole("group", { name: "Sources whose text get_page_7 returns" }).getByRole("checkbox"),
  ).toHaveCount(1);
  await expect(row.getByRole("checkbox", { name: "Space 3", exact: true })).toBeChecked();
  await row.getByRole("button", { name: "Show all 30 sources" }).click();
  await expect(
    row.getByRole("group", { name: "Sources whose text get_page_7 returns" }).getByRole("checkbox"),
  ).toHaveCount(30);
  await page.getByLabel("Filter tools by server or name").fill("no such tool");
  await expect(page.getByText("No tool matches “no such tool”.")).toBeVisible();
});
