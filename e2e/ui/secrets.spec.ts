/**
 * [secrets]: a value set on the Secrets page is used by the very next inspection, with no
 * restart, rotated and deleted the same way; and the value is nowhere: not in any table of the
 * database, any file of the data folder, the server's log, an export, the share view or any API
 * answer. The probe fixture (tests/fixtures/servers/secret-probe.ts) reports only the SHA-256 of
 * what it received, so the test can tell which value an inspection used.
 *
 * This test starts its own workbench (a free loopback port, its own data folder) so it can read
 * everything that server writes to stdout and stderr, and open its PGlite folder once it stopped.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import type { Page } from "@playwright/test";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { OWNER_TOKEN } from "../support/auth";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DATA = path.resolve(ROOT, `${process.env.E2E_DATA_DIR ?? ".data-e2e"}-secrets-own`);
const VALUE_1 = `sk-e2e-${randomBytes(18).toString("hex")}`;
const VALUE_2 = `sk-e2e-${randomBytes(18).toString("hex")}`;
const sha = (v: string) => createHash("sha256").update(v, "utf8").digest("hex");
const PROBE_ARGS = ["--import", "tsx", "tests/fixtures/servers/secret-probe.ts"];

let server: ChildProcess;
let base = "";
let log = "";
const bearer = { Authorization: `Bearer ${OWNER_TOKEN}` };

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
      RELAY_REVIEW_ALLOW_FIXTURES: "1",
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout!.on("data", (c: Buffer) => (log += c.toString("utf8")));
  server.stderr!.on("data", (c: Buffer) => (log += c.toString("utf8")));
  for (let i = 0; i < 240; i++) {
    try {
      // Any answer means it is up (the health route, like every route, wants the owner).
      if ((await fetch(`${base}/api/health`)).status < 500) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the workbench did not start:\n${log}`);
});

test.afterAll(() => {
  if (server && server.exitCode === null) server.kill("SIGTERM");
});

/** The owner's sign-in link, in the browser: the session's proof must reach this origin's storage. */
async function signInAt(page: Page) {
  await page.goto(`${base}/sign-in?next=%2F#token=${encodeURIComponent(OWNER_TOKEN)}`);
  await page.waitForURL((u) => u.pathname === "/");
}

async function inspect(page: Page, reviewId: string) {
  await page.goto(`${base}/reviews/${reviewId}?section=servers`);
  const panel = page.getByTestId("surface-probe");
  await panel.getByRole("button", { name: "Inspect secret-probe" }).click();
  return panel;
}

