/**
 * The sandbox through the web app: the hostile sandbox-probe fixture, allowlisted in the owner's
 * launchers.json and inspected from the review page, gets none of the data folder, the host's
 * /tmp, secret variables, the database port, the workbench's own port or this machine's own
 * interface addresses, and what it tried is shown beside its surface, as text. Granted egress to a
 * local server, it reaches that one only, through the workbench's proxy, and each request shows.
 * Only loopback and this host's own interface addresses are attempted.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
// Every test here also has its final state checked with axe (serious or critical fails).
import { expect, test } from "../support/axe";
import { bearer, signIn } from "../support/auth";
import { createDemoReview, editReview } from "../support/surface";

const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e");
const PROBE_ARGS = ["--import", "tsx", "tests/fixtures/servers/sandbox-probe.ts"];

const ownAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && a.family === "IPv4")
    .map((a) => a.address);

test.beforeEach(async ({ context }) => {
  await signIn(context);
});

test("[sandbox]: a hostile stdio server inspected from the review page gets nothing, and its attempts are shown beside the surface", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const hostTmpFile = path.join(tmpdir(), `rr-e2e-sandbox-${process.pid}.txt`);
  writeFileSync(hostTmpFile, "a file in the host's /tmp\n");
  const signingKey = path.join(DATA_DIR, "signing-key.pem");
  const ownerToken = path.join(DATA_DIR, "owner-token");
  const targets = [`127.0.0.1:${PORT}`, ...ownAddresses().map((a) => `${a}:${PORT}`)];
  const probe = Buffer.from(
    JSON.stringify({
      files: [signingKey, ownerToken, hostTmpFile],
      dirs: [DATA_DIR],
      connect: targets,
    }),
  ).toString("base64url");
  const args = [...PROBE_ARGS, `--probe=${probe}`];
  // The owner's own allowlist (read on every inspection, no restart).
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(
    path.join(DATA_DIR, "launchers.json"),
    JSON.stringify({ version: 1, launchers: [{ id: "e2e-sandbox-probe", command: "node", args }] }),
  );
  try {
    const { id } = await createDemoReview(page.request);
    await editReview(page.request, id, (r) => {
      r.servers.push({
        id: "probe",
        name: "probe",
        transport: { kind: "stdio", command: "node", args, envNames: [] },
        pin: null,
      });
    });
    await page.goto(`/reviews/${id}?section=servers`);
    const panel = page.getByTestId("surface-probe");
    await panel.getByRole("button", { name: "Inspect probe" }).click();
    await expect(panel.getByRole("list", { name: "Inspection progress" })).toContainText(
      "Initialized: sandbox-probe 1.0.0",
    );

    // What the server itself says it got (its tools' descriptions): nothing.
    await expect(
      panel.getByRole("list", { name: "tools" }).getByRole("listitem").first(),
    ).toBeVisible();
    const view = (await (
      await page.request.get(`/api/reviews/${id}/servers/probe/surface`, { headers: bearer })
    ).json()) as {
      current: { snapshot: { tools: Array<{ name: string; description: string }> } };
    };
    const said = view.current.snapshot.tools.map((t) => t.description);
    expect(said.length).toBeGreaterThan(10);
    expect(said.filter((d) => d.includes("GOT"))).toEqual([]);
    expect(said).toContain("env RELAY_REVIEW_TOKEN: unset");

    // What the sandbox recorded, beside the surface.
    const report = panel.getByTestId("sandbox-report");
    await expect(report).toContainText("bubblewrap");
    await expect(report.getByTestId("sandbox-limits")).toContainText("memory 1024 MiB");
    const attempts = report.getByRole("table", { name: "What the server tried" });
    const row = (what: string) => attempts.getByRole("row").filter({ hasText: what });
    await expect(row(signingKey)).toContainText("ENOENT");
    await expect(row(ownerToken)).toContainText("ENOENT");
    await expect(row(hostTmpFile)).toContainText("ENOENT");
    await expect(row("127.0.0.1:5432")).toContainText("ECONNREFUSED");
    await expect(row(`127.0.0.1:${PORT}`)).toContainText("ECONNREFUSED");
    for (const a of ownAddresses()) await expect(row(`${a}:${PORT}`)).toContainText("ENETUNREACH");
    await expect(row("node_modules/.sandbox-probe")).toContainText("EROFS");
    await report.screenshot({ path: "test-results/sandbox-report.png" });

    // The attempts are stored with the inspection: a reload shows them again.
    await page.reload();
    await expect(
      page
        .getByTestId("surface-probe")
        .getByTestId("sandbox-report")
        .getByRole("row")
        .filter({ hasText: signingKey }),
    ).toContainText("ENOENT");
    // The opt-out banner is absent while the sandbox is on.
    await expect(page.getByTestId("unsandboxed-banner")).toHaveCount(0);
  } finally {
    rmSync(hostTmpFile, { force: true });
    rmSync(path.join(DATA_DIR, "launchers.json"), { force: true });
  }
});

test("[sandbox]: a server granted egress reaches only its grant through the workbench's proxy, and every request is shown beside the surface", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Two local HTTP servers: one granted by the launcher, one not. Loopback only.
  let hits = { granted: 0, other: 0 };
  const listen = (name: "granted" | "other") =>
    new Promise<{ server: Server; port: number }>((resolve) => {
      const server = createServer((_req, res) => {
        hits = { ...hits, [name]: hits[name] + 1 };
        res.writeHead(200, { "content-length": "9" });
        res.end(`${name.slice(0, 7).padEnd(8, "!")}\n`);
      });
      server.listen(0, "127.0.0.1", () =>
        resolve({ server, port: (server.address() as { port: number }).port }),
      );
    });
  const granted = await listen("granted");
  const other = await listen("other");
  const g = `127.0.0.1:${granted.port}`;
  const o = `127.0.0.1:${other.port}`;
  const probe = Buffer.from(
    JSON.stringify({ proxyGet: [`http://${g}/`, `http://${o}/`], proxyConnect: [g] }),
  ).toString("base64url");
  const args = [...PROBE_ARGS, `--probe=${probe}`];
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(
    path.join(DATA_DIR, "launchers.json"),
    JSON.stringify({
      version: 1,
      launchers: [{ id: "e2e-egress-probe", command: "node", args, sandbox: { egress: [g] } }],
    }),
  );
  try {
    const { id } = await createDemoReview(page.request);
    await editReview(page.request, id, (r) => {
      r.servers.push({
        id: "probe",
        name: "probe",
        transport: { kind: "stdio", command: "node", args, envNames: [] },
        pin: null,
      });
    });
    await page.goto(`/reviews/${id}?section=servers`);
    const panel = page.getByTestId("surface-probe");
    await panel.getByRole("button", { name: "Inspect probe" }).click();
    const egress = panel.getByTestId("sandbox-egress");
    await expect(egress.getByTestId("sandbox-egress-grants")).toHaveText(g);
    const table = egress.getByRole("table", { name: "Egress through the workbench's proxy" });
    const row = (via: string, target: string, decision: string) =>
      table
        .getByRole("row")
        .filter({ has: page.getByRole("cell", { name: via, exact: true }) })
        .filter({ hasText: target })
        .filter({ hasText: decision });
    await expect(row("GET", g, "allowed")).toContainText(`granted by ${g}`);
    await expect(row("CONNECT", g, "allowed")).toContainText(`granted by ${g}`);
    await expect(row("GET", o, "refused")).toContainText(`no grant names ${o} (loopback)`);
    await expect(panel.getByTestId("sandbox-report")).toContainText(
      "egress only through the workbench's proxy",
    );
    await egress.screenshot({ path: "test-results/sandbox-egress.png" });
    expect(hits).toEqual({ granted: 2, other: 0 });
  } finally {
    granted.server.close();
    other.server.close();
    rmSync(path.join(DATA_DIR, "launchers.json"), { force: true });
  }
});
