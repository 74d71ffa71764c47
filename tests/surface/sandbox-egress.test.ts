/**
 * Named egress for a sandboxed stdio server, for real: the sandbox-probe fixture runs under
 * bubblewrap with a launcher granting `127.0.0.1:<port of a local HTTP server>` explicitly, and
 * reaches it through the workbench's proxy (an absolute-URI GET, a CONNECT tunnel, and undici's
 * EnvHttpProxyAgent); a second local server it was not granted gets no request; a direct
 * connection that ignores the proxy variables reaches nothing. Every attempt, allowed or refused,
 * is in the inspection's stored sandbox report. Loopback only, never an outside address.
 */
import { mkdtempSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import { sandboxStatus } from "@/lib/sandbox/node/sandbox";
import type { SandboxReport } from "@/lib/sandbox/plan";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { getSnapshot, latestInspection } from "@/lib/store/snapshots";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { ROOT } from "./helpers";

const PROBE = ["--import", "tsx", "tests/fixtures/servers/sandbox-probe.ts"];

/** A local HTTP server that answers `hello from <name>` and counts what reached it. */
function httpServer(name: string): Promise<{ server: Server; port: number; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    hits++;
    const body = `hello from ${name} ${req.method} ${req.url}\n`;
    res.writeHead(200, { "content-type": "text/plain", "content-length": Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, port: (server.address() as { port: number }).port, hits: () => hits }),
    );
  });
}

const egressDirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith("relay-review-egress-"));

