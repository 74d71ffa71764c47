import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { createDemoReview as demoReviewInput } from "@/lib/review/demo";
import { bearer, signIn } from "../support/auth";
import { createDemoReview } from "../support/surface";
import {
  FIVE_HUNDRED_NODES,
  gitlabLikeReview,
  largeReview,
  TWO_HUNDRED_TOOLS,
} from "../support/large-review";

const PORTAL_PATH =
  "path:on-call:support-portal:knowledge-mcp/knowledge_search->deploy-tools/trigger_deploy";

/**
 * Nodes whose accessible name does not contain the words they show (axe's
 * label-content-name-mismatch, an experimental rule axe runs only when asked for by name).
 */
async function labelNameMismatches(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .include('[data-testid="graph-section"]')
    .withRules(["label-content-name-mismatch"])
    .analyze();
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 160)}`));
}

function failOnPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  return errors;
}

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[graph]: the demo's support-portal path to trigger_deploy, selected by keyboard, then cut by splitting the on-call agent", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const id = (await createDemoReview(page.request)).id;
  await page.goto(`/reviews/${id}?section=graph`);

  const graph = page.getByTestId("graph-svg");
  const node = (key: string) => graph.locator(`g.gnode[data-key="${key}"]`);
  await expect(node("returning:knowledge-mcp/knowledge_search")).toBeVisible();
  await expect(page.getByTestId("path-summary")).toContainText("8 paths");
  expect(await labelNameMismatches(page)).toEqual([]);

  // The graph: each hop of the path is drawn, strong because it is on a path.
  await expect(node("writers:support-portal")).toContainText("everyone with an email address");
  await expect(node("source:support-portal")).toContainText("support portal");
  await expect(node("agent:on-call")).toContainText("on-call agent");
  await expect(node("sink:deploy-tools/trigger_deploy")).toContainText("trigger_deploy");
  for (const edge of [
    "writers:support-portal->source:support-portal",
    "source:support-portal->returning:knowledge-mcp/knowledge_search",
    "returning:knowledge-mcp/knowledge_search->agent:on-call",
    "agent:on-call->sink:deploy-tools/trigger_deploy",
  ]) {
    await expect(graph.locator(`path[data-edge="${edge}"]`)).toHaveClass(/\bon\b/);
  }
  // The internal wiki is not outside the boundary, so it is on no path: the default view (paths to
  // sensitive sinks) leaves it out, and the whole graph, one keypress away, draws its edges muted.
  await expect(graph.locator(`g.gnode[data-key="source:wiki"]`)).toHaveCount(0);
  await expect(page.getByTestId("graph-view-scope")).toContainText(
    "nodes on paths to sensitive sinks",
  );
  const showAll = page
    .getByTestId("graph-view-scope")
    .getByRole("button", { name: /^Show all \d+$/ });
  await showAll.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("graph-view-scope").getByRole("button")).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  await expect(graph.locator(`path[data-edge="writers:wiki->source:wiki"]`)).toHaveClass(/\boff\b/);
  // Controls where they sit: credential and egress on knowledge-mcp's group, approval on the sink call, separation on the session.
  await expect(graph.locator(`g.marker[data-control^="credential:knowledge-mcp"]`)).toContainText(
    "credential ✓",
  );
  await expect(graph.locator(`g.marker[data-control^="egress:knowledge-mcp"]`)).toContainText(
    "egress ✓",
  );
  await expect(graph.locator(`g.marker[data-control^="approval:on-call"]`)).toContainText(
    "approval ✕",
  );
  await expect(graph.locator(`g.marker[data-control="separation:on-call"]`)).toContainText(
    "separation ✕",
  );

  // The table view shows the same path.
  const row = page.locator(`[data-testid="paths-table"] tr[data-path-id="${PORTAL_PATH}"]`);
  await expect(row).toContainText("Tracker: support portal project (SUP)");
  await expect(row).toContainText("everyone with an email address");
  await expect(row).toContainText("knowledge_search");
  await expect(row).toContainText("on-call agent");
  await expect(row).toContainText("trigger_deploy");
  await expect(row).toContainText("Tool-set separation: fails");

  // Keyboard in the graph: arrows move focus along the edges, Enter selects a node.
  await node("writers:support-portal").focus();
  await page.keyboard.press("ArrowRight");
  await expect(node("source:support-portal")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  const returningFocused = await graph.locator("g.gnode:focus").getAttribute("data-key");
  expect(returningFocused).toMatch(/^returning:knowledge-mcp\/(knowledge_search|get_comment)$/);
  await node("returning:knowledge-mcp/knowledge_search").focus();
  await page.keyboard.press("Enter");
  await expect(
    page.getByRole("heading", { name: /Paths through knowledge_search \(3\)/ }),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("heading", { name: "Paths (8)" })).toBeVisible();

  // Keyboard-select the path from its button: highlighted in the graph, findings listed with their why.
  const first = page.locator("button.rr-path-btn").first();
  await first.focus();
  const button = page.locator(`button.rr-path-btn[data-path-id="${PORTAL_PATH}"]`);
  for (let i = 0; i < 8 && !(await button.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press("ArrowDown");
  await expect(button).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(button).toHaveAttribute("aria-pressed", "true");
  const details = page.getByTestId("path-details");
  await expect(details).toContainText(
    "Tracker: support portal project (SUP) → knowledge_search → on-call agent → trigger_deploy",
  );
  await expect(
    details.locator('[data-finding-id="finding:path.to_sensitive_sink:on-call"]'),
  ).toContainText("8 paths from untrusted text to trigger_deploy in on-call agent");
  await expect(details).toContainText(
    "knowledge_search returns text from Tracker: support portal project (SUP) (writers: everyone with an email address)",
  );
  await expect(details).toContainText("union property");
  await expect(
    graph.locator(
      `path[data-edge="source:support-portal->returning:knowledge-mcp/knowledge_search"]`,
    ),
  ).toHaveClass(/\bhl\b/);
  await expect(
    graph.locator(`path[data-edge="source:wiki-partner->returning:knowledge-mcp/read_page"]`),
  ).toHaveClass(/\bdim\b/);
  await page.screenshot({ path: "test-results/graph-demo-selected.png", fullPage: true });

  // Hover a control: its residue as text.
  await graph.locator(`g.marker[data-control^="approval:on-call"]`).hover();
  await expect(page.getByRole("tooltip")).toContainText(
    "Leaves: an approver who trusts the model's justification",
  );

  const residue = page.getByTestId("residue-text");
  await expect(residue).toContainText(
    "reaching every tool in the session, trigger_deploy among them",
  );
  const before = await residue.textContent();

  // Split the on-call agent: a new revision, the analysis refetches, the path is gone.
  await page
    .getByRole("button", { name: "Split on-call agent into a reference agent and a deploy agent" })
    .click();
  // The split is previewed with the two names, editable, before anything is saved.
  await expect(page.getByLabel("Reference agent's name")).toHaveValue(/on-call/);
  await expect(page.getByTestId("save-status")).toContainText("All changes saved");
  await page.getByRole("button", { name: "Apply the split" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision 2");
  await expect(page.getByTestId("graph-section")).toHaveAttribute("data-revision", "2");
  await expect(page.getByTestId("no-paths")).toContainText("No source-to-sink paths");
  await expect(page.locator(`[data-testid="paths-table"] tr[data-path-id]`)).toHaveCount(0);
  await expect(page.locator("button.rr-path-btn")).toHaveCount(0);
  await expect(residue).not.toHaveText(before ?? "");
  await expect(residue).toContainText("reaching the tools that stayed in the session");
  // trigger_deploy is still drawn, held by the deploy agent, on no path; the reference session shows the cut.
  await expect(
    graph.locator(`path[data-edge="agent:on-call-deploy->sink:deploy-tools/trigger_deploy"]`),
  ).toHaveClass(/\boff\b/);
  await expect(
    graph.locator(`path[data-edge$="->sink:deploy-tools/trigger_deploy"].on`),
  ).toHaveCount(0);
  await expect(graph.locator(`g.cut[data-cut="cut:on-call"]`)).toBeVisible();
  await expect(graph.locator(`g.marker[data-control="separation:on-call"]`)).toContainText(
    "separation ✓",
  );
  await page.screenshot({ path: "test-results/graph-demo-split.png", fullPage: true });

  expect(errors).toEqual([]);
});

test("[graph]: 200 tools stay legible: the big server starts collapsed to one node with a count, and expands", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const res = await page.request.post("/api/reviews", {
    data: { review: largeReview(TWO_HUNDRED_TOOLS, "Generated: 200 tools") },
    headers: bearer,
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const graph = page.getByTestId("graph-svg");
  const group = graph.locator(`g.gnode[data-key="group:returning:relay-0"]`);
  await expect(group).toHaveAttribute("aria-expanded", "false");
  await expect(group).toContainText("50 tools");
  await expect(graph.locator(`g.gnode.k-returning`)).toHaveCount(0);
  await page.screenshot({ path: "test-results/graph-200-collapsed.png" });

  await group.focus();
  await page.keyboard.press("Enter");
  await expect(group).toHaveAttribute("aria-expanded", "true");
  await expect(group).toBeFocused();
  await expect(graph.locator(`g.gnode.k-returning`)).toHaveCount(50);
  await page.getByRole("button", { name: "Expand all groups" }).click();
  // The default view: the 20 tools no agent holds are on no path, so they wait behind "Show all".
  await expect(graph.locator(`g.gnode.k-returning`)).toHaveCount(180);
  await expect(graph.locator(`g.gnode[data-key="group:returning:relay-3"]`)).toContainText(
    "30 of 50 tools",
  );
  await page
    .getByTestId("graph-view-scope")
    .getByRole("button", { name: /^Show all \d+$/ })
    .click();
  await page.getByRole("button", { name: "Expand all groups" }).click();
  await expect(graph.locator(`g.gnode.k-returning`)).toHaveCount(200);
  // The graph scrolls inside its own container rather than stretching the page.
  const box = await page.getByTestId("graph-scroll").boundingBox();
  expect(box?.height ?? 0).toBeLessThanOrEqual(600);
  await page.screenshot({ path: "test-results/graph-200-expanded.png" });
  expect(errors).toEqual([]);
});

test("[graph]: 200 tools nobody has assessed yet stay legible: their unmapped sources start as one group with one 'unknown writers' node, and expand to a row per tool", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const stdio = { kind: "stdio" as const, command: "node", args: [], envNames: [] };
  const pages = Array.from({ length: 200 }, (_, t) => ({
    name: `get_page_${t}`,
    description: `Get wiki page ${t}.`,
  }));
  const review = {
    schemaVersion: 2,
    title: "Generated: 200 unassessed tools",
    servers: [
      { id: "wiki", name: "wiki", transport: stdio, declaredTools: pages },
      {
        id: "deploy",
        name: "deploy",
        transport: stdio,
        declaredTools: [{ name: "trigger_deploy", description: "Deploy a release." }],
      },
    ],
    agents: [
      {
        id: "on-call",
        name: "on-call",
        tools: [
          ...pages.map((p) => ({ serverId: "wiki", tool: p.name })),
          { serverId: "deploy", tool: "trigger_deploy" },
        ],
      },
    ],
  };
  const res = await page.request.post("/api/reviews", { data: { review }, headers: bearer });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const graph = page.getByTestId("graph-svg");
  const group = graph.locator(`g.gnode[data-key="group:unmapped:wiki"]`);
  await expect(group).toHaveAttribute("aria-expanded", "false");
  await expect(group).toContainText("200 unmapped");
  await expect(graph.locator(`g.gnode[data-key="writers-of:group:unmapped:wiki"]`)).toContainText(
    "unknown writers",
  );
  await expect(graph.locator(`g.gnode[data-key^="source:unmapped:wiki/"]`)).toHaveCount(0);
  const scroll = page.getByTestId("graph-scroll");
  expect((await graph.boundingBox())?.height ?? 0).toBeLessThan(400);

  // Selecting the one writers node highlights the paths from every one of those heads.
  await graph.locator(`g.gnode[data-key="writers-of:group:unmapped:wiki"]`).click();
  await expect(page.getByRole("heading", { name: /Paths through unknown writers/ })).toBeVisible();

  await group.focus();
  await page.keyboard.press("Enter");
  await expect(group).toHaveAttribute("aria-expanded", "true");
  await expect(graph.locator(`g.gnode[data-key^="source:unmapped:wiki/"]`)).toHaveCount(200);
  await expect(graph.locator(`g.gnode[data-key="source:unmapped:wiki/get_page_7"]`)).toContainText(
    "returned by get_page_7",
  );
  expect((await scroll.boundingBox())?.height ?? 0).toBeLessThanOrEqual(600);
  await page.screenshot({ path: "test-results/graph-200-unassessed.png" });
  expect(errors).toEqual([]);
});

test("[graph]: a tool name with hidden characters is shown with them revealed, in the graph, the path table, the findings and the agent and tool-role editors", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const hostile = "read\u202Eyolped_reggirt";
  const review = {
    schemaVersion: 2,
    title: "Hidden characters in a tool name",
    servers: [
      {
        id: "kb",
        name: "kb",
        transport: { kind: "manual" },
        declaredTools: [
          { name: hostile, annotations: { readOnlyHint: true } },
          { name: "trigger_deploy" },
        ],
      },
    ],
    sources: [
      {
        id: "portal",
        name: "portal",
        writers: { externalAccounts: 10, selfServiceSignupOpen: true },
      },
    ],
    tools: [
      {
        serverId: "kb",
        tool: hostile,
        sourceIds: ["portal"],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: true,
      },
      {
        serverId: "kb",
        tool: "trigger_deploy",
        roles: ["deploys_or_destroys"],
        rolesConfirmed: true,
      },
    ],
    agents: [
      {
        id: "a",
        name: "agent",
        tools: [
          { serverId: "kb", tool: hostile },
          { serverId: "kb", tool: "trigger_deploy" },
        ],
      },
    ],
  };
  const res = await page.request.post("/api/reviews", { data: { review }, headers: bearer });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const node = page.getByTestId("graph-svg").locator(`g.gnode[data-key="returning:kb/${hostile}"]`);
  await expect(node).toHaveAttribute(
    "aria-label",
    /read⟦U\+202E RIGHT-TO-LEFT OVERRIDE⟧yolped_reggirt/,
  );
  await expect(node).toContainText("read⟦U+202E");
  await expect(page.getByTestId("paths-table")).toContainText(
    "read⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧yolped_reggirt",
  );
  expect(await page.locator("main").innerText()).not.toContain("\u202E");
  // And where the reviewer places and assesses the tool.
  await page.goto(`/reviews/${id}?section=agents`);
  await expect(page.getByTestId("agent-a")).toContainText(
    "read⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧yolped_reggirt",
  );
  await expect(page.getByTestId(`tool-roles-kb/${hostile}`)).toContainText(
    "read⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧yolped_reggirt",
  );
  expect(await page.locator("main").innerText()).not.toContain("\u202E");
  expect(errors).toEqual([]);
});

test("[graph]: a GitLab-like server of 201 tools: no two labels of a column read the same, self-paths fold into one marked row and node, the agent's name is whole, and a node's focus shows every reason of its roles", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const res = await page.request.post("/api/reviews", {
    data: { review: gitlabLikeReview() },
    headers: bearer,
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const graph = page.getByTestId("graph-svg");
  await expect(graph.locator(`g.gnode[data-key="agent:gitlab-triage"]`)).toBeVisible();
  await expect(page.getByTestId("graph-view-scope")).toContainText(
    "nodes on paths to sensitive sinks",
  );

  /** Per column, the text each node shows (its label, and a group's count), from the page. */
  const columnsShown = () =>
    graph.locator("g.gnode").evaluateAll((els) =>
      els.map((e) => ({
        column: e.getAttribute("data-column"),
        key: e.getAttribute("data-key"),
        text: e.querySelector("text.label")?.textContent ?? "",
      })),
    );
  const expectUnique = async (least: number) => {
    const shown = await columnsShown();
    expect(shown.length).toBeGreaterThanOrEqual(least);
    const seen = new Map<string, string>();
    for (const n of shown) {
      const k = `${n.column}\n${n.text}`;
      expect(
        seen.get(k),
        `${n.key} and ${seen.get(k)} both show ${JSON.stringify(n.text)}`,
      ).toBeUndefined();
      seen.set(k, n.key ?? "");
    }
  };
  await page.getByRole("button", { name: "Expand all groups" }).click();
  await expect(graph.locator(`g.gnode[data-key^="source:unmapped:gitlab/"]`).first()).toBeVisible();
  await expectUnique(200);
  expect(await labelNameMismatches(page)).toEqual([]);
  // Labels of the same words cut alike are told apart by the part that differs, in full in the name.
  const note = graph.locator(
    `g.gnode[data-key="source:unmapped:gitlab/create_issue_discussion_note"]`,
  );
  await expect(note).toHaveAttribute("aria-label", /returned by create_issue_discussion_note/);
  await page.screenshot({ path: "test-results/graph-gitlab-201-default.png" });

  await page
    .getByTestId("graph-view-scope")
    .getByRole("button", { name: /^Show all \d+$/ })
    .click();
  await page.getByRole("button", { name: "Expand all groups" }).click();
  await expect(graph.locator(`g.gnode.k-returning`)).toHaveCount(210);
  await expectUnique(600);
  expect(await labelNameMismatches(page)).toEqual([]);
  // The tools of the same name on the mirror are told apart by their server.
  await expect(
    graph.locator(`g.gnode[data-key="returning:gitlab-mirror/get_issue"] text.label`),
  ).toHaveText(/^gitlab mirror\/get_issue$|^gitlab m.*…/);
  await expect(
    graph.locator(`g.gnode[data-key="returning:gitlab/get_issue"] text.label`),
  ).toHaveText("gitlab/get_issue");
  await page.screenshot({ path: "test-results/graph-gitlab-201-all.png" });

  // The agent's name fits its column whole.
  await expect(graph.locator(`g.gnode[data-key="agent:gitlab-triage"] text.label`)).toHaveText(
    "GitLab triage and release agent",
  );

  // Self-paths: a sink node marked ↺, never a path row A → A; one folded row per agent, after the cross-tool paths.
  await expect(graph.locator(`g.gnode[data-key="sink:gitlab/create_issue"] text.label`)).toHaveText(
    "↺ create_issue",
  );
  await expect(graph.locator(`g.gnode[data-key="sink:gitlab/create_issue"]`)).toHaveAttribute(
    "aria-label",
    /self-path/,
  );
  const rows = page.locator("ul.rr-path-list > li > button");
  await expect(rows.last()).toHaveAttribute("data-self-paths", "gitlab-triage");
  await expect(rows.last()).toContainText("↺ Self-paths in GitLab triage and release agent");
  const ids = await page
    .locator("button.rr-path-btn[data-path-id]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-path-id") ?? ""));
  expect(ids.length).toBeGreaterThan(0);
  for (const pid of ids) {
    const [ret, sink] = pid.slice(pid.lastIndexOf(":") + 1).split("->");
    expect(ret, pid).not.toBe(sink);
  }
  // Led by a cross-tool path to a sink that deploys or destroys (or a confirmed write), not a self-path.
  expect(await rows.first().getAttribute("data-self-paths")).toBeNull();
  await rows.last().click();
  await expect(page.getByTestId("path-details")).toContainText(
    "Self-paths in GitLab triage and release agent",
  );

  // Focus a sink whose roles are a suggestion: the tooltip and the node's description give every reason, not the first.
  const sink = graph.locator(`g.gnode[data-key="sink:gitlab/delete_issue_link"]`);
  await sink.focus();
  const tip = page.getByRole("tooltip");
  const body = (await (
    await page.request.get(`/api/reviews/${id}/analysis`, { headers: bearer })
  ).json()) as { tools: { key: string; suggestedRoles: { role: string; reasons: string[] }[] }[] };
  const reasons =
    body.tools
      .find((t) => t.key === "gitlab/delete_issue_link")
      ?.suggestedRoles.find((r) => r.role === "deploys_or_destroys")?.reasons ?? [];
  expect(reasons.length).toBeGreaterThan(1);
  await expect(tip).toContainText(`deploys or destroys: ${reasons.join("; ")}`);
  const description = (await sink.getAttribute("aria-description")) ?? "";
  for (const r of reasons) expect(description).toContain(r);
  expect(errors).toEqual([]);
});

test("[graph]: every reason of a suggested role shows while its checkbox has keyboard focus, and is in its accessible name", async ({
  page,
}) => {
  const review = {
    schemaVersion: 2,
    title: "Reasons of a role",
    servers: [
      {
        id: "gl",
        name: "gitlab",
        transport: { kind: "manual" },
        declaredTools: [{ name: "delete_branch", description: "Delete a branch." }],
      },
    ],
    agents: [{ id: "a", name: "agent", tools: [{ serverId: "gl", tool: "delete_branch" }] }],
  };
  const res = await page.request.post("/api/reviews", { data: { review }, headers: bearer });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=agents`);
  const row = page.getByTestId("tool-roles-gl/delete_branch");
  const box = row.getByRole("checkbox", { name: /deploys or destroys/ });
  const label = row
    .locator("label")
    .filter({ has: page.getByRole("checkbox", { name: /deploys or destroys/ }) });
  // The label's title lists every reason of the suggestion, joined by "; ".
  const reasons = ((await label.getAttribute("title")) ?? "").split("; ");
  expect(reasons.length).toBeGreaterThan(1);
  for (const r of reasons)
    await expect(box).toHaveAccessibleName(new RegExp(r.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  const rest = label.locator(".rr-reasons-rest");
  const shownOnScreen = () => rest.evaluate((el) => getComputedStyle(el).position === "static");
  expect(await shownOnScreen()).toBe(false);
  await box.focus();
  expect(await shownOnScreen()).toBe(true);
  for (const r of reasons) await expect(label).toContainText(r);
});

