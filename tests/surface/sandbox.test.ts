/**
 * The sandbox the web app runs stdio servers in, with real bubblewrap and strace: the hostile
 * sandbox-probe fixture, allowlisted and inspected the way the inspect route does it
 * (prepareInspection → runInspection, stored in PGlite), gets none of the data folder, the host's
 * /tmp, secret variables, the database port, the workbench's port or this machine's own interface
 * addresses (listeners the test proves reachable from the host first), and its attempts are
 * recorded with the inspection. Only loopback and this host's own interface addresses are used.
 */
import { chmodSync, mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, connect, type Server } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { resolveInspectTarget } from "@/lib/mcp/node/resolve-target";
import { SANDBOX_HOST_UID_BASE, sandboxStatus, sandboxTarget } from "@/lib/sandbox/node/sandbox";
import { LauncherSandboxSchema, SANDBOX_ROOT, type SandboxReport } from "@/lib/sandbox/plan";
import { DEMO_KNOWLEDGE_MCP_ARGS } from "@/lib/review/demo";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { latestInspection } from "@/lib/store/snapshots";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { HOSTILE, KNOWLEDGE, ROOT, newMarker, waitGone } from "./helpers";

const PROBE_ARGS = ["--import", "tsx", "tests/fixtures/servers/sandbox-probe.ts"];

/** Non-internal IPv4 addresses of this machine's own interfaces. */
const ownAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a): a is NonNullable<typeof a> => !!a && !a.internal && a.family === "IPv4")
    .map((a) => a.address);

function listen(host: string): Promise<{ server: Server; port: number; accepted: () => number }> {
  let accepted = 0;
  const server = createServer((s) => {
    accepted++;
    s.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () =>
      resolve({
        server,
        port: (server.address() as { port: number }).port,
        accepted: () => accepted,
      }),
    );
  });
}

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host, port });
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

