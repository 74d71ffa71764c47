/**
 * The egress proxy on its own (no sandbox): its named limits hold against a client that drives it
 * hard, and every end is recorded. Real sockets on loopback and a unix socket in a temp folder.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { egressLimits, type EgressLimits } from "@/lib/sandbox/egress";
import { EgressProxy } from "./egress-proxy";

let base: string;
let sink: Server;
let sinkPort: number;
let freePort: number;
const sinkSockets = new Set<Socket>();

beforeAll(async () => {
  base = mkdtempSync(path.join(tmpdir(), "rr-egress-proxy-"));
  // Accepts, answers "hi" once, then swallows whatever comes, never closing first.
  sink = createServer((s) => {
    sinkSockets.add(s);
    s.on("error", () => {});
    s.write("hi\n");
    s.on("data", () => {});
  });
  await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  sinkPort = (sink.address() as { port: number }).port;
  // A port with nothing listening: bind, read the number, close.
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  freePort = (probe.address() as { port: number }).port;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(() => {
  for (const s of sinkSockets) s.destroy();
  sink.close();
  rmSync(base, { recursive: true, force: true });
});

let n = 0;
async function startProxy(limits: Partial<EgressLimits> = {}) {
  const socket = path.join(base, `p${n++}`, "egress.sock");
  const proxy = new EgressProxy({
    socket,
    grants: [`127.0.0.1:${sinkPort}`, `127.0.0.1:${freePort}`],
    limits: egressLimits(limits),
  });
  await proxy.start();
  return { proxy, socket };
}

/** One client connection to the proxy's socket: what it has read so far, and when it closed. */
function client(socketPath: string, send: string | Buffer) {
  const s = connect(socketPath);
  let text = "";
  const closed = new Promise<void>((r) => s.once("close", () => r()));
  s.on("error", () => {});
  s.on("data", (d: Buffer) => (text += d.toString("latin1")));
  s.write(send);
  const until = async (pred: (t: string) => boolean, ms = 5_000) => {
    const stop = Date.now() + ms;
    while (!pred(text) && Date.now() < stop) await new Promise((r) => setTimeout(r, 20));
    return text;
  };
  return { s, closed, until, text: () => text };
}
const CONNECT = (port: number) => `CONNECT 127.0.0.1:${port} HTTP/1.1\r\n\r\n`;

