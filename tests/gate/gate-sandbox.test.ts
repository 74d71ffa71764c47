/**
 * `relay-review gate --sandbox`, with real bubblewrap and socat: the hostile sandbox-probe fixture
 * in front of a real SDK client. The record is signed against the probe's surface as the sandbox
 * shows it (a sandboxed inspection granted one loopback listener), and the probe writes what it
 * could reach into its descriptions, so the fingerprint itself says what the server could see:
 * the gate serves it only when started in the same sandbox with the same grant, and refuses to
 * start it unsandboxed or without the grant, relaying nothing. Only loopback addresses are used.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { sandboxTarget } from "@/lib/sandbox/node/sandbox";
import { LauncherSandboxSchema } from "@/lib/sandbox/plan";
import { ReviewSchema } from "@/lib/review/schema";
import { BIN, ROOT, connectThroughGate, eventsIn, signedRecord, type Signed } from "./fixtures";

const PROBE = path.join(ROOT, "tests/fixtures/servers/sandbox-probe.ts");
const LOOPBACK_BODY = "ok-from-the-granted-listener";

/** The gate as a child process with stdin closed after one initialize; its exit code and stderr. */
async function runGate(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "gate", ...args], {
    cwd: ROOT,
    env: process.env,
    stdio: ["pipe", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  child.stdin.on("error", () => {});
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  return { code, stderr };
}

describe("gate --sandbox", { timeout: 180_000 }, () => {
  let listener: Server;
  let grant: string;
  let dataDir: string;
  let serverArgs: string[];
  let signed: Signed;
  let recordArgs: string[];

  beforeAll(async () => {
    listener = createServer((_req, res) => res.end(LOOPBACK_BODY));
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    grant = `127.0.0.1:${(listener.address() as { port: number }).port}`;
    const base = mkdtempSync(path.join(tmpdir(), "rr-gate-sandbox-"));
    dataDir = path.join(base, "data");
    mkdirSync(dataDir);
    writeFileSync(path.join(dataDir, "signing-key.pem"), "not-a-real-key\n");
    const probe = Buffer.from(
      JSON.stringify({
        files: [path.join(dataDir, "signing-key.pem")],
        dirs: [dataDir],
        proxyGet: [`http://${grant}/`],
      }),
    ).toString("base64url");
    serverArgs = ["--import", "tsx", PROBE, `--probe=${probe}`];

    // The reviewed surface: the probe inspected in the sandbox, granted the one listener.
    const sandboxed = sandboxTarget(
      { kind: "stdio", command: process.execPath, args: serverArgs, env: {} },
      {
        sandbox: LauncherSandboxSchema.parse({ egress: [grant] }),
        root: ROOT,
        dataDir,
        trace: false,
      },
    );
    if (!sandboxed.ok) throw new Error(`no sandbox here: ${sandboxed.message}`);
    const inspected = await inspectServer(sandboxed.target);
    if (!inspected.ok) throw new Error(`inspection failed: ${inspected.error.message}`);
    const review = ReviewSchema.parse({
      schemaVersion: 2,
      title: "sandbox probe",
      servers: [
        {
          id: "probe",
          name: "sandbox-probe",
          transport: { kind: "stdio", command: "node", args: serverArgs },
        },
      ],
      agents: [
        {
          id: "probe-agent",
          name: "probe agent",
          tools: [
            { serverId: "probe", tool: "read_file_3" },
            { serverId: "probe", tool: "proxy_get_0" },
          ],
        },
      ],
    });
    signed = signedRecord(review, "probe", "probe-agent", inspected.snapshot);
    recordArgs = ["--record", signed.recordPath, "--public-key", signed.publicKeyPath];
  }, 120_000);
  afterAll(() => new Promise<void>((resolve) => listener?.close(() => resolve())));

  test("[gate]: the server runs sandboxed for the whole session: the key stays out of reach, the granted listener is reached through the proxy", async () => {
    // The record's surface itself: nothing protected was reached, the granted listener was.
    const described = signed.snapshot.tools.map((t) => t.description ?? "");
    expect(described.filter((d) => d.includes("GOT"))).toEqual([]);
    expect(described.find((d) => d.startsWith("proxy GET"))).toContain(LOOPBACK_BODY);

    const session = await connectThroughGate(
      [...recordArgs, "--sandbox", "--egress", grant],
      serverArgs,
    );
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["proxy_get_0", "read_file_3"]);
      const key = await session.client.callTool({ name: "read_file_3", arguments: {} });
      const keyText = (key.content as { text: string }[])[0]!.text;
      expect(keyText).toBe(`read ${path.join(dataDir, "signing-key.pem")}: ENOENT`);
      const fetched = await session.client.callTool({ name: "proxy_get_0", arguments: {} });
      expect((fetched.content as { text: string }[])[0]!.text).toContain(LOOPBACK_BODY);
      expect(session.stderr()).toContain("relay-review gate: the server runs sandboxed (");
      expect(session.stderr()).toContain(`network: only ${grant} through the egress proxy`);
      const started = eventsIn(session.stderr()).find((e) => e.event === "gate_started");
      expect(started).toMatchObject({ sandbox: { egress: [grant] } });
    } finally {
      await session.close();
    }
  });

  test.each([
    ["unsandboxed", [] as string[]],
    ["sandboxed without the grant", ["--sandbox"]],
  ])(
    "[gate]: %s, the same server shows another surface, and the gate refuses to start it (exit 3)",
    async (_label, flags) => {
      const r = await runGate([...recordArgs, ...flags, "--", "node", ...serverArgs]);
      expect(r.code, r.stderr).toBe(3);
      expect(eventsIn(r.stderr)).toContainEqual(
        expect.objectContaining({ event: "refused_start", reason: "surface_mismatch" }),
      );
      expect(eventsIn(r.stderr).some((e) => e.event === "gate_started")).toBe(false);
    },
  );

  test.each([
    [
      ["--egress", "127.0.0.1:80"],
      "--egress, --sandbox-limit, --egress-limit and --sandbox-read go with --sandbox",
    ],
    [["--sandbox", "--egress", "not a grant"], '--egress "not a grant": '],
    [["--sandbox", "--sandbox-limit", "cpuSeconds=99999"], "--sandbox-limit cpuSeconds: "],
    [
      ["--sandbox", "--sandbox-limit", "wallSeconds=5"],
      '--sandbox-limit "wallSeconds": not a limit',
    ],
    [["--sandbox", "--egress-limit", "requests=0"], "--egress-limit requests: "],
  ])("[gate]: %j is a usage error naming what is wrong (exit 2)", async (flags, message) => {
    const r = await runGate([...recordArgs, ...flags, "--", "node", ...serverArgs]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test("[gate]: --sandbox with --url is a usage error: the sandbox runs a command", async () => {
    const r = await runGate([...recordArgs, "--sandbox", "--url", "http://127.0.0.1:9/mcp"]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("--sandbox applies to a stdio command");
  });
});