async function setOnSecretsPage(
  page: Page,
  name: string,
  value: string,
  verb: "saved" | "replaced",
) {
  await page
    .getByRole("navigation", { name: "Main" })
    .getByRole("link", { name: "Secrets" })
    .click();
  await expect(page).toHaveURL(`${base}/secrets`);
  const form = page.getByRole("form", { name: "Set a secret" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Value").fill(value);
  await form.getByRole("button", { name: "Save secret" }).click();
  await expect(form.getByRole("status")).toContainText(`${name} ${verb}`);
  // Write-only: the field is cleared and the page holds no value.
  await expect(form.getByLabel("Value")).toHaveValue("");
  expect(await page.content()).not.toContain(value);
}

test("[secrets]: set in the UI, used by the next inspection with no restart, rotated, deleted; the value is nowhere", async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInAt(page);
  const review = {
    schemaVersion: 2,
    title: "Secrets e2e",
    servers: [
      {
        id: "probe",
        name: "secret-probe",
        transport: {
          kind: "stdio",
          command: "node",
          args: PROBE_ARGS,
          envNames: ["SECRET_PROBE_TOKEN"],
        },
        declaredTools: [{ name: "secret_probe" }],
      },
    ],
    agents: [{ id: "agent", name: "Agent", tools: [{ serverId: "probe", tool: "secret_probe" }] }],
  };
  const created = await page.request.post(`${base}/api/reviews`, {
    headers: bearer,
    data: { review },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // Before: the card names what the server needs; the inspection is refused, pointing at the Secrets page.
  let panel = await inspect(page, id);
  const vars = page.getByTestId("server-variables-probe");
  await expect(vars.locator('[data-variable="SECRET_PROBE_TOKEN"]')).toHaveAttribute(
    "data-state",
    "unset",
  );
  await expect(vars.locator('[data-variable="SECRET_PROBE_MODE"]')).toHaveAttribute(
    "data-state",
    "launcher",
  );
  const refused = panel.getByTestId("inspect-refused");
  await expect(refused).toContainText("the variable SECRET_PROBE_TOKEN is not set");
  await expect(
    refused.getByRole("link", { name: "Set the value on the Secrets page" }),
  ).toHaveAttribute("href", "/secrets");

  // Set it in the UI; the next inspection uses it.
  await setOnSecretsPage(page, "SECRET_PROBE_TOKEN", VALUE_1, "saved");
  const row = page.getByTestId("secret-names").locator('[data-secret-name="SECRET_PROBE_TOKEN"]');
  await expect(row).toContainText("launcher secret-probe");
  panel = await inspect(page, id);
  await expect(
    page.getByTestId("server-variables-probe").locator('[data-variable="SECRET_PROBE_TOKEN"]'),
  ).toHaveAttribute("data-state", "secret");
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 1 tools",
  );
  const surface = async () =>
    (
      await page.request.get(`${base}/api/reviews/${id}/servers/probe/surface`, { headers: bearer })
    ).text();
  await expect.poll(surface).toContain(`SECRET_PROBE_TOKEN sha256=${sha(VALUE_1)}`);
  const described = await surface();
  expect(described).toContain("SECRET_PROBE_MODE=hash-only");
  expect(described).toContain("workbench variables seen: none");

  // Rotate: set again; the next inspection gets the new value.
  await setOnSecretsPage(page, "SECRET_PROBE_TOKEN", VALUE_2, "replaced");
  panel = await inspect(page, id);
  await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
    "Settled: 1 tools",
  );
  await expect.poll(surface).toContain(`SECRET_PROBE_TOKEN sha256=${sha(VALUE_2)}`);

  // Every answer that could carry it: the secrets list, the inspection record, a decision's export, a share link.
  const answers: string[] = [described, await surface()];
  const listed = await page.request.get(`${base}/api/secrets`, { headers: bearer });
  answers.push(await listed.text());
  expect(await listed.text()).toContain('"name":"SECRET_PROBE_TOKEN","set":true');
  const current = (await (
    await page.request.get(`${base}/api/reviews/${id}`, { headers: bearer })
  ).json()) as { revision: number };
  const decided = await page.request.post(`${base}/api/reviews/${id}/decisions`, {
    headers: bearer,
    data: {
      baseRevision: current.revision,
      serverId: "probe",
      agentId: "agent",
      verdict: "approved",
      reviewer: "e2e",
      rationale: "probe only",
    },
  });
  expect(decided.status(), await decided.text()).toBe(201);
  const did = ((await decided.json()) as { decision: { decision: { id: string } } }).decision
    .decision.id;
  const exported = await page.request.get(
    `${base}/api/reviews/${id}/decisions/${did}/exports/client-config`,
    { headers: bearer },
  );
  expect(exported.status(), await exported.text()).toBe(200);
  const exportText = await exported.text();
  expect(exportText).toContain("${SECRET_PROBE_TOKEN}");
  answers.push(
    exportText,
    await (
      await page.request.get(`${base}/api/reviews/${id}/decisions/${did}/record`, {
        headers: bearer,
      })
    ).text(),
  );
  const link = await page.request.post(`${base}/api/reviews/${id}/share-links`, {
    headers: bearer,
    data: { frozen: false },
  });
  expect(link.status(), await link.text()).toBe(201);
  const { token } = (await link.json()) as { token: string };
  const guest = await page.context().browser()!.newContext();
  const shareApi = await (await guest.request.get(`${base}/api/share/${token}`)).text();
  const sharedProbe = (
    JSON.parse(shareApi) as { review: { servers: { id: string; transport: unknown }[] } }
  ).review.servers.find((s) => s.id === "probe");
  // The share view shows transports as the record does: kind, the command's base name, variable names; no arguments.
  expect(sharedProbe?.transport).toEqual({
    kind: "stdio",
    command: "node",
    origin: null,
    envNames: ["SECRET_PROBE_TOKEN"],
    headerEnv: {},
  });
  const sharePage = await guest.newPage();
  await sharePage.goto(`${base}/share/${token}`);
  await expect(sharePage.getByTestId("share-view")).toBeVisible();
  answers.push(shareApi, await sharePage.content());
  await guest.close();

  // Delete in the UI; the next inspection is refused again.
  await page.goto(`${base}/secrets`);
  await page.getByRole("button", { name: "Delete SECRET_PROBE_TOKEN" }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: "Delete secret", exact: true })
    .click();
  await expect(page.getByRole("status")).toContainText("SECRET_PROBE_TOKEN deleted");
  panel = await inspect(page, id);
  await expect(panel.getByTestId("inspect-refused")).toContainText(
    "the variable SECRET_PROBE_TOKEN is not set",
  );
  // Set once more, so the stopped store still holds a sealed value to look for.
  await setOnSecretsPage(page, "SECRET_PROBE_TOKEN", VALUE_2, "saved");

  for (const text of answers) for (const v of [VALUE_1, VALUE_2]) expect(text).not.toContain(v);

  // Stop the workbench cleanly, then read everything it left behind.
  const exited = new Promise((r) => server.once("exit", r));
  server.kill("SIGTERM");
  await exited;
  for (const v of [VALUE_1, VALUE_2]) expect(log, "server log").not.toContain(v);
  expect(log).toContain("relay-review: store: PGlite");

  const db = await PGlite.create(path.join(DATA, "pglite"));
  try {
    const tables = await db.query<{ t: string }>(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'",
    );
    let dump = "";
    for (const { t } of tables.rows)
      dump +=
        (await db.query<{ row: string }>(`SELECT x::text AS row FROM "${t}" x`)).rows
          .map((r) => r.row)
          .join("\n") + "\n";
    // The dump is real: it holds the name, the sealed row and the hash the probe reported.
    expect(dump).toContain("SECRET_PROBE_TOKEN");
    expect(dump).toContain(sha(VALUE_2));
    // Which inspection used which secret: recorded by name and source.
    const used = await db.query<{ v: string }>(
      "SELECT variables::text AS v FROM inspections WHERE status = 'ok'",
    );
    expect(used.rows.map((r) => r.v)).toEqual([
      '[{"name": "SECRET_PROBE_MODE", "source": "launcher"}, {"name": "SECRET_PROBE_TOKEN", "source": "secret"}]',
      '[{"name": "SECRET_PROBE_MODE", "source": "launcher"}, {"name": "SECRET_PROBE_TOKEN", "source": "secret"}]',
    ]);
    for (const v of [VALUE_1, VALUE_2]) expect(dump, "database").not.toContain(v);
  } finally {
    await db.close();
  }
  const walk = (d: string): string[] =>
    fs
      .readdirSync(d)
      .flatMap((n) =>
        fs.statSync(path.join(d, n)).isDirectory() ? walk(path.join(d, n)) : [path.join(d, n)],
      );
  const files = walk(DATA);
  expect(files).toContain(path.join(DATA, "secret-key"));
  expect(fs.statSync(path.join(DATA, "secret-key")).mode & 0o777).toBe(0o600);
  for (const f of files)
    for (const v of [VALUE_1, VALUE_2]) expect(fs.readFileSync(f).includes(v), f).toBe(false);

  // A start with a key that cannot open what is stored stops, saying why and what to do.
  const wrong = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      RELAY_REVIEW_DATA: DATA,
      RELAY_REVIEW_TOKEN: OWNER_TOKEN,
      RELAY_REVIEW_SECRET_KEY: randomBytes(32).toString("base64"),
      DATABASE_URL: "",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let wrongLog = "";
  wrong.stdout.on("data", (c: Buffer) => (wrongLog += c.toString("utf8")));
  wrong.stderr.on("data", (c: Buffer) => (wrongLog += c.toString("utf8")));
  const code = await new Promise<number | null>((r) => wrong.once("exit", (c) => r(c)));
  expect(code).toBe(1);
  expect(wrongLog).toMatch(
    /relay-review: cannot start: 1 of the 1 stored secret\(s\) were sealed under another key .*RELAY_REVIEW_SECRET_KEY or RELAY_REVIEW_SECRET_KEY_FILE/,
  );
});