describe(
  "named egress from the sandbox, enforced by the workbench's proxy",
  { timeout: 90_000 },
  () => {
    let store: Store;
    let base: string;
    let dataDir: string;
    let granted: Awaited<ReturnType<typeof httpServer>>;
    let other: Awaited<ReturnType<typeof httpServer>>;
    let env: Record<string, string>;

    const writeLaunchers = (launchers: unknown[]) =>
      writeFileSync(
        path.join(dataDir, "launchers.json"),
        JSON.stringify({ version: 1, launchers }),
      );

    const reviewOf = async (args: string[]) =>
      (
        await createReview(
          store.db,
          {
            schemaVersion: REVIEW_SCHEMA_VERSION,
            title: "egress probe",
            servers: [
              {
                id: "probe",
                name: "probe",
                transport: { kind: "stdio", command: "node", args, envNames: [] },
              },
            ],
          },
          "t",
        )
      ).id;

    beforeAll(async () => {
      base = mkdtempSync(path.join(tmpdir(), "rr-egress-"));
      dataDir = path.join(base, "data");
      mkdirSync(dataDir);
      granted = await httpServer("granted");
      other = await httpServer("other");
      env = {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        RELAY_REVIEW_ROOT: ROOT,
        RELAY_REVIEW_DATA: dataDir,
      };
      store = await openStore({ target: { kind: "pglite", dataDir: path.join(base, "pglite") } });
    });
    afterAll(async () => {
      await store?.close();
      granted?.server.close();
      other?.server.close();
      rmSync(base, { recursive: true, force: true });
    });

    test("this machine can grant egress (bubblewrap, strace and socat)", () => {
      const s = sandboxStatus();
      expect(s.ok ? { strace: !!s.tools.strace, socat: !!s.tools.socat } : s).toEqual({
        strace: true,
        socat: true,
      });
    });

    test("the granted address is reached through the proxy; an address not granted, a name on another port and a direct connection are not; all of it is recorded", async () => {
      const g = `127.0.0.1:${granted.port}`;
      const o = `127.0.0.1:${other.port}`;
      const probe = {
        connect: [g],
        proxyGet: [`http://${g}/via-get`, `http://${o}/via-get`, `http://localhost:${other.port}/`],
        proxyConnect: [g, o],
        fetch: [`http://${g}/via-fetch`],
      };
      const args = [
        ...PROBE,
        `--probe=${Buffer.from(JSON.stringify(probe)).toString("base64url")}`,
      ];
      writeLaunchers([{ id: "egress-probe", command: "node", args, sandbox: { egress: [g] } }]);
      const id = await reviewOf(args);
      const dirsBefore = egressDirs();

      const prepared = await prepareInspection(store.db, id, "probe" as ServerId, env);
      if (!prepared.ok) throw new Error(prepared.error.message);
      expect(
        prepared.target.kind === "stdio" && prepared.target.sandbox?.plan.egress?.grants,
      ).toEqual([g]);
      const line = await runInspection(store.db, prepared, {
        limits: { connectTimeoutMs: 30_000 },
      });
      expect(line.ok ? null : line.error).toBeNull();

      const inspection = await latestInspection(store.db, id, "probe");
      const snapshot = (await getSnapshot(store.db, inspection!.snapshotSha256!))!.document as {
        tools: Array<{ name: string; description: string }>;
      };
      const said = Object.fromEntries(snapshot.tools.map((t) => [t.name, t.description]));
      expect(said).toMatchObject({
        // The granted server, three ways.
        proxy_get_0: `proxy GET http://${g}/via-get: 200 hello from granted GET /via-get`,
        proxy_connect_0: `proxy CONNECT ${g}: tunnel 200 hello from granted GET /`,
        fetch_0: `fetch http://${g}/via-fetch: 200 hello from granted GET /via-fetch`,
        // Not granted: refused with the reason, by the proxy.
        proxy_get_1: `proxy GET http://${o}/via-get: 403 relay-review egress refused: no grant names ${o} (loopback)`,
        proxy_connect_1: `proxy CONNECT ${o}: 403 relay-review egress refused: no grant names ${o} (loopback)`,
        // A name on a port no grant names is refused without being resolved.
        proxy_get_2: `proxy GET http://localhost:${other.port}/: 403 relay-review egress refused: no grant names localhost:${other.port}`,
        // Ignoring the proxy reaches only the sandbox's own loopback: fail closed.
        connect_2: `connect ${g}: ECONNREFUSED`,
      });
      // What the two servers saw, counted on their side.
      expect(granted.hits()).toBe(3);
      expect(other.hits()).toBe(0);

      const report = inspection!.sandbox as SandboxReport;
      if (!report.sandboxed) throw new Error("not sandboxed");
      expect(report.network).toBe("loopback only");
      expect(report.egress?.grants).toEqual([g]);
      expect(report.egress?.proxy).toBe("http://127.0.0.1:3128");
      const attempts = report.egress!.attempts.map(
        (a) =>
          `${a.via} ${a.target} ${a.decision}: ${a.reason}${a.outcome ? ` (${a.outcome})` : ""}`,
      );
      expect(attempts).toEqual(
        expect.arrayContaining([
          `GET ${g} allowed: granted by ${g} (closed)`,
          `CONNECT ${g} allowed: granted by ${g} (closed)`,
          `GET ${o} refused: no grant names ${o} (loopback)`,
          `CONNECT ${o} refused: no grant names ${o} (loopback)`,
          `GET localhost:${other.port} refused: no grant names localhost:${other.port}`,
        ]),
      );
      const allowed = report.egress!.attempts.filter((a) => a.decision === "allowed");
      expect(allowed.reduce((n, a) => n + a.count, 0)).toBe(3);
      for (const a of allowed) {
        expect(a.address).toBe("127.0.0.1");
        expect(a.bytesReceived).toBeGreaterThan(0);
      }
      // strace's side: the direct connection failed; the proxy port answered on the sandbox's loopback;
      // the forwarder's own plumbing is not listed as the server's.
      const traced = report.attempts.map((a) => `${a.kind} ${a.target} ${a.result}`);
      expect(traced).toContain(`connect ${g} ECONNREFUSED`);
      expect(traced).toContain("connect 127.0.0.1:3128 ok");
      expect(traced.filter((t) => t.includes("egress.sock"))).toEqual([]);
      expect(traced.filter((t) => t.includes("socat"))).toEqual([]);
      // The proxy's socket and its directory are gone with the run.
      expect(egressDirs().filter((d) => !dirsBefore.includes(d))).toEqual([]);
    });

    test("a grant of everything (0.0.0.0/0, [::/0]) never reaches the host's loopback through 0.0.0.0 or ::, and the report says why (issue 28, finding 1)", async () => {
      const port = other.port;
      const probe = {
        proxyConnect: [`0.0.0.0:${port}`, `[::ffff:0.0.0.0]:${port}`, `[::]:${port}`],
      };
      const args = [
        ...PROBE,
        `--probe=${Buffer.from(JSON.stringify(probe)).toString("base64url")}`,
      ];
      const grants = [`0.0.0.0/0:${port}`, `[::/0]:${port}`];
      writeLaunchers([{ id: "everything", command: "node", args, sandbox: { egress: grants } }]);
      const id = await reviewOf(args);
      const before = other.hits();
      const prepared = await prepareInspection(store.db, id, "probe" as ServerId, env);
      if (!prepared.ok) throw new Error(prepared.error.message);
      const line = await runInspection(store.db, prepared, {
        limits: { connectTimeoutMs: 30_000 },
      });
      expect(line.ok ? null : line.error).toBeNull();
      const inspection = await latestInspection(store.db, id, "probe");
      const snapshot = (await getSnapshot(store.db, inspection!.snapshotSha256!))!.document as {
        tools: Array<{ name: string; description: string }>;
      };
      const said = snapshot.tools.filter((t) => t.name.startsWith("proxy_connect_"));
      expect(said.map((t) => t.description.replace(/^proxy CONNECT \S+: /, ""))).toEqual([
        "403 relay-review egress refused: 0.0.0.0 is the unspecified address, which Linux routes to the host itself; no grant admits it",
        "403 relay-review egress refused: 0.0.0.0 is the unspecified address, which Linux routes to the host itself; no grant admits it",
        "403 relay-review egress refused: :: is the unspecified address, which Linux routes to the host itself; no grant admits it",
      ]);
      expect(other.hits()).toBe(before);
      const report = inspection!.sandbox as SandboxReport;
      if (!report.sandboxed) throw new Error("not sandboxed");
      expect(report.egress!.attempts.map((a) => `${a.via} ${a.target} ${a.decision}`)).toEqual([
        `CONNECT 0.0.0.0:${port} refused`,
        `CONNECT [::ffff:0.0.0.0]:${port} refused`,
        `CONNECT [::]:${port} refused`,
      ]);
    });

    test("the sandbox-probe without a grant still gets nothing, and its report has no egress", async () => {
      const probe = {
        connect: [`127.0.0.1:${granted.port}`],
        proxyGet: [`http://127.0.0.1:${granted.port}/`],
      };
      const args = [
        ...PROBE,
        `--probe=${Buffer.from(JSON.stringify(probe)).toString("base64url")}`,
      ];
      writeLaunchers([{ id: "no-egress", command: "node", args }]);
      const id = await reviewOf(args);
      const before = granted.hits();
      const prepared = await prepareInspection(store.db, id, "probe" as ServerId, env);
      if (!prepared.ok) throw new Error(prepared.error.message);
      expect(
        (await runInspection(store.db, prepared, { limits: { connectTimeoutMs: 30_000 } })).ok,
      ).toBe(true);
      const inspection = await latestInspection(store.db, id, "probe");
      const snapshot = (await getSnapshot(store.db, inspection!.snapshotSha256!))!.document as {
        tools: Array<{ name: string; description: string }>;
      };
      const said = Object.fromEntries(snapshot.tools.map((t) => [t.name, t.description]));
      expect(said.connect_2).toBe(`connect 127.0.0.1:${granted.port}: ECONNREFUSED`);
      // No proxy variables: the probe's own default (port 1) is refused on the sandbox's loopback.
      expect(said.proxy_get_0).toMatch(/: ECONNREFUSED$/);
      expect(granted.hits()).toBe(before);
      const report = inspection!.sandbox as SandboxReport;
      expect(report.sandboxed && report.egress).toBeUndefined();
    });

    test("a bad grant is refused when launchers.json is read, naming the launcher and the entry; no socat names the step", async () => {
      const args = [...PROBE];
      writeLaunchers([
        {
          id: "bad-grant",
          command: "node",
          args,
          sandbox: { egress: ["127.0.0.1:80", "10.0.0.1/8:5432"] },
        },
      ]);
      const id = await reviewOf(args);
      const bad = await prepareInspection(store.db, id, "probe" as ServerId, env);
      expect(bad.ok ? "" : bad.error.message).toContain(
        'launcher "bad-grant" (launchers[0]) sandbox.egress[1]: "10.0.0.1/8:5432" has bits set past its /8 prefix; the range is 10.0.0.0/8',
      );
      writeLaunchers([
        { id: "grant", command: "node", args, sandbox: { egress: ["127.0.0.1:80"] } },
      ]);
      const noSocat = await prepareInspection(store.db, id, "probe" as ServerId, {
        ...env,
        RELAY_REVIEW_SOCAT: "/nonexistent/socat",
      });
      expect(noSocat.ok ? "" : noSocat.error.message).toContain("`apt-get install socat`");
    });
  },
);
