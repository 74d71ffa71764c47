/**
 * [oauth]: Connect in Chromium against the demo authorization server (servers/knowledge-mcp-oauth.ts,
 * both listeners on 127.0.0.1), inspect with the stored token, pin, decide; the card says who is
 * connected, with which granted scopes, until when; Disconnect revokes the tokens at the demo's
 * RFC 7009 endpoint, deletes the stored state and says so. A decision recorded in the UI goes stale
 * when a reconnect grants knowledge:write on top (named in the Decision section; export and signed
 * record refused), and stays current after a narrower grant. The callback refuses an unknown and
 * a replayed state with a page saying so. Every token the demo
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
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { startOAuthDemo, type OAuthDemo } from "../../servers/knowledge-mcp-oauth";
import { OWNER_TOKEN } from "../support/auth";
import { egressAllowFor } from "../../tests/support/egress";

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
      // The demo's two listeners, granted as an operator would (loopback needs its port named).
      RELAY_REVIEW_EGRESS_ALLOW: egressAllowFor(demo.mcpUrl, demo.issuer),
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

/** The owner's sign-in link, in the browser: the session's proof must reach this origin's storage. */
const signIn = async (page: Page) => {
  await page.goto(`${base}/sign-in?next=%2F#token=${encodeURIComponent(OWNER_TOKEN)}`);
  await page.waitForURL((u) => u.pathname === "/");
};

/** Reconnect through the card, granting exactly `scopes`, then inspect with the new token. */
async function reconnectAndInspect(page: Page, reviewId: string, scopes: readonly string[]) {
  await page.goto(`${base}/reviews/${reviewId}?section=servers`);
  const card = page.getByTestId("server-oauth-kb");
  await card.getByRole("button", { name: "Reconnect knowledge-mcp (OAuth)" }).click();
  await consent(page, scopes);
  await expect(page).toHaveURL(new RegExp(`^${base}/reviews/${reviewId}`));
  await page.goto(`${base}/reviews/${reviewId}?section=servers`);
  await expect(card.getByTestId("oauth-scopes")).toHaveText(scopes.join(" "));
  const panel = await inspect(page, reviewId);
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 4 tools",
  );
  await expect(panel.getByTestId("pin-status")).toContainText("matches the pin");
}

/** Record an approved decision for kb into the agent in the Decision section; returns its card. */
async function decideInUi(page: Page, reviewId: string, rationale: string) {
  await page.goto(`${base}/reviews/${reviewId}?section=decision`);
  const form = page.getByRole("form", { name: "Decide" });
  await form.getByLabel("Server").selectOption("kb");
  await form.getByLabel("Into agent").selectOption("agent");
  await form.getByLabel("Approved", { exact: true }).check();
  await form.getByLabel("Reviewer").fill("R. Reviewer");
  await form.getByLabel("Rationale").fill(rationale);
  await form.getByRole("button", { name: "Record decision" }).click();
  await expect(form.getByTestId("decide-message")).toContainText("saved as revision");
  const card = page.locator("[data-decision-id]").filter({ hasText: rationale });
  await expect(card.getByTestId("decision-status")).toHaveAttribute("data-state", "current");
  return card;
}