describe("the egress proxy's named limits", () => {
  test("connections at once: one more is refused (503) while the others stay open", async () => {
    const { proxy, socket } = await startProxy({ connections: 2 });
    const a = client(socket, CONNECT(sinkPort));
    const b = client(socket, CONNECT(sinkPort));
    expect(await a.until((t) => t.includes("hi\n"))).toContain("200 Connection Established");
    expect(await b.until((t) => t.includes("hi\n"))).toContain("200 Connection Established");
    const c = client(socket, CONNECT(sinkPort));
    expect(await c.until((t) => t.includes("\r\n\r\n"))).toMatch(/^HTTP\/1\.1 503 /);
    await c.closed;
    a.s.destroy();
    // Once a's end is recorded on the proxy's side, its slot is free: the next one goes through.
    for (let i = 0; i < 250 && !proxy.report().attempts.some((x) => x.decision === "allowed"); i++)
      await new Promise((r) => setTimeout(r, 20));
    const d = client(socket, CONNECT(sinkPort));
    expect(await d.until((t) => t.includes("hi\n"))).toContain("200");
    await proxy.close();
    const report = proxy.report();
    expect(report.attempts.find((x) => x.decision === "refused")?.reason).toBe(
      "2 connections were already open (egressLimits.connections)",
    );
    expect(
      report.attempts.filter((x) => x.decision === "allowed").reduce((k, x) => k + x.count, 0),
    ).toBe(3);
  });

  test("requests per run: beyond the limit every request is refused (429)", async () => {
    const { proxy, socket } = await startProxy({ requests: 2 });
    for (let i = 0; i < 3; i++) {
      const c = client(socket, CONNECT(60_000 + i));
      await c.until((t) => t.includes("\r\n\r\n"));
      await c.closed;
      if (i === 2) expect(c.text()).toMatch(/^HTTP\/1\.1 429 /);
      else expect(c.text()).toMatch(/^HTTP\/1\.1 403 /);
    }
    await proxy.close();
    expect(proxy.report().attempts.map((a) => a.reason)).toContain(
      "the run's limit of 2 requests (egressLimits.requests) was reached",
    );
  });

  test("idle time: a tunnel with no byte either way is closed and the limit named", async () => {
    const { proxy, socket } = await startProxy({ idleSeconds: 1 });
    const c = client(socket, CONNECT(sinkPort));
    await c.until((t) => t.includes("hi\n"));
    await c.closed;
    await proxy.close();
    expect(proxy.report().attempts[0]).toMatchObject({
      decision: "allowed",
      outcome: "idle for 1 s (egressLimits.idleSeconds)",
      bytesReceived: 3,
    });
  });

  test("bytes per run: the connection that crosses the limit is closed", async () => {
    const { proxy, socket } = await startProxy({ totalMiB: 1 });
    const c = client(socket, CONNECT(sinkPort));
    await c.until((t) => t.includes("hi\n"));
    const chunk = Buffer.alloc(256 * 1024, 1);
    for (let i = 0; i < 8 && !c.s.destroyed; i++) c.s.write(chunk);
    await c.closed;
    await proxy.close();
    const [a] = proxy.report().attempts;
    expect(a?.outcome).toBe("the run's 1 MiB (egressLimits.totalMiB) were used up");
    expect(a!.bytesSent).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024);
  });

  test("the request head: too long, or not complete in time, is refused (400)", async () => {
    const { proxy, socket } = await startProxy({ connectSeconds: 1 });
    const long = client(socket, `GET http://127.0.0.1:${sinkPort}/${"a".repeat(20_000)}`);
    expect(await long.until((t) => t.includes("\r\n\r\n"))).toMatch(/^HTTP\/1\.1 400 /);
    const slow = client(socket, "CONNECT 127.0.0.1:");
    expect(await slow.until((t) => t.includes("\r\n\r\n"))).toMatch(/^HTTP\/1\.1 400 /);
    await Promise.all([long.closed, slow.closed]);
    await proxy.close();
    expect(
      proxy
        .report()
        .attempts.map((a) => a.reason)
        .sort(),
    ).toEqual([
      "no complete request head within 1 s (egressLimits.connectSeconds)",
      "the request head is longer than 16384 bytes",
    ]);
  });

  test("an allowed destination that refuses the connection is answered 502 and recorded as allowed, ECONNREFUSED", async () => {
    const { proxy, socket } = await startProxy();
    const c = client(socket, CONNECT(freePort));
    expect(await c.until((t) => t.includes("\r\n\r\n"))).toMatch(
      new RegExp(`^HTTP/1\\.1 502 [^]*127\\.0\\.0\\.1:${freePort} failed: ECONNREFUSED`),
    );
    await c.closed;
    await proxy.close();
    expect(proxy.report().attempts[0]).toMatchObject({
      decision: "allowed",
      outcome: "ECONNREFUSED",
    });
  });

  test("the socket is private to the sandbox's user (0600, owner set), its directory unlistable, both gone at close", async () => {
    const socket = path.join(base, "owned", "egress.sock");
    const proxy = new EgressProxy({
      socket,
      grants: [],
      limits: egressLimits(),
      ...(process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {}),
    });
    await proxy.start();
    const st = statSync(socket);
    expect(st.mode & 0o777).toBe(0o600);
    if (process.getuid?.() === 0) expect(st.uid).toBe(65534);
    expect(statSync(path.dirname(socket)).mode & 0o777).toBe(0o711);
    // A directory someone made first is not used.
    await expect(
      new EgressProxy({ socket, grants: [], limits: egressLimits() }).start(),
    ).rejects.toThrow(/EEXIST/);
    await proxy.close();
    expect(() => statSync(path.dirname(socket))).toThrow(/ENOENT/);
  });
});

describe("the egress proxy never connects to the host through the unspecified address (issue 28, finding 1)", () => {
  test("CONNECT 0.0.0.0, ::ffff:0.0.0.0 and :: under 0.0.0.0/0, 0.0.0.0/1 and [::/0] reach nothing, and the report says why", async () => {
    // The sink listens only on the host's loopback; on Linux, 0.0.0.0:PORT reaches it.
    const socket = path.join(base, "zero", "egress.sock");
    const proxy = new EgressProxy({
      socket,
      grants: [`0.0.0.0/0:${sinkPort}`, `0.0.0.0/1:${sinkPort}`, `[::/0]:${sinkPort}`],
      limits: egressLimits(),
    });
    await proxy.start();
    for (const target of [
      `0.0.0.0:${sinkPort}`,
      `[::ffff:0.0.0.0]:${sinkPort}`,
      `[::]:${sinkPort}`,
    ]) {
      const c = client(socket, `CONNECT ${target} HTTP/1.1\r\n\r\n`);
      const said = await c.until((t) => t.includes("\r\n\r\n"));
      await c.closed;
      expect(said).toMatch(/^HTTP\/1\.1 403 /);
      expect(c.text()).not.toContain("hi\n");
    }
    await proxy.close();
    const attempts = proxy.report().attempts;
    expect(attempts.map((a) => a.decision)).toEqual(["refused", "refused", "refused"]);
    for (const a of attempts)
      expect(a.reason).toMatch(
        /^(0\.0\.0\.0|::) is the unspecified address, which Linux routes to the host itself; no grant admits it$/,
      );
  });
});
