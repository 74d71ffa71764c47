/** Helpers for the live-surface tests: real child processes, real ports, /proc checks. */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const EVERYTHING = path.join(
  ROOT,
  "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);
export const HOSTILE = path.join(ROOT, "tests/fixtures/servers/hostile.ts");
export const KNOWLEDGE = path.join(ROOT, "servers/knowledge-mcp.ts");
export const DEPLOY = path.join(ROOT, "servers/deploy-mcp.ts");

export const newMarker = () => `--marker=${randomUUID()}`;

/** PIDs of live processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (cmd.includes(marker) && !/\) Z /.test(stat)) out.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return out;
}

/** Wait (bounded) until no process carries the marker; returns what is left. */
export async function waitGone(marker: string, ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = processesWith(marker);
    if (!left.length || Date.now() > until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/** Start a server that prints `listening URL` on stdout; resolves with the URL. */
export async function startHttp(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no 'listening' line from ${args.join(" ")}`)),
      20_000,
    );
    let buf = "";
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      const m = /listening (\S+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening`)));
  });
  return { url, child, stop: () => stopChild(child) };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((r) => child.once("exit", () => r()));
  child.kill("SIGTERM");
  const t = setTimeout(() => child.kill("SIGKILL"), 2000);
  await gone;
  clearTimeout(t);
}

/** Wait until an HTTP port answers. */
export async function waitForPort(url: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      await fetch(url, { method: "HEAD", signal: AbortSignal.timeout(500) });
      return;
    } catch {
      if (Date.now() > until) throw new Error(`${url} did not come up`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
