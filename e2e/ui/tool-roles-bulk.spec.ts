/**
 * The review workflow on a server of 201 tools: the roles table selects a filter of tools and
 * confirms, sets or strikes roles on all of them in one revision; a row shows what was saved at once
 * and never snaps back to the old suggestion; an agent holds all, none or a filter of a server's
 * tools in one revision. Revision numbers are read back through the API.
 */
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { getReview } from "../support/surface";

const ROLE_LABEL = {
  returns_untrusted_text: "returns text from sources",
  reads_private_data: "reads private data",
  writes: "writes",
  deploys_or_destroys: "deploys or destroys",
  network_or_shares: "reaches the network or shares",
} as const;
type Role = keyof typeof ROLE_LABEL;
const ROLES = Object.keys(ROLE_LABEL) as Role[];

const KINDS = [
  {
    prefix: "get_issue",
    description: "Get one issue of a project.",
    annotations: { readOnlyHint: true },
  },
  {
    prefix: "list_projects",
    description: "List the projects of a group.",
    annotations: { readOnlyHint: true },
  },
  {
    prefix: "create_issue",
    description: "Create an issue in a project.",
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  {
    prefix: "delete_branch",
    description: "Delete a branch of a repository.",
    annotations: { readOnlyHint: false, destructiveHint: true },
  },
];
const TOOLS = [
  ...KINDS.flatMap((k) =>
    Array.from({ length: 50 }, (_, i) => ({
      name: `${k.prefix}_${i}`,
      description: k.description,
      annotations: k.annotations,
    })),
  ).map((t) =>
    // One tool whose annotation contradicts its name.
    t.name === "delete_branch_49" ? { ...t, annotations: { readOnlyHint: true } } : t,
  ),
  { name: "search_code", description: "Search code across projects." },
];

const review = {
  schemaVersion: 2,
  title: "201-tool server",
  servers: [
    { id: "gitlab", name: "gitlab-mcp", transport: { kind: "manual" }, declaredTools: TOOLS },
    {
      id: "chat",
      name: "chat-mcp",
      transport: { kind: "manual" },
      declaredTools: [{ name: "post_message", description: "Post a message to a channel." }],
    },
  ],
  sources: [
    {
      id: "issues",
      name: "Issue tracker",
      writers: { externalAccounts: 500, selfServiceSignupOpen: true },
    },
  ],
  agents: [
    { id: "triage", name: "triage agent", tools: [{ serverId: "chat", tool: "post_message" }] },
  ],
};

type AnalysisTool = {
  key: string;
  name: string;
  roles: Role[];
  rolesOrigin: string;
  suggestionConfidence: number;
};

async function create(page: Page): Promise<string> {
  const res = await page.request.post("/api/reviews", { headers: bearer, data: { review } });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function analysisTools(page: Page, id: string) {
  const res = await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { revision: number; tools: AnalysisTool[] };
  return { revision: body.revision, tools: new Map(body.tools.map((t) => [t.name, t])) };
}

/** A row's role checkboxes match `roles` exactly. */
async function expectRowRoles(page: Page, tool: string, roles: readonly Role[]) {
  const group = page
    .getByTestId(`tool-roles-gitlab/${tool}`)
    .getByRole("group", { name: `Roles of ${tool}` });
  for (const role of ROLES) {
    const box = group.getByRole("checkbox", { name: new RegExp(`^${ROLE_LABEL[role]}`) });
    if (roles.includes(role)) await expect(box, `${tool} ${role}`).toBeChecked();
    else await expect(box, `${tool} ${role}`).not.toBeChecked();
  }
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[roles-bulk]: on a 201-tool server one bulk confirm, one set and one strike are one revision each; rows show the saved roles at once, never snap back, and survive a reload", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const id = await create(page);
  const before = await analysisTools(page, id);
  expect(before.revision).toBe(1);
  await page.goto(`/reviews/${id}?section=agents`);
  const table = page.getByRole("table", { name: "Tool roles and sources" });
  await expect(table.locator("tbody tr")).toHaveCount(100);

  // Select the 50 get_issue tools by filter and confirm their suggestions: one revision.
  await page.getByLabel("Filter tools by server or name").fill("get_issue_");
  await expect(table.locator("tbody tr")).toHaveCount(50);
  await page.getByLabel("Select all 50 matching tools").check();
  await expect(page.getByTestId("tool-roles-bulk")).toContainText("50 selected");
  await page.getByRole("button", { name: "Confirm the suggestions of 50 selected" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  // The rows show what was saved without waiting for a reload, and keep it once the analysis catches up.
  const suggested = before.tools.get("get_issue_7")!.roles;
  await expect(
    page.getByTestId("tool-roles-gitlab/get_issue_7").getByTestId("roles-confirmed"),
  ).toBeVisible();
  await expectRowRoles(page, "get_issue_7", suggested);
  await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
  await expectRowRoles(page, "get_issue_7", suggested);
  await expect(page.getByRole("button", { name: "Confirm roles of get_issue_7" })).toBeDisabled();
  await expect(
    page.getByRole("button", { name: "Confirm the suggestions of 0 selected" }),
  ).toBeDisabled();

  let stored = await getReview(page.request, id);
  expect(stored.revision).toBe(2);
  const assessed = (
    stored.review as unknown as {
      tools: { tool: string; roles: Role[]; rolesConfirmed: boolean }[];
    }
  ).tools;
  expect(assessed).toHaveLength(50);
  for (const a of assessed) {
    expect(a.tool).toMatch(/^get_issue_\d+$/);
    expect(a.rolesConfirmed).toBe(true);
    expect(a.roles).toEqual(before.tools.get(a.tool)!.roles);
  }

  // Set a role on the same selection: one revision, every row shows it. The role is one that no
  // get_issue tool has yet (which roles are suggested is the suggestion rules' business).
  const issueTools = [...before.tools.values()].filter((t) => /^get_issue_\d+$/.test(t.name));
  const added = ROLES.find((r) => issueTools.every((t) => !t.roles.includes(r)))!;
  expect(added, "a role no get_issue tool has").toBeTruthy();
  await page
    .getByRole("group", { name: "Selected tools" })
    .getByLabel("Role", { exact: true })
    .selectOption({ label: ROLE_LABEL[added] });
  await page.getByRole("button", { name: "Set on 50 selected" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await expectRowRoles(page, "get_issue_7", [...new Set<Role>([...suggested, added])]);
  await expectRowRoles(page, "get_issue_49", [
    ...new Set<Role>([...before.tools.get("get_issue_49")!.roles, added]),
  ]);

  // Strike a role from the delete_branch tools, selected by another filter: one revision.
  await page.getByLabel("Filter tools by server or name").fill("delete_branch_");
  await page.getByLabel("Select all 50 matching tools").check();
  await expect(page.getByTestId("tool-roles-bulk")).toContainText("50 selected");
  await page
    .getByRole("group", { name: "Selected tools" })
    .getByLabel("Role", { exact: true })
    .selectOption({ label: ROLE_LABEL.deploys_or_destroys });
  await page.getByRole("button", { name: "Strike from 50 selected" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  const struck = before.tools
    .get("delete_branch_3")!
    .roles.filter((r) => r !== "deploys_or_destroys");
  await expectRowRoles(page, "delete_branch_3", struck);

  // One row edited by hand: the tick saves by itself and confirms the row, and the row keeps the
  // reviewer's choice after the save and the analysis refresh (it used to snap back to the
  // suggestion with Confirm enabled again).
  await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
  const row = page.getByTestId("tool-roles-gitlab/delete_branch_3");
  const chosen: Role[] = struck.includes("writes")
    ? struck.filter((r) => r !== "writes")
    : [...struck, "writes"];
  await row.getByRole("checkbox", { name: /^writes/ }).setChecked(chosen.includes("writes"));
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 5");
  await expectRowRoles(page, "delete_branch_3", chosen);
  await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
  await expectRowRoles(page, "delete_branch_3", chosen);
  await expect(
    row.getByRole("button", { name: "Confirm roles of delete_branch_3" }),
  ).toBeDisabled();
  stored = await getReview(page.request, id);
  expect(stored.revision).toBe(5);

  // Everything survives a reload, and the analysis agrees.
  await page.reload();
  await page.getByLabel("Filter tools by server or name").fill("_3");
  await expectRowRoles(page, "delete_branch_3", chosen);
  await expectRowRoles(page, "get_issue_3", [
    ...new Set<Role>([...before.tools.get("get_issue_3")!.roles, added]),
  ]);
  const after = await analysisTools(page, id);
  expect(after.revision).toBe(5);
  expect(after.tools.get("delete_branch_3")).toMatchObject({ rolesOrigin: "confirmed" });
  expect(new Set(after.tools.get("delete_branch_3")!.roles)).toEqual(new Set(chosen));
  expect(after.tools.get("create_issue_3")!.rolesOrigin).toBe("suggested");
});

test("[roles-bulk]: the roles table sorts and filters by suggested role and status; a row is locked while its analysis is older than the saved revision", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = await create(page);
  const before = await analysisTools(page, id);
  await page.goto(`/reviews/${id}?section=agents`);
  const table = page.getByRole("table", { name: "Tool roles and sources" });
  await expect(table.locator("tbody tr")).toHaveCount(100);

  // Filter by server, then by suggested role: the rows shown are exactly the tools suggested it.
  await page.getByLabel("Server", { exact: true }).selectOption({ label: "chat-mcp" });
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await page.getByLabel("Server", { exact: true }).selectOption({ label: "gitlab-mcp" });
  await page.getByLabel("Suggested role").selectOption({ label: ROLE_LABEL.deploys_or_destroys });
  const destroying = [...before.tools.values()].filter(
    (t) => t.key.startsWith("gitlab/") && t.roles.includes("deploys_or_destroys"),
  ).length;
  await expect(
    page.getByLabel(new RegExp(`^Select all ${destroying} matching tools$`)),
  ).toBeVisible();

  // By the name's verb, and by a claim that contradicts the name.
  await page.getByLabel("Suggested role").selectOption({ label: "any" });
  await page.getByLabel("Verb", { exact: true }).selectOption("delete");
  await expect(page.getByLabel("Select all 50 matching tools")).toBeVisible();
  await page.getByLabel("Verb", { exact: true }).selectOption("");
  await page.getByLabel("only claim-vs-name conflicts").check();
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(
    page.getByTestId("tool-roles-gitlab/delete_branch_49").getByTestId("role-conflict"),
  ).toContainText("readOnlyHint");

  // From the keyboard alone: select the filter's tools and confirm them.
  await page.getByLabel("Select all 1 matching tools").focus();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("tool-roles-bulk")).toContainText("1 selected");
  await page.getByRole("button", { name: "Confirm the suggestions of 1 selected" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  await expect(
    page.getByTestId("tool-roles-gitlab/delete_branch_49").getByTestId("roles-confirmed"),
  ).toBeVisible();

  // A confirmed tool leaves the "unconfirmed" filter.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Filter tools by server or name").fill("search_code");
  await page.getByRole("button", { name: "Confirm roles of search_code" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await page.getByLabel("Status", { exact: true }).selectOption({ label: "unconfirmed" });
  await expect(page.getByText("No tool matches “search_code”.")).toBeVisible();

  // Sorting by confidence: the least certain suggestion first, the confirmed tools last.
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page
    .getByLabel("Sort", { exact: true })
    .selectOption({ label: "by confidence, uncertain first" });
  await page.getByRole("button", { name: "Show all 202" }).click();
  const order = await table
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-testid")));
  expect(order.slice(-2).sort()).toEqual([
    "tool-roles-gitlab/delete_branch_49",
    "tool-roles-gitlab/search_code",
  ]);
  const least = Math.min(
    ...[...before.tools.values()]
      .filter((t) => t.name !== "delete_branch_49" && t.name !== "search_code")
      .map((t) => t.suggestionConfidence),
  );
  expect(before.tools.get(order[0]!.replace(/^tool-roles-[^/]+\//, ""))!.suggestionConfidence).toBe(
    least,
  );

  // Another editor saves a revision; until this page's analysis is of that revision, rows are locked.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  // The context's route: the page's fetch reaches the network through the session worker.
  await page.context().route(`**/api/reviews/${id}/analysis`, async (route) => {
    await held;
    await route.continue();
  });
  await page
    .getByTestId("agent-triage")
    .getByRole("button", { name: /^Hold all 201/ })
    .click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  await expect(page.getByTestId("tool-roles-updating")).toContainText("revision 4");
  await expect(page.getByRole("button", { name: "Confirm roles of get_issue_0" })).toBeDisabled();
  await expect(
    page.getByTestId("tool-roles-gitlab/get_issue_0").getByRole("checkbox", { name: /^writes/ }),
  ).toBeDisabled();
  await expect(
    page.getByRole("button", { name: "Confirm the suggestions of 0 selected" }),
  ).toBeDisabled();
  release();
  await expect(page.getByTestId("tool-roles-updating")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Confirm roles of get_issue_0" })).toBeEnabled();
  await expect(
    page.getByTestId("tool-roles-gitlab/get_issue_0").getByRole("checkbox", { name: /^writes/ }),
  ).toBeEnabled();
});

test("[roles-bulk]: an agent holds all, none, or a filter of a 201-tool server's tools, one revision per action", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const id = await create(page);
  await page.goto(`/reviews/${id}?section=agents`);
  const card = page.getByTestId("agent-triage");
  await expect(card).toContainText("0 of 201 tools held");

  await card
    .getByRole("button", { name: "Hold all 201 tools of gitlab-mcp in triage agent" })
    .click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  await expect(card).toContainText("201 of 201 tools held");
  let stored = (await getReview(page.request, id)) as unknown as {
    revision: number;
    review: { agents: { tools: { serverId: string; tool: string }[] }[] };
  };
  expect(stored.revision).toBe(2);
  expect(stored.review.agents[0]!.tools).toHaveLength(202); // 201 from gitlab and the chat tool it held

  // Drop a filter of them: one revision.
  await card.getByLabel("Filter the tools of gitlab-mcp in triage agent").fill("delete_branch");
  await expect(card.getByRole("checkbox")).toHaveCount(50 + 1); // the matching gitlab tools and chat's one
  await card
    .getByRole("button", { name: "Drop the 50 matching tools of gitlab-mcp in triage agent" })
    .click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 3");
  await expect(card).toContainText("151 of 201 tools held");
  stored = (await getReview(page.request, id)) as unknown as typeof stored;
  expect(stored.revision).toBe(3);
  expect(stored.review.agents[0]!.tools.some((t) => t.tool.startsWith("delete_branch"))).toBe(
    false,
  );
  expect(stored.review.agents[0]!.tools).toHaveLength(152);

  // None: one revision, and the other server's tool stays held.
  await card.getByLabel("Filter the tools of gitlab-mcp in triage agent").fill("");
  await card
    .getByRole("button", { name: "Hold none of the tools of gitlab-mcp in triage agent" })
    .click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 4");
  await page.reload();
  await expect(page.getByTestId("agent-triage")).toContainText("0 of 201 tools held");
  stored = (await getReview(page.request, id)) as unknown as typeof stored;
  expect(stored.revision).toBe(4);
  expect(stored.review.agents[0]!.tools).toEqual([{ serverId: "chat", tool: "post_message" }]);
});
