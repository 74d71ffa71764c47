import path from "node:path";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";

const CLAUDE_CONFIG = path.resolve("examples/configs/claude_desktop_config.json");
const FAKE_TOKEN = "ghp_FAKEexampleTOKEN0000000000000000000000";

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[import]: a Claude Desktop config becomes a review; the secret is replaced in the browser and never sent or stored", async ({
  page,
}) => {
  const sent: string[] = [];
  page.on("request", (r) => {
    if (r.url().includes("/api/import")) sent.push(r.postData() ?? "");
  });
  await page.goto("/");
  await page.getByText("Start a review from an MCP client config").click();
  const panel = page.getByRole("region", { name: "Import a client config" });
  await panel.getByLabel("Config file").setInputFiles(CLAUDE_CONFIG);

  const preview = panel.getByLabel("What will be imported");
  await expect(preview).toContainText(
    "Claude Desktop: 2 server(s) → agent Claude Desktop (claude_desktop_config.json)",
  );
  await expect(preview).toContainText("knowledge-mcp — node servers/dist/knowledge-mcp.js stdio");
  await expect(panel.getByLabel("Secrets replaced")).toContainText(
    "GITHUB_PERSONAL_ACCESS_TOKEN (env GITHUB_PERSONAL_ACCESS_TOKEN) → ${",
  );
  await expect(
    panel.getByLabel("Secrets replaced").getByRole("link", { name: "Secrets page" }),
  ).toHaveAttribute("href", "/secrets");
  // The file's own text stays in the paste box, in the owner's browser; what is shown to import is not it.
  await expect(preview).not.toContainText(FAKE_TOKEN);

  await panel.getByRole("button", { name: "Import as a new review" }).click();
  await page.waitForURL(/\/reviews\/[^/?]+\?section=servers$/);
  const id = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByText("knowledge-mcp", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("github", { exact: true }).first()).toBeVisible();

  expect(sent).toHaveLength(1);
  expect(sent[0]).not.toContain(FAKE_TOKEN);
  const stored = await page.request.get(`/api/reviews/${id}`, { headers: bearer });
  expect(stored.status()).toBe(200);
  const text = await stored.text();
  expect(text).not.toContain(FAKE_TOKEN);
  expect(text).toContain("GITHUB_PERSONAL_ACCESS_TOKEN");
});

test("[import]: a broken config names its line and field, and nothing is sent", async ({
  page,
}) => {
  let sent = 0;
  page.on("request", (r) => {
    if (r.url().includes("/api/import")) sent++;
  });
  await page.goto("/");
  await page.getByText("Start a review from an MCP client config").click();
  const panel = page.getByRole("region", { name: "Import a client config" });
  await panel
    .getByLabel("…or paste it")
    .fill('{\n  "mcpServers": {\n    "broken": { "command": 42 }\n  }\n}');
  const problems = panel.getByRole("alert", { name: "Problems in the config" });
  await expect(problems).toContainText("line 3");
  await expect(problems).toContainText("mcpServers.broken.command");
  await expect(panel.getByRole("button", { name: "Import as a new review" })).toBeDisabled();
  expect(sent).toBe(0);
});