test("[graph]: a graph taller than its scroll box paints the rows in view first, then draws the rest into the same SVG, in the same order, as a graph drawn at once", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  const res = await page.request.post("/api/reviews", {
    data: { review: largeReview(FIVE_HUNDRED_NODES, "Generated: 500 nodes") },
    headers: bearer,
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };

  // The nodes in the SVG when the first-paint mark is set, and the SVG's elements in order once
  // the drawing has settled (two reads a second apart agree).
  const atPaint = () => (performance as Performance & { nodesAtPaint?: number }).nodesAtPaint;
  const countAtPaint = () => {
    const mark = performance.mark.bind(performance);
    performance.mark = (name: string, options?: PerformanceMarkOptions) => {
      if (name === "graph-painted")
        (performance as Performance & { nodesAtPaint?: number }).nodesAtPaint =
          document.querySelectorAll('[data-testid="graph-svg"] g.gnode').length;
      return mark(name, options);
    };
  };
  const drawn = (p: Page) =>
    p
      .getByTestId("graph-svg")
      .evaluate((svg) =>
        [...svg.querySelectorAll(":scope > g > *")].map(
          (e) =>
            `${e.parentElement!.getAttribute("class")} ${e.tagName} ${e.getAttribute("class")} ${
              e.getAttribute("data-key") ??
              e.getAttribute("data-edge") ??
              e.getAttribute("data-control") ??
              e.getAttribute("data-cut") ??
              `${e.getAttribute("x")},${e.getAttribute("y")}`
            }`,
        ),
      );
  const settled = async (p: Page) => {
    await p.waitForFunction(() => performance.getEntriesByName("graph-painted").length > 0);
    let last: string[] = [];
    await expect
      .poll(async () => {
        const now = await drawn(p);
        const same = now.join("\n") === last.join("\n");
        last = now;
        return same;
      })
      .toBe(true);
    return last;
  };

  await page.addInitScript(countAtPaint);
  await page.goto(`/reviews/${id}?section=graph`);
  const banded = await settled(page);
  const nodes = banded.filter((e) => e.startsWith("layer-nodes ")).length;
  expect(nodes).toBeGreaterThan(100);
  // The first paint held only the rows in view (and a margin), not the whole canvas.
  expect(await page.evaluate(atPaint)).toBeLessThan(nodes / 2);

  // The same graph with a scroll box as tall as the canvas is drawn in one pass.
  const whole = await page.context().newPage();
  await whole.addInitScript(countAtPaint);
  await whole.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => {
      const style = document.createElement("style");
      style.textContent = ".rr-graph-scroll { max-height: none !important; }";
      document.head.append(style);
    });
  });
  await whole.goto(`/reviews/${id}?section=graph`);
  const atOnce = await settled(whole);
  expect(await whole.evaluate(atPaint)).toBe(
    atOnce.filter((e) => e.startsWith("layer-nodes ")).length,
  );
  expect(banded).toEqual(atOnce);
  await whole.close();
  expect(errors).toEqual([]);
});

