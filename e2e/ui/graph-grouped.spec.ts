/**
 * The graph of a GitHub-like server of 26 tools in one coding assistant (issue 32 item 4): sinks in
 * role groups with one approval pill each, labels cut at their end with the full name on hover and
 * in the accessible name, the box's overflow said by a visible cue, paths grouped by source × sink.
 */
import AxeBuilder from "@axe-core/playwright";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";

const READS = [
  "get_issue",
  "list_issues",
  "search_issues",
  "get_issue_comments",
  "get_pull_request",
  "list_pull_requests",
  "get_pull_request_files",
  "get_pull_request_comments",
  "get_pull_request_reviews",
  "get_pull_request_status",
  "search_code",
  "search_repositories",
  "search_users",
  "list_commits",
];
const SINKS: [string, string][] = [
  ["create_issue", "writes"],
  ["add_issue_comment", "writes"],
  ["update_issue", "writes"],
  ["create_pull_request", "writes"],
  ["create_pull_request_review", "writes"],
  ["update_pull_request_branch", "writes"],
  ["create_or_update_file", "writes"],
  ["push_files", "writes"],
  ["create_branch", "writes"],
  ["merge_pull_request", "deploys_or_destroys"],
  ["create_repository", "network_or_shares"],
  ["fork_repository", "network_or_shares"],
];

function githubLikeReview() {
  return {
    schemaVersion: 2,
    title: "GitHub in a coding assistant (26 tools)",
    servers: [
      {
        id: "gh",
        name: "server-github",
        transport: { kind: "manual" },
        declaredTools: [...READS, ...SINKS.map(([n]) => n)].map((name) => ({ name })),
      },
    ],
    sources: [
      {
        id: "public",
        name: "Public issues and pull requests",
        writers: { externalAccounts: 100, selfServiceSignupOpen: true },
      },
      {
        id: "code",
        name: "Public code",
        writers: { externalAccounts: 100, selfServiceSignupOpen: true },
      },
    ],
    tools: [
      ...READS.map((tool, i) => ({
        serverId: "gh",
        tool,
        sourceIds: i % 3 === 0 ? ["public", "code"] : ["public"],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: true,
      })),
      ...SINKS.map(([tool, role]) => ({
        serverId: "gh",
        tool,
        roles: [role],
        rolesConfirmed: true,
      })),
    ],
    agents: [
      {
        id: "coder",
        name: "coding assistant",
        tools: [...READS, ...SINKS.map(([n]) => n)].map((tool) => ({ serverId: "gh", tool })),
      },
    ],
  };
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[graph-grouped]: 26 tools: sinks grouped by role with one approval pill each, labels cut at the end, the overflow cued, paths grouped by source × sink", async ({
  page,
}) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const res = await page.request.post("/api/reviews", {
    data: { review: githubLikeReview() },
    headers: bearer,
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const graph = page.getByTestId("graph-svg");
  await expect(graph.locator(`g.gnode[data-key="agent:coder"]`)).toBeVisible();

  // Three sink groups of server-github: deploys or destroys, sends or shares, writes.
  const groups = graph.locator(`g.gnode[data-key^="group:sink:gh#"]`);
  await expect(groups).toHaveCount(3);
  await expect(graph.locator(`g.gnode[data-key="group:sink:gh#writes"]`)).toContainText(
    "server-github · writes",
  );
  await expect(graph.locator(`g.gnode[data-key="group:sink:gh#writes"]`)).toContainText("9 sinks");

  // One approval pill per sink group, none on top of another.
  const pills = graph.locator(`g.marker[data-control^="approval:"]`);
  await expect(pills).toHaveCount(3);
  const boxes = await pills.evaluateAll((els) =>
    els.map((e): [number, number, number, number] => {
      const r = e.getBoundingClientRect();
      return [r.top, r.bottom, r.left, r.right];
    }),
  );
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const overlap = a[0] < b[1] && b[0] < a[1] && a[2] < b[3] && b[2] < a[3];
      expect(overlap, `approval pills ${i} and ${j} overlap`).toBe(false);
    }

  // Labels are never cut in the middle: an ellipsis only ends a label (before a number, if any).
  const labels = await graph
    .locator("g.gnode text.label")
    .evaluateAll((els) => els.map((e) => e.firstChild?.textContent ?? ""));
  expect(labels.length).toBeGreaterThan(15); // the 12 sinks, their 3 groups, the agent, …
  for (const l of labels) expect(l, l).toMatch(/^[^…]*(…( ·\d+)?)?$/);
  // A sink's full name is in its accessible name; a cut one's also in its title.
  const review = graph.locator(`g.gnode[data-key="sink:gh/create_pull_request_review"]`);
  await expect(review).toHaveAttribute("aria-label", /create_pull_request_review/);
  const shown = (await review.locator("text.label").textContent()) ?? "";
  if (shown !== "create_pull_request_review")
    await expect(review.locator("title")).toHaveText("create_pull_request_review");

  // The box either holds the whole graph or says what it hides.
  const scroll = page.getByTestId("graph-scroll");
  const hides = await scroll.evaluate(
    (el) => el.scrollHeight > el.clientHeight + 2 || el.scrollWidth > el.clientWidth + 2,
  );
  if (hides) await expect(page.getByTestId("graph-scroll-cue")).toBeVisible();
  else await expect(page.getByTestId("graph-scroll-cue")).toHaveCount(0);
  // Shrunk to a short window, the box hides the bottom of the sinks column and says so.
  await page.setViewportSize({ width: 900, height: 500 });
  await page.addStyleTag({ content: ".rr-graph-scroll { max-height: 200px !important; }" });
  await expect(page.getByTestId("graph-scroll-cue")).toContainText(/more (sinks? )?below/i);
  await scroll.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByTestId("graph-scroll-cue")).not.toContainText("below");

  // Paths: 14 returning tools × 12 sinks, listed by source × sink, each group opening to its paths.
  const groupButtons = page.locator("button.rr-path-group");
  // count() does not wait: wait for the list to be drawn first.
  await expect(groupButtons.first()).toBeVisible();
  expect(await groupButtons.count()).toBeGreaterThan(0);
  expect(await groupButtons.count()).toBeLessThanOrEqual(2 * SINKS.length);
  await expect(page.locator("button.rr-path-btn[data-path-id]")).toHaveCount(0);
  const first = groupButtons.first();
  await expect(first).toHaveAttribute("aria-expanded", "false");
  await expect(first).toContainText(/\d+ paths through \d+ returning tools in coding assistant/);
  await first.click();
  await expect(first).toHaveAttribute("aria-expanded", "true");
  const inGroup = page.locator(".rr-path-sublist button.rr-path-btn[data-path-id]");
  await expect(inGroup.nth(1)).toBeVisible();
  await inGroup.first().click();
  await expect(inGroup.first()).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("path-details")).toBeVisible();

  // The table view groups them too.
  await page.getByText("Table view of the paths").click();
  const tableGroups = page.locator(`[data-testid="paths-table"] tr[data-path-group]`);
  // The table is drawn after the click: wait for its first group row rather than count at once.
  await expect(tableGroups.first()).toBeVisible();
  const tableToggle = tableGroups.first().getByRole("button");
  await expect(tableToggle).toHaveAttribute("aria-expanded", /true|false/);

  const axe = await new AxeBuilder({ page }).include('[data-testid="graph-section"]').analyze();
  const serious = axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 120)}`)).toEqual([]);
  await page.screenshot({ path: "test-results/graph-26-grouped.png", fullPage: true });
  expect(errors).toEqual([]);
});