describe("stdio servers from the web app run in the sandbox", { timeout: 90_000 }, () => {
  let store: Store;
  let base: string;
  let dataDir: string;
  let hostTmpFile: string;
  let workbench: Awaited<ReturnType<typeof listen>>;
  let anyInterface: Awaited<ReturnType<typeof listen>>;
  let env: Record<string, string>;
  let probeTargets: string[];
  let probeArg: string;

  beforeAll(async () => {
    base = mkdtempSync(path.join(tmpdir(), "rr-sandbox-"));
    dataDir = path.join(base, "data");
    mkdirSync(dataDir);
    writeFileSync(
      path.join(dataDir, "signing-key.pem"),
      "-----BEGIN PRIVATE KEY-----\nnot-a-real-key\n-----END PRIVATE KEY-----\n",
    );
    writeFileSync(
      path.join(dataDir, "owner-token"),
      "owner-token-0123456789abcdef0123456789abcdef\n",
    );
    hostTmpFile = path.join(tmpdir(), `rr-sandbox-host-tmp-${process.pid}.txt`);
    writeFileSync(hostTmpFile, "a file in the host's /tmp\n");
    workbench = await listen("127.0.0.1");
    anyInterface = await listen("0.0.0.0");
    probeTargets = [
      `127.0.0.1:${workbench.port}`,
      ...ownAddresses().map((a) => `${a}:${anyInterface.port}`),
    ];
    const probe = Buffer.from(
      JSON.stringify({
        files: [
          path.join(dataDir, "signing-key.pem"),
          path.join(dataDir, "owner-token"),
          hostTmpFile,
        ],
        dirs: [dataDir],
        connect: probeTargets,
      }),
    ).toString("base64url");
    probeArg = `--probe=${probe}`;
    writeFileSync(
      path.join(dataDir, "launchers.json"),
      JSON.stringify({
        version: 1,
        launchers: [
          { id: "probe", command: "node", args: [...PROBE_ARGS, probeArg], fixture: false },
        ],
      }),
    );
    env = {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      RELAY_REVIEW_ROOT: ROOT,
      RELAY_REVIEW_DATA: dataDir,
      RELAY_REVIEW_TOKEN: "owner-token-0123456789abcdef0123456789abcdef",
      DATABASE_URL: "postgres://postgres:secret@127.0.0.1:5432/relay",
    };
    store = await openStore({ target: { kind: "pglite", dataDir: path.join(base, "pglite") } });
  });
  afterAll(async () => {
    await store?.close();
    workbench?.server.close();
    anyInterface?.server.close();
    rmSync(base, { recursive: true, force: true });
    rmSync(hostTmpFile, { force: true });
  });

  test("this machine has a working sandbox (bubblewrap and strace pass their self-test)", () => {
    const s = sandboxStatus();
    expect(s.ok ? { strace: !!s.tools.strace } : s).toEqual({ strace: true });
  });

  test("the probe gets nothing it tried, and every attempt is recorded with the inspection", async () => {
    // The targets are real and reachable from the host, so a refusal below is the sandbox's doing.
    expect(await reachable("127.0.0.1", workbench.port)).toBe(true);
    for (const a of ownAddresses()) expect(await reachable(a, anyInterface.port)).toBe(true);
    const acceptedBefore = workbench.accepted() + anyInterface.accepted();

    const { id } = await createReview(
      store.db,
      {
        schemaVersion: REVIEW_SCHEMA_VERSION,
        title: "sandbox probe",
        servers: [
          {
            id: "probe",
            name: "probe",
            transport: {
              kind: "stdio",
              command: "node",
              args: [...PROBE_ARGS, probeArg],
              envNames: [],
            },
          },
        ],
      },
      "t",
    );
    const prepared = await prepareInspection(store.db, id, "probe" as ServerId, env);
    if (!prepared.ok) throw new Error(prepared.error.message);
    expect(prepared.target.kind === "stdio" && prepared.target.sandbox?.plan.traced).toBe(true);
    const line = await runInspection(store.db, prepared, { limits: { connectTimeoutMs: 30_000 } });
    expect(line.ok).toBe(true);

    const inspection = await latestInspection(store.db, id, "probe");
    const { getSnapshot } = await import("@/lib/store/snapshots");
    const snapshot = (await getSnapshot(store.db, inspection!.snapshotSha256!))!.document as {
      tools: Array<{ name: string; description: string }>;
    };
    const said = Object.fromEntries(snapshot.tools.map((t) => [t.name, t.description]));
    // Nothing got through: no description reports a read, a listing, a value or a connection.
    expect(Object.values(said).filter((d) => d.includes("GOT"))).toEqual([]);
    expect(said.env_RELAY_REVIEW_TOKEN).toBe("env RELAY_REVIEW_TOKEN: unset");
    expect(said.env_DATABASE_URL).toBe("env DATABASE_URL: unset");
    expect(said.env_HOME).toBe("env HOME: /home/sandbox");
    expect(said.list_dir_0).toBe("list /tmp: empty");
    expect(said.write_repo).toMatch(/: EROFS$/);
    const connects = Object.values(said).filter((d) => d.startsWith("connect "));
    expect(connects.length).toBe(2 + probeTargets.length);
    for (const c of connects) expect(c).toMatch(/: (ECONNREFUSED|ENETUNREACH|EHOSTUNREACH)$/);
    expect(workbench.accepted() + anyInterface.accepted()).toBe(acceptedBefore);

    // The attempts, stored with the inspection.
    const report = inspection!.sandbox as SandboxReport;
    expect(report.sandboxed).toBe(true);
    if (!report.sandboxed) return;
    expect(report.traced ? "traced" : report.traceNote).toBe("traced");
    const attempts = report.attempts.map((a) => `${a.kind} ${a.target} ${a.result}`);
    expect(attempts).toEqual(
      expect.arrayContaining([
        `open ${path.join(dataDir, "signing-key.pem")} ENOENT`,
        `open ${path.join(dataDir, "owner-token")} ENOENT`,
        `open ${hostTmpFile} ENOENT`,
        // The probe's own working directory is SANDBOX_ROOT, where the checkout's .data is not.
        `open ${SANDBOX_ROOT}/.data/signing-key.pem ENOENT`,
        "connect 127.0.0.1:5432 ECONNREFUSED",
        `connect 127.0.0.1:${workbench.port} ECONNREFUSED`,
        ...ownAddresses().map((a) => `connect ${a}:${anyInterface.port} ENETUNREACH`),
      ]),
    );
    expect(
      report.attempts.find((a) => a.target.endsWith("node_modules/.sandbox-probe")),
    ).toMatchObject({ kind: "open", result: "EROFS", write: true });
    // What it could see: never the data folder, the repository root or the host's /tmp.
    for (const p of report.visible) {
      expect(p === ROOT || dataDir.startsWith(p) || p.startsWith(dataDir) || p === tmpdir()).toBe(
        false,
      );
    }
    // What bounds the whole sandbox, and the host uid of its own it ran as (issue 28, findings 6, 8).
    expect(report.totalBound).toEqual({
      enforced: true,
      by: expect.stringMatching(/^cgroup v[12]$/) as string,
      memoryMiB: 2048,
      processes: 256,
    });
    expect(report.hostUid).toBeGreaterThanOrEqual(SANDBOX_HOST_UID_BASE);
    // No secret value reaches the stored report.
    expect(JSON.stringify(report)).not.toContain(env.RELAY_REVIEW_TOKEN);
  });

  test("a tracer that records nothing is reported as no trace, never as a server that tried nothing", async () => {
    // A stand-in for strace that passes its self-test but traces nothing: it runs the command after `--`.
    const dir = mkdtempSync(path.join(tmpdir(), "rr-silent-strace-"));
    const silent = path.join(dir, "strace");
    writeFileSync(silent, '#!/bin/sh\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n', {
      mode: 0o755,
    });
    chmodSync(dir, 0o755);
    try {
      const silentEnv = { ...env, RELAY_REVIEW_STRACE: silent };
      const r = await resolveInspectTarget(
        {
          transport: {
            kind: "stdio",
            command: "node",
            args: DEMO_KNOWLEDGE_MCP_ARGS,
            envNames: [],
          },
        },
        silentEnv,
      );
      if (!r.ok || r.target.kind !== "stdio") throw new Error(JSON.stringify(r));
      const s = sandboxTarget(r.target, {
        sandbox: r.target.launcher!.sandbox,
        root: ROOT,
        dataDir,
        env: silentEnv,
      });
      if (!s.ok) throw new Error(s.message);
      expect(s.target.sandbox?.plan.traced).toBe(true);
      const result = await inspectServer(s.target, { limits: { connectTimeoutMs: 30_000 } });
      expect(result.ok ? "inspected" : result.error).toBe("inspected");
      expect(result.sandbox).toMatchObject({
        sandboxed: true,
        traced: false,
        traceNote: expect.stringMatching(/recorded nothing/) as string,
        attempts: [],
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("a strace that failed its self-test once is tried again on the next run, not given up for the process", () => {
    // A stand-in that fails its first self-test (as a timed-out one on a loaded host does), then runs the command.
    const dir = mkdtempSync(path.join(tmpdir(), "rr-flaky-strace-"));
    const flaky = path.join(dir, "strace");
    writeFileSync(
      flaky,
      `#!/bin/sh\nif [ ! -e ${dir}/failed ]; then : > ${dir}/failed; echo "strace: stalled" >&2; exit 1; fi\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`,
      { mode: 0o755 },
    );
    chmodSync(dir, 0o777);
    try {
      const flakyEnv = { ...env, RELAY_REVIEW_STRACE: flaky };
      const first = sandboxStatus(flakyEnv);
      expect(first.ok && first.tools.strace).toBe(null);
      expect(first.ok && first.tools.straceNote).toMatch(
        /strace failed its self-test \(strace: stalled\)/,
      );
      const second = sandboxStatus(flakyEnv);
      expect(second.ok && second.tools.strace).toBe(flaky);
      expect(second.ok && second.tools.straceNote).toBe(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the demo servers and server-everything still inspect under the sandbox, and leave nothing behind", async () => {
    for (const args of [
      DEMO_KNOWLEDGE_MCP_ARGS,
      ["--import", "tsx", "servers/knowledge-mcp.ts", "stdio"],
      ["node_modules/@modelcontextprotocol/server-everything/dist/index.js", "stdio"],
    ]) {
      const r = await resolveInspectTarget(
        { transport: { kind: "stdio", command: "node", args, envNames: [] } },
        env,
      );
      if (!r.ok || r.target.kind !== "stdio") throw new Error(JSON.stringify(r));
      const s = sandboxTarget(r.target, {
        sandbox: r.target.launcher!.sandbox,
        root: ROOT,
        dataDir,
        env,
      });
      if (!s.ok) throw new Error(s.message);
      const result = await inspectServer(s.target, { limits: { connectTimeoutMs: 30_000 } });
      expect(result.ok ? result.snapshot.tools.length : result.error).toBeGreaterThan(0);
      expect(result.sandbox?.sandboxed).toBe(true);
    }
    const marker = newMarker();
    const s = sandboxTarget(
      {
        kind: "stdio",
        command: process.execPath,
        args: ["--import", "tsx", KNOWLEDGE, "stdio", marker],
      },
      { sandbox: LauncherSandboxSchema.parse({}), root: ROOT, dataDir, env },
    );
    if (!s.ok) throw new Error(s.message);
    expect((await inspectServer(s.target)).ok).toBe(true);
    expect(await waitGone(marker)).toEqual([]);
  });

  test.each([
    {
      behaviour: "hang",
      limits: { connectTimeoutMs: 4_000 },
      code: "limit_exceeded",
      limit: "connectTimeoutMs",
    },
    {
      behaviour: "flood",
      limits: { connectTimeoutMs: 30_000, totalBytes: 2_000_000 },
      code: "limit_exceeded",
      limit: "totalBytes",
    },
    {
      behaviour: "crash-mid-reply",
      limits: { connectTimeoutMs: 30_000 },
      code: "server_exited",
      limit: undefined,
    },
  ])(
    "hostile $behaviour under the sandbox ends as without it ($code), and the sandbox leaves no process behind",
    async (c) => {
      const marker = newMarker();
      const s = sandboxTarget(
        {
          kind: "stdio",
          command: process.execPath,
          args: ["--import", "tsx", HOSTILE, c.behaviour, marker],
        },
        { sandbox: LauncherSandboxSchema.parse({}), root: ROOT, dataDir, env },
      );
      if (!s.ok) throw new Error(s.message);
      const r = await inspectServer(s.target, {
        limits: { requestTimeoutMs: 2_000, deadlineMs: 40_000, settleQuietMs: 100, ...c.limits },
      });
      expect(r.ok ? null : [r.error.code, r.error.limit]).toEqual([c.code, c.limit]);
      expect(await waitGone(marker)).toEqual([]);
    },
  );

  test("the named limits hold: CPU time and memory end a runaway server, not the host", async () => {
    for (const c of [
      { code: "for(;;){}", limits: { cpuSeconds: 1 } },
      { code: "const a=[];for(;;)a.push(Buffer.alloc(1<<20).fill(1))", limits: { memoryMiB: 128 } },
    ]) {
      const s = sandboxTarget(
        { kind: "stdio", command: process.execPath, args: ["-e", c.code] },
        { sandbox: LauncherSandboxSchema.parse({ limits: c.limits }), root: ROOT, dataDir, env },
      );
      if (!s.ok) throw new Error(s.message);
      const t0 = Date.now();
      const r = await inspectServer(s.target, { limits: { connectTimeoutMs: 30_000 } });
      expect(r.ok ? null : r.error.code).toBe("server_exited");
      expect(Date.now() - t0).toBeLessThan(25_000);
    }
  });

  test("the web app's path: no bubblewrap refuses stdio inspection naming the step; the owner's opt-out runs unsandboxed and says so", async () => {
    const { id } = await createReview(
      store.db,
      {
        schemaVersion: REVIEW_SCHEMA_VERSION,
        title: "opt-out",
        servers: [
          {
            id: "k",
            name: "k",
            transport: {
              kind: "stdio",
              command: "node",
              args: ["--import", "tsx", "servers/knowledge-mcp.ts", "stdio"],
              envNames: [],
            },
          },
        ],
      },
      "t",
    );
    const refused = await prepareInspection(store.db, id, "k" as ServerId, {
      ...env,
      RELAY_REVIEW_BWRAP: "/nonexistent/bwrap",
    });
    expect(refused.ok ? null : [refused.error.code, refused.error.message]).toEqual([
      "refused",
      expect.stringContaining("`apt-get install bubblewrap`") as string,
    ]);
    const optedOut = await prepareInspection(store.db, id, "k" as ServerId, {
      ...env,
      RELAY_REVIEW_BWRAP: "/nonexistent/bwrap",
      RELAY_REVIEW_UNSANDBOXED: "1",
    });
    if (!optedOut.ok) throw new Error(optedOut.error.message);
    expect(optedOut.target.kind === "stdio" && optedOut.target.sandbox).toBeFalsy();
    await runInspection(store.db, optedOut, { limits: { connectTimeoutMs: 30_000 } });
    expect((await latestInspection(store.db, id, "k"))?.sandbox).toEqual({
      sandboxed: false,
      reason: expect.stringContaining("RELAY_REVIEW_UNSANDBOXED=1") as string,
    });
  });

  test("refusals: no bubblewrap names the step that enables it; egress without socat names its step; the data folder is never shown", () => {
    const stdio = {
      kind: "stdio" as const,
      command: process.execPath,
      args: ["--import", "tsx", KNOWLEDGE, "stdio"],
    };
    const none = sandboxTarget(stdio, {
      sandbox: LauncherSandboxSchema.parse({}),
      root: ROOT,
      dataDir,
      env: { ...env, RELAY_REVIEW_BWRAP: "/nonexistent/bwrap" },
    });
    expect(none.ok ? "" : none.message).toContain("`apt-get install bubblewrap`");
    // Egress is enforced by the workbench's proxy (tests/surface/sandbox-egress.test.ts), bridged by socat.
    const egress = sandboxTarget(stdio, {
      sandbox: LauncherSandboxSchema.parse({ egress: ["api.example.com:443"] }),
      root: ROOT,
      dataDir,
      env: { ...env, RELAY_REVIEW_SOCAT: "/nonexistent/socat" },
    });
    expect(egress.ok ? "" : egress.message).toContain("`apt-get install socat`");
    const shown = sandboxTarget(stdio, {
      sandbox: LauncherSandboxSchema.parse({ read: [path.dirname(dataDir)] }),
      root: ROOT,
      dataDir,
      env,
    });
    expect(shown.ok ? "" : shown.message).toContain("data folder");
    // A symlink is judged by where it leads, as bwrap follows it (issue 28, finding 10).
    const link = path.join(base, "innocent-looking");
    symlinkSync(dataDir, link);
    const linked = sandboxTarget(stdio, {
      sandbox: LauncherSandboxSchema.parse({ read: [link] }),
      root: ROOT,
      dataDir,
      env,
    });
    expect(linked.ok ? "" : linked.message).toBe(
      `the launcher's sandbox.read path ${link} (really ${dataDir}) would show the repository root or the data folder: the sandbox refuses to show it`,
    );
    // A script outside the checkout is refused before start, naming it and the setting that shows it.
    const outside = path.join(base, "elsewhere");
    mkdirSync(outside);
    writeFileSync(path.join(outside, "server.js"), "");
    const script = sandboxTarget(
      { ...stdio, args: [path.join(outside, "server.js")] },
      { sandbox: LauncherSandboxSchema.parse({}), root: ROOT, dataDir, env },
    );
    expect(script.ok ? "" : script.message).toContain(
      `the launcher's script ${path.join(outside, "server.js")} is outside the checkout, so the sandbox does not show it`,
    );
  });
});