test("[oauth]: a wider grant on reconnect makes a decision stale, naming the added scope; a narrower one does not", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
  const created = await page.request.post(`${base}/api/reviews`, {
    headers: bearer,
    data: {
      review: {
        schemaVersion: 2,
        title: "OAuth grant staleness",
        servers: [
          {
            id: "kb",
            name: "knowledge-mcp (OAuth)",
            transport: { kind: "http", url: demo.mcpUrl, headerEnv: {} },
            declaredTools: [{ name: "knowledge_search" }],
          },
        ],
        agents: [
          { id: "agent", name: "Agent", tools: [{ serverId: "kb", tool: "knowledge_search" }] },
        ],
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // Connect granting knowledge:read only, inspect, pin.
  let panel = await inspect(page, id);
  await expect(panel.getByTestId("inspect-error")).toBeVisible();
  const oauthCard = page.getByTestId("server-oauth-kb");
  await oauthCard.getByRole("button", { name: "Connect knowledge-mcp (OAuth)" }).click();
  await consent(page, ["knowledge:read"]);
  await expect(page).toHaveURL(new RegExp(`^${base}/reviews/${id}`));
  panel = await inspect(page, id);
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 4 tools",
  );
  await panel.getByRole("button", { name: "Pin this surface" }).click();
  await expect(panel.getByTestId("pin-status")).toContainText("matches the pin");

  // An approved decision, recorded in the UI, binds the grant {knowledge:read}.
  const first = await decideInUi(page, id, "Read-only grant: knowledge:read.");
  const firstId = await first.getAttribute("data-decision-id");

  // Reconnect granting knowledge:write on top, inspect again: the decision is stale, naming it.
  await reconnectAndInspect(page, id, ["knowledge:read", "knowledge:write"]);
  await page.goto(`${base}/reviews/${id}?section=decision`);
  const status = first.getByTestId("decision-status");
  await expect(status).toHaveAttribute("data-state", "stale");
  await expect(status).toContainText("STALE: decide again.");
  const grant = status.locator('[data-what="granted_scopes"]');
  await expect(grant).toContainText("OAuth grant");
  await expect(grant).toContainText(
    "knowledge-mcp (OAuth): the OAuth grant widened: +knowledge:write",
  );
  // Only the grant changed: the surface, pin, tool set and controls are as decided.
  await expect(status.locator("li")).toHaveCount(1);
  await expect(first.getByRole("button", { name: "Download signed record (JSON)" })).toBeDisabled();
  await expect(
    first.getByRole("button", { name: "Client config through the gate (JSON)" }),
  ).toBeDisabled();
  for (const p of ["record", "exports/client-config"]) {
    const r = await page.request.get(`${base}/api/reviews/${id}/decisions/${firstId}/${p}`, {
      headers: bearer,
    });
    expect(r.status(), p).toBe(409);
    expect(await r.text(), p).toContain("the OAuth grant widened: +knowledge:write");
  }

  // Decide again on the wider grant; then a narrower grant (knowledge:read only) keeps it current.
  const second = await decideInUi(page, id, "Re-reviewed with knowledge:write granted.");
  const secondId = await second.getAttribute("data-decision-id");
  await reconnectAndInspect(page, id, ["knowledge:read"]);
  await page.goto(`${base}/reviews/${id}?section=decision`);
  await expect(second.getByTestId("decision-status")).toHaveAttribute("data-state", "current");
  // The second decision for the same server and agent superseded the first: shown so, not in force.
  // Its own status is still computed against the current grant: back to knowledge:read, the
  // first decision's grant holds again, so it reads current.
  await expect(first.getByTestId("decision-status")).toHaveAttribute("data-state", "superseded");
  const listed = (await (
    await page.request.get(`${base}/api/reviews/${id}/decisions`, { headers: bearer })
  ).json()) as {
    decisions: { supersededBy?: string | null; status: { state: string } }[];
  };
  expect(listed.decisions.map((d) => [d.status.state, d.supersededBy ?? null])).toEqual([
    ["current", secondId],
    ["current", null],
  ]);
  const record = await page.request.get(`${base}/api/reviews/${id}/decisions/${secondId}/record`, {
    headers: bearer,
  });
  expect(record.status(), await record.text()).toBe(200);

  // Disconnect: the demo revokes both tokens, and the card says so.
  await page.goto(`${base}/reviews/${id}?section=servers`);
  const revocationsBefore = demo.provider.revocations();
  await oauthCard.getByRole("button", { name: "Disconnect knowledge-mcp (OAuth)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect", exact: true }).click();
  await expect(oauthCard.getByTestId("oauth-disconnect-outcome")).toHaveText(
    `revoked Disconnected. The authorization server (${demo.issuer}revoke) revoked the refresh token and the access token, and the workbench deleted them.`,
  );
  await expect(oauthCard).toContainText("not connected");
  expect(demo.provider.revocations() - revocationsBefore).toBe(2);
});

test("[oauth]: Connect through the demo authorization server, inspect with the stored token, pin; the token is nowhere; Disconnect", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signIn(page);
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

  // 6. Disconnect: the demo is told to revoke, the card says so, offers Connect again, and the stored state is gone.
  await card.getByRole("button", { name: "Disconnect knowledge-mcp (OAuth)" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Disconnect", exact: true }).click();
  await expect(card.getByTestId("oauth-disconnect-outcome")).toContainText(
    "revoked the refresh token and the access token",
  );
  await expect(card).toContainText("not connected");
  answers.push(await page.content()); // the outcome names the endpoint, never a token
  for (const t of demo.provider.issuedTokens()) expect(answers.at(-1)).not.toContain(t);
  const after = await page.request.get(`${base}/api/reviews/${id}/servers/kb/oauth`, {
    headers: bearer,
  });
  expect(await after.json()).toMatchObject({ state: "not_connected" });
  // Connect once more with a wider grant (knowledge:write on top, which Connect did not ask for):
  // the card shows it and the next inspection records it as evidence (the test above shows it
  // making a decision stale). The stopped store then still holds sealed tokens to look for.
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
      "SELECT \"authorization\"::text AS a FROM inspections WHERE status = 'ok' AND review_id = $1 ORDER BY inspected_at",
      [id],
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