test("[graph]: an agent holding the lethal trifecta has its three legs drawn under it, the private-data leg included, with the tools of each listed in words", async ({
  page,
}) => {
  const errors = failOnPageErrors(page);
  // The demo, with list_spaces reading private data (the private repository of GitHub's public
  // issue → private repo → public PR chain) and trigger_deploy also sending data out.
  const review = demoReviewInput();
  for (const t of review.tools) {
    if (t.tool === "list_spaces") t.roles = ["reads_private_data"];
    if (t.tool === "trigger_deploy") t.roles = ["deploys_or_destroys", "network_or_shares"];
  }
  const res = await page.request.post("/api/reviews", { data: { review }, headers: bearer });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/reviews/${id}?section=graph`);
  const graph = page.getByTestId("graph-svg");
  await expect(graph.locator(`g.gnode[data-key="agent:on-call"]`)).toBeVisible();

  // Drawn: three labelled legs under the on-call agent, every one held (filled).
  for (const [leg, label] of [
    ["untrustedInput", "untrusted"],
    ["privateData", "private data"],
    ["outboundCommunication", "outbound"],
  ] as const) {
    const mark = graph.locator(`g.leg[data-leg="agent:on-call:${leg}"]`);
    await expect(mark).toBeVisible();
    await expect(mark).toHaveClass(/\bpresent\b/);
    await expect(mark).toContainText(label);
  }
  // Under the agent's box (the focus ring around it may overlap), not on it.
  const agentBox = await graph.locator(`g.gnode[data-key="agent:on-call"] rect.box`).boundingBox();
  const legBox = await graph.locator(`g.leg[data-leg="agent:on-call:privateData"]`).boundingBox();
  expect(legBox!.y).toBeGreaterThanOrEqual(agentBox!.y + agentBox!.height);

  // In words: the tools behind each leg, the private-data reader (drawn in no column) among them.
  const list = page.getByTestId("graph-trifecta");
  const onCall = list.locator(`li[data-agent="on-call"]`);
  await expect(onCall).toContainText("on-call agent holds the lethal trifecta");
  await expect(onCall.locator(`li[data-leg="privateData"]`)).toHaveText(
    "Private data: 1 tool reading private data (list_spaces)",
  );
  await expect(onCall.locator(`li[data-leg="outboundCommunication"]`)).toHaveText(
    "Outbound: 1 tool sending data out or sharing (trigger_deploy)",
  );
  await expect(onCall.locator(`li[data-leg="untrustedInput"]`)).toContainText(
    "Untrusted input: 3 tools returning text from outside writers",
  );
  // The documentation agent holds one leg only: listed as such, its other legs not held.
  const docs = list.locator(`li[data-agent="docs-agent"]`);
  await expect(docs).toContainText("documentation agent holds some legs");
  await expect(docs.locator(`li[data-leg="privateData"]`)).toHaveText("Private data: not held");

  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="graph-section"]')
    .analyze();
  expect(
    violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  ).toEqual([]);
  expect(await labelNameMismatches(page)).toEqual([]);
  expect(errors).toEqual([]);
});
