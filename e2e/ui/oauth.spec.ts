/**
 * [oauth]: Connect in Chromium against the demo authorization server (servers/knowledge-mcp-oauth.ts,
 * both listeners on 127.0.0.1), inspect with the stored token, pin, decide; the card says who is
 * connected, with which granted scopes, until when; Disconnect deletes the stored state. The
 * callback refuses an unknown and a replayed state with a page saying so. Every token the demo
 * issued is looked for where it must not be: every table of the database (after the workbench
 * stopped), every file of its data folder, its log, the review, the surface, an export, the signed
 * record, the share view.
 *
 * Like the secrets spec, this test starts its own workbench (a free loopback port, its own data
 * folder) so it can read everything that server writes and open its PGlite folder afterwards.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { expect, test, type Page } from "@playwright/test";
import { startOAuthDemo, type OAuthDemo } from "../../servers/knowledge-mcp-oauth";
import { OWNER_TOKEN } from "../support/auth";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA = path.resolve(ROOT, `${process.env.E2E_DATA_DIR ?? ".data-e2e"}-oauth-own`);
const bearer = { Authorization: `Bearer ${OWNER_TOKEN}` };

let server: ChildProcess;
let demo: OAuthDemo;
let base = "";
let log = "";

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fs.rmSync(DATA, { recursive: true, force: true });
  demo = await startOAuthDemo({ port: 0, authPort: 0, tokenTtlSeconds: 3600 });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      RELAY_REVIEW_DATA: DATA,
      RELAY_REVIEW_TOKEN: OWNER_TOKEN,
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (c: Buffer) => (log += c.toString("utf8")));
  server.stderr!.on("data", (c: Buffer) => (log += c.toString("utf8")));
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the workbench did not start:\n${log}`);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) server.kill("SIGTERM");
  await demo?.close();
});

async function inspect(page: Page, reviewId: string) {
  await page.goto(`${base}/reviews/${reviewId}?section=servers`);
  const panel = page.getByTestId("surface-kb");
  await panel.getByRole("button", { name: "Inspect knowledge-mcp (OAuth)" }).click();
  return panel;
}

/** On the demo's consent page: grant exactly `scopes`, as `subject`. */
async function consent(page: Page, scopes: readonly string[]) {
  await expect(page).toHaveURL(new RegExp(`^${demo.issuer}authorize`));
  await expect(page.getByRole("heading", { name: "Demo authorization server" })).toBeVisible();
  for (const s of ["knowledge:read", "knowledge:write"]) {
    const box = page.getByRole("checkbox", { name: new RegExp(`^${s}`) });
    if (scopes.includes(s)) await box.check();
    else await box.uncheck();
  }
  await page.getByRole("button", { name: "Approve" }).click();
}

