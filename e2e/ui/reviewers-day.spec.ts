/**
 * A reviewer's day on the real GitHub server (@modelcontextprotocol/server-github 2025.4.8, 26
 * tools, no annotations), run from its allowlisted launcher: sandboxed, with no network, and a
 * placeholder token from the secret store. Register from the picker, inspect, map two sources in
 * bulk, build the coding assistant, split it with names, decide with every sink kept out, share.
 * Every UI action goes through a counter (issue 32: about 153 actions and 45 revisions before);
 * the day must take at most 40 actions and 10 revisions.
 */
import type { Locator, Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { getReview } from "../support/surface";

const MAX_ACTIONS = 40;
const MAX_REVISIONS = 10;

/** Clicks, fills, selections and key presses, each counted once: what the reviewer does by hand. */
class Counted {
  actions: string[] = [];
  constructor(readonly page: Page) {}
  private note(what: string) {
    this.actions.push(what);
  }
  async click(l: Locator, what: string) {
    this.note(`click ${what}`);
    await l.click();
  }
  async fill(l: Locator, value: string, what: string) {
    this.note(`fill ${what}`);
    await l.fill(value);
  }
  async select(l: Locator, option: string | { label: string }, what: string) {
    this.note(`select ${what}`);
    await l.selectOption(option);
  }
  async press(l: Locator, key: string, what: string) {
    this.note(`press ${key} on ${what}`);
    await l.press(key);
  }
  async tab(name: string) {
    await this.click(
      this.page.getByRole("navigation", { name: "Review sections" }).getByRole("link", { name }),
      `tab ${name}`,
    );
  }
}

test("[day]: the GitHub review in a coding assistant takes at most 40 actions and 10 revisions", async ({
  page,
  context,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  await signIn(context);
  // Seeded through the API, as every spec's state is: a placeholder token in the secret store
  // (the server never reaches GitHub: its sandbox has no network) and the review with the two
  // sources a reviewer enters first.
  const secret = await page.request.put("/api/secrets/GITHUB_PERSONAL_ACCESS_TOKEN", {
    headers: bearer,
    data: { value: "ghp_placeholder000000000000000000000000000" },
  });
  expect(secret.status(), await secret.text()).toBeLessThan(300);
  const created = await page.request.post("/api/reviews", {
    headers: bearer,
    data: {
      review: {
        schemaVersion: 2,
        title: "GitHub in the coding assistant",
        sources: [
          {
            id: "public-issues",
            name: "Public issues and pull requests",
            writers: { selfServiceSignupOpen: true },
            confidentiality: "public",
          },
          {
            id: "private-repos",
            name: "Private repositories",
            writers: { internalAccounts: 40 },
            confidentiality: "confidential",
          },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const ui = new Counted(page);
  const status = page.getByTestId("save-status");

  // Register from the allowlist's picker: command, args and env names come with it.
  await page.goto(`/reviews/${id}?section=servers`);
  await ui.click(page.getByRole("button", { name: "Register server" }), "Register server");
  const form = page.getByRole("form", { name: "Register a relay server" });
  await ui.select(
    form.getByLabel("Launcher from the allowlist"),
    { label: "@modelcontextprotocol/server-github 2025.4.8 (stdio, no network)" },
    "launcher",
  );
  await expect(form.getByTestId("launcher-picked")).toContainText(
    "receives GITHUB_PERSONAL_ACCESS_TOKEN from the secret store; network: none (offline)",
  );
  await ui.click(form.getByRole("button", { name: "Register server" }), "Register");
  await expect(status).toContainText("Saved as revision 2");

  // Inspect: the live surface, 26 tools.
  await ui.click(page.getByRole("button", { name: "Inspect server-github" }), "Inspect");
  const panel = page.getByTestId(/^surface-srv-/);
  await expect(panel.getByRole("list", { name: "tools" }).getByRole("listitem")).toHaveCount(26, {
    timeout: 120_000,
  });

  // The coding assistant holds the whole server.
  await ui.tab("Agents & tool sets");
  await ui.fill(page.getByLabel("New agent"), "coding assistant", "agent name");
  await ui.click(page.getByRole("button", { name: "Add agent" }), "Add agent");
  await ui.click(
    page.getByRole("button", { name: /^Hold all 26 tools of server-github in coding assistant/ }),
    "Hold all 26",
  );
  await expect(page.getByText("26 tools in the session")).toBeVisible();

  // Map two sources in bulk: the tools suggested to return outside text, selected at once.
  await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
  await ui.select(
    page.getByLabel("Suggested role", { exact: true }),
    { label: "returns text from sources" },
    "filter by suggested role",
  );
  const bulk = page.getByTestId("tool-roles-bulk");
  await ui.click(
    bulk.getByRole("checkbox", { name: /^Select all \d+ matching tools/ }),
    "select all",
  );
  for (const source of ["Public issues and pull requests", "Private repositories"]) {
    await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
    await ui.select(bulk.getByLabel("Source", { exact: true }), { label: source }, "source");
    await ui.click(bulk.getByRole("button", { name: /^Map \d+ selected to this source/ }), "Map");
    await expect(status).toContainText("Saved as revision");
  }

  // Split with names, from the graph's agent sessions.
  await ui.tab("Graph");
  await ui.click(
    page.getByRole("button", { name: /^Split coding assistant into a reference agent/ }),
    "Split",
  );
  await ui.fill(page.getByLabel("Reference agent's name"), "coding assistant (read)", "name");
  await ui.fill(
    page.getByLabel(/^(Deploy|Actions) agent's name$/),
    "coding assistant (write)",
    "name",
  );
  await ui.click(page.getByRole("button", { name: "Apply the split" }), "Apply the split");
  await expect(page.getByTestId("split-message")).toContainText(
    "into coding assistant (read) and coding assistant (write)",
  );

  // Decide: the read half goes in, with every sink kept out as one action.
  const split = (await getReview(page.request, id)) as unknown as {
    review: { agents: { id: string; name: string }[] };
  }; // the stored review as the API returns it; only the agents are read
  const read = split.review.agents.find((a) => a.name === "coding assistant (read)");
  expect(read).toBeDefined();
  await ui.tab("Decision");
  const decide = page.getByRole("form", { name: "Decide" });
  await ui.select(decide.getByLabel("Into agent"), read!.id, "agent");
  await ui.click(decide.getByTestId("keep-every-sink-out"), "Keep every sink out");
  await ui.fill(decide.getByLabel("Reviewer"), "R. Reviewer", "reviewer");
  await ui.fill(
    decide.getByLabel("Rationale"),
    "The read half holds no sink; the write half is invoked by a person.",
    "rationale",
  );
  await ui.click(decide.getByRole("button", { name: "Record decision" }), "Record decision");
  await expect(decide.getByTestId("decide-message")).toContainText("Decided; saved as revision");

  // Share a read-only link.
  const share = page.getByRole("form", { name: "Create a share link" });
  await ui.click(share.getByRole("button", { name: "Create link" }), "Create link");
  const url = await page.getByTestId("share-link-url").inputValue();
  const guest = await browser.newContext({ baseURL });
  try {
    const res = await (await guest.newPage()).goto(new URL(url).pathname);
    expect(res?.status()).toBe(200);
  } finally {
    await guest.close();
  }

  const final = await getReview(page.request, id);
  test.info().annotations.push({
    type: "day",
    description: `${ui.actions.length} actions, ${final.revision} revisions`,
  });
  console.log(`[day] ${ui.actions.length} actions, ${final.revision} revisions:`, ui.actions);
  expect(ui.actions.length).toBeLessThanOrEqual(MAX_ACTIONS);
  expect(final.revision).toBeLessThanOrEqual(MAX_REVISIONS);
});
