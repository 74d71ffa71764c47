/**
 * Issue 30 in Chromium, against the real dashboard-apps-mcp demo server (SDK v2, stdio): the MCP
 * Apps panel shows the ui:// resource, the app-only tool, the CSP's domains and the permissions it
 * claims; inspected under a second credential, the "Surfaces per credential" panel lists both
 * surfaces, each against its own pin, and the pin panel lists the other credential's pin, which a
 * reviewer removes. axe finds no serious or critical violation on the panel. A server that lists
 * its UI tool only to hosts that render MCP Apps (the fixture allowlisted as a launcher) shows it
 * once the reviewer ticks "Declare MCP Apps" on the server and inspects again.
 */
import AxeBuilder from "@axe-core/playwright";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview, editReview } from "../support/surface";

const DASHBOARD_ARGS = ["--import", "tsx", "servers/dashboard-apps-mcp.ts", "stdio"];
const BOARD_ARGS = ["--import", "tsx", "tests/fixtures/servers/apps-only-to-apps-hosts.ts"];
const BLOCKING = new Set(["serious", "critical"]);

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[eras]: MCP Apps panel, surfaces per credential, and removing another credential's pin", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  for (const name of ["DASHBOARD_READER_TOKEN", "DASHBOARD_ADMIN_TOKEN"]) {
    const set = await page.request.put(`/api/secrets/${name}`, {
      headers: bearer,
      data: { value: `e2e-${name.toLowerCase()}-value` },
    });
    expect(set.status(), await set.text()).toBeLessThan(300);
  }
  const { id } = await createDemoReview(page.request);
  const useSecret = (name: string) =>
    editReview(page.request, id, (r) => {
      const transport = { kind: "stdio", command: "node", args: DASHBOARD_ARGS, envNames: [name] };
      const existing = r.servers.find((s) => s.id === "dashboard");
      if (existing) existing.transport = transport;
      else r.servers.push({ id: "dashboard", name: "dashboard", transport, pin: null });
    });
  await useSecret("DASHBOARD_READER_TOKEN");

  await page.goto(`/reviews/${id}?section=servers`);
  const panel = page.getByTestId("surface-dashboard");
  await panel.getByRole("button", { name: "Inspect dashboard" }).click();

  // MCP Apps: the UI, who renders it, the app-only tool, the CSP and the permissions, as claims.
  const apps = panel.getByTestId("apps-panel");
  await expect(apps).toBeVisible({ timeout: 120_000 });
  await expect(apps).toContainText("refresh_dashboard");
  await expect(apps.getByText("app-only", { exact: true })).toBeVisible();
  const ui = apps.getByTestId("apps-ui-resource");
  await expect(ui).toContainText("ui://dashboard/view.html");
  await expect(ui).toContainText("show_dashboard");
  await expect(ui).toContainText("https://api.dashboard.example");
  await expect(ui).toContainText("wss://live.dashboard.example");
  await expect(ui).toContainText("https://cdn.dashboard.example");
  await expect(ui).toContainText("https://player.video.example");
  await expect(ui.getByTestId("apps-permissions")).toContainText("camera");
  await expect(ui.getByTestId("apps-permissions")).toContainText("clipboardWrite");

  await panel.getByRole("button", { name: "Pin this surface" }).click();
  await expect(panel.getByTestId("pin-status")).toContainText("matches the pin");

  // The same server under another credential: a surface of its own, compared with no pin yet.
  await useSecret("DASHBOARD_ADMIN_TOKEN");
  await page.reload();
  await panel.getByRole("button", { name: "Inspect dashboard" }).click();
  const perCredential = panel.getByTestId("credential-surfaces");
  await expect(perCredential).toBeVisible({ timeout: 120_000 });
  const rows = perCredential.getByRole("row");
  await expect(rows.filter({ hasText: "secret DASHBOARD_READER_TOKEN" })).toContainText("match");
  await expect(rows.filter({ hasText: "secret DASHBOARD_ADMIN_TOKEN" })).toContainText(
    "not pinned",
  );
  // The diff between the two: the same demo surface under both, so nothing added or removed.
  await expect(perCredential.getByLabel("From")).toBeVisible();

  // Not compared with the reader's pin ("incomparable"): pinning it takes a reason.
  await panel
    .getByLabel(/^Reason \(required/)
    .fill("the admin token lists the same dashboard tools");
  await panel.getByRole("button", { name: "Pin this surface" }).click();
  await expect(panel.getByTestId("pin-status")).toContainText("matches the pin");
  await expect(rows.filter({ hasText: "secret DASHBOARD_ADMIN_TOKEN" })).toContainText("match");

  // The reader's pin is now another credential's: listed, and removable with a reason.
  const others = panel.getByTestId("other-pins");
  const readerPin = others.getByRole("row").filter({ hasText: "secret DASHBOARD_READER_TOKEN" });
  await expect(readerPin).toContainText(/2025|2026-07-28/);
  await expect(readerPin.locator("td.mono")).toHaveText(/^[0-9a-f]{12}…$/);

  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="surface-dashboard"]')
    .analyze();
  const blocking = violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target).join(", ")}`);
  expect(blocking).toEqual([]);

  await others.getByLabel(/Reason for a removal/).fill("the reader token is retired");
  await readerPin.getByRole("button", { name: /Remove the pin of/ }).click();
  await expect(others).toBeHidden();
  const server = (
    (await (await page.request.get(`/api/reviews/${id}`, { headers: bearer })).json()) as {
      review: { servers: { id: string; pin: { credential?: unknown }; otherPins?: unknown[] }[] };
    }
  ).review.servers.find((s) => s.id === "dashboard")!;
  expect(server.pin.credential).toEqual({ kind: "secret", names: ["DASHBOARD_ADMIN_TOKEN"] });
  expect(server.otherPins ?? []).toEqual([]);
  expect(errors).toEqual([]);
});

test('[eras]: ticking "Declare MCP Apps" lists the UI tool a server shows only to Apps hosts', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const { id } = await createDemoReview(page.request);
  await editReview(page.request, id, (r) => {
    const transport = { kind: "stdio", command: "node", args: BOARD_ARGS, envNames: [] };
    r.servers.push({ id: "board", name: "board", transport, pin: null });
  });

  await page.goto(`/reviews/${id}?section=servers`);
  const panel = page.getByTestId("surface-board");
  const tools = panel.getByRole("list", { name: "tools" }).getByRole("listitem");
  await panel.getByRole("button", { name: "Inspect board" }).click();
  // Without the opt-in the inspection declares no Apps extension: the server hides its UI tool.
  await expect(tools.filter({ hasText: "list_cards" })).toHaveCount(1, { timeout: 120_000 });
  await expect(tools).toHaveCount(1);

  await page.getByRole("button", { name: "Edit server board" }).click();
  const form = page.getByRole("form", { name: "Edit board" });
  await form.getByRole("checkbox", { name: /Declare MCP Apps/ }).check();
  await form.getByRole("button", { name: "Save server" }).click();
  await expect(page.getByTestId("save-status")).toContainText("Saved as revision");

  await panel.getByRole("button", { name: "Inspect board" }).click();
  await expect(tools.filter({ hasText: "show_board" })).toHaveCount(1, { timeout: 120_000 });
  await expect(tools).toHaveCount(2);
  const stored = (
    (await (await page.request.get(`/api/reviews/${id}`, { headers: bearer })).json()) as {
      review: { servers: { id: string; hostRendersApps?: boolean }[] };
    }
  ).review.servers.find((s) => s.id === "board");
  expect(stored?.hostRendersApps).toBe(true);
  expect(errors).toEqual([]);
});