test("[oauth]: Connect through the demo authorization server, inspect with the stored token, pin; the token is nowhere; Disconnect", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const signedIn = await page
    .context()
    .request.post(`${base}/api/auth/sign-in`, { data: { token: OWNER_TOKEN } });
  expect(signedIn.status()).toBe(204);
  const review = {
    schemaVersion: 2,
    title: "OAuth e2e",
    servers: [
      {
        id: "kb",
        name: "knowledge-mcp (OAuth)",
        transport: { kind: "http", url: demo.mcpUrl, headerEnv: {} },
        declaredTools: [{ name: "knowledge_search" }],
      },
    ],
    agents: [{ id: "agent", name: "Agent", tools: [{ serverId: "kb", tool: "knowledge_search" }] }],
  };
  const created = await page.request.post(`${base}/api/reviews`, {
    headers: bearer,
    data: { review },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // 1. The server answers 401: the inspection says so and the card offers Connect.
  let panel = await inspect(page, id);
  await expect(panel.getByTestId("inspect-error")).toBeVisible();
  const card = page.getByTestId("server-oauth-kb");
  await expect(card).toContainText("authorization required");

  // 2. Connect: to the authorization server's consent page, and back to the review.
  await card.getByRole("button", { name: "Connect knowledge-mcp (OAuth)" }).click();
  await consent(page, ["knowledge:read"]);
  await expect(page).toHaveURL(new RegExp(`^${base}/reviews/${id}`));
  await page.goto(`${base}/reviews/${id}?section=servers`);
  await expect(card).toContainText("connected");
  await expect(card.getByTestId("oauth-subject")).toHaveText("alice@example.com");
  await expect(card.getByTestId("oauth-scopes")).toHaveText("knowledge:read");
  await expect(card.getByTestId("oauth-expires")).toContainText("UTC");

  // 3. Inspect with the stored token, and pin.
  panel = await inspect(page, id);
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 4 tools, 0 resources, 1 templates, 0 prompts",
  );
  await panel.getByRole("button", { name: "Pin this surface" }).click();
  await expect(panel.getByTestId("pin-status")).toContainText("matches the pin");

  // The inspection recorded who connected and the granted scopes, never a token.
  const surface = await (
    await page.request.get(`${base}/api/reviews/${id}/servers/kb/surface`, { headers: bearer })
  ).text();

  // 4. The callback refuses a state it never issued, and a replay, with a page saying so.
  const unknown = await page.goto(`${base}/oauth/callback?state=forged-state&code=whatever`);
  await expect(page.getByRole("heading", { name: "Connection refused" })).toBeVisible();
  await expect(page.getByText("does not belong to any Connect started")).toBeVisible();
  expect(unknown?.status()).toBe(200); // the hand-over page; the refusal is the page it leads to

  // Reconnect, keep the callback URL, and present it a second time.
  await page.goto(`${base}/reviews/${id}?section=servers`);
  let callbackUrl = "";
  page.on("request", (r) => {
    if (r.url().startsWith(`${base}/oauth/callback?`)) callbackUrl = r.url();
  });
  await card.getByRole("button", { name: "Reconnect knowledge-mcp (OAuth)" }).click();
  await consent(page, ["knowledge:read"]);
  await expect(page).toHaveURL(new RegExp(`^${base}/reviews/${id}`));
  expect(callbackUrl).toContain("state=");
  await page.goto(callbackUrl);
  await expect(page.getByRole("heading", { name: "Connection refused" })).toBeVisible();
  await expect(page.getByText("was already used")).toBeVisible();

  // 5. Every answer that could carry a token: review, surface, OAuth state, a decision's export and record, the share view.
  const answers: string[] = [surface];
  for (const p of [`/api/reviews/${id}`, `/api/reviews/${id}/servers/kb/oauth`])
    answers.push(await (await page.request.get(`${base}${p}`, { headers: bearer })).text());
  const current = (await (
    await page.request.get(`${base}/api/reviews/${id}`, { headers: bearer })
  ).json()) as { revision: number };
  const decided = await page.request.post(`${base}/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: {
      baseRevision: current.revision,
      serverId: "kb",
      agentId: "agent",
      verdict: "approved",
      reviewer: "e2e",
      rationale: "read-only grant",
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  const did = ((await decided.json()) as { decision: { decision: { id: string } } }).decision
    .decision.id;
  for (const p of [`exports/client-config`, `record`]) {
    const r = await page.request.get(`${base}/api/reviews/${id}/decisions/${did}/${p}`, {
      headers: bearer,
    });
    expect(r.status(), await r.text()).toBe(200);
    answers.push(await r.text());
  }
  const link = await page.request.post(`${base}/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { token: shareToken } = (await link.json()) as { token: string };
  const guest = await page.context().browser()!.newContext();
  answers.push(await (await guest.request.get(`${base}/api/share/${shareToken}`)).text());
  const sharePage = await guest.newPage();
  await sharePage.goto(`${base}/share/${shareToken}`);
  await expect(sharePage.getByTestId("share-view")).toBeVisible();
  answers.push(await sharePage.content());
  await guest.close();
  await page.goto(`${base}/reviews/${id}?section=servers`);
  answers.push(await page.content());

  const tokens = demo.provider.issuedTokens();
  expect(tokens.length).toBeGreaterThanOrEqual(4); // two authorizations, access + refresh each
  for (const text of answers) for (const t of tokens) expect(text).not.toContain(t);

  // 6. Disconnect: the card offers Connect again and the stored state is gone.
  await card.getByRole("button", { name: "Disconnect knowledge-mcp (OAuth)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect", exact: true }).click();
  await expect(card).toContainText("not connected");
  const after = await page.request.get(`${base}/api/reviews/${id}/servers/kb/oauth`, {
    headers: bearer,
  });
  expect(await after.json()).toMatchObject({ state: "not_connected" });
  // Connect once more with a wider grant (knowledge:write on top, which Connect did not ask for):
  // the card shows it and the next inspection records it as evidence. (That it makes the decision
  // stale is the decision binding's part of issue 17, not wired yet.) The stopped store then still
  // holds sealed tokens to look for.
  await card.getByRole("button", { name: "Connect knowledge-mcp (OAuth)" }).click();
  await consent(page, ["knowledge:read", "knowledge:write"]);
  await expect(page).toHaveURL(new RegExp(`^${base}/reviews/${id}`));
  await page.goto(`${base}/reviews/${id}?section=servers`);
  await expect(card.getByTestId("oauth-scopes")).toHaveText("knowledge:read knowledge:write");
  panel = await inspect(page, id);
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 4 tools",
  );

  // 7. Stop the workbench cleanly, then read everything it left behind.
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
  const all = demo.provider.issuedTokens();
  for (const t of all) expect(log, "server log").not.toContain(t);
  const db = await PGlite.create(path.join(DATA, "pglite"));
  try {
    const tables = await db.query<{ s: string; t: string }>(
      "SELECT table_schema AS s, table_name AS t FROM information_schema.tables WHERE table_schema IN ('public', 'drizzle')",
    );
    let dump = "";
    for (const { s, t } of tables.rows)
      dump +=
        (await db.query<{ row: string }>(`SELECT x::text AS row FROM "${s}"."${t}" x`)).rows
          .map((r) => r.row)
          .join("\n") + "\n";
    // The dump is real: it holds the sealed row and the facts the card shows.
    expect(dump).toContain("alice@example.com");
    expect(dump).toContain("knowledge:read");
    const sealed = await db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM oauth_connections WHERE tokens_sealed IS NOT NULL",
    );
    expect(sealed.rows[0]?.n).toBe(1);
    const recorded = await db.query<{ a: string }>(
      "SELECT \"authorization\"::text AS a FROM inspections WHERE status = 'ok' ORDER BY inspected_at",
    );
    const grants = recorded.rows.map((r) => JSON.parse(r.a) as { scopes: string[] } | null);
    expect(grants.map((g) => g?.scopes)).toEqual([
      ["knowledge:read"],
      ["knowledge:read", "knowledge:write"],
    ]);
    for (const t of all) expect(dump, "database").not.toContain(t);
  } finally {
    await db.close();
  }
  const walk = (d: string): string[] =>
    fs
      .readdirSync(d)
      .flatMap((n) =>
        fs.statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)],
      );
  for (const f of walk(DATA))
    for (const t of all) expect(fs.readFileSync(f).includes(t), f).toBe(false);
});
