/**
 * The production app (`next start` through scripts/start.mjs) on a free loopback port against a
 * temporary data folder, for the suites that measure what a browser or an API client sees.
 * `stop()` waits until the process has exited: the suites after one are timed, and a server still
 * shutting down beside them would be timed with them.
 *
 * The server is two processes: scripts/start.mjs and the `next-server` it spawns. A server busy in
 * one long request handles SIGTERM only when that request ends, so start.mjs, killed after
 * SERVER_STOP_TIMEOUT_MS, used to leave its `next-server` running on its own: after the
 * review-page suite, a list load summarising the 5,000-tool review went on for minutes at a core
 * and gigabytes, through the saves suite (its embedded p99 448 ms in the whole bench against 71–83
 * ms alone) and past the end of the bench. So the server runs in its own process group and `stop()`
 * signals the whole group, and waits until no process of it is left.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "../../tests/surface/helpers";
import type { BrowserContext } from "@playwright/test";

/** Bound on waiting for the server to answer after spawning it. */
const SERVER_START_TIMEOUT_MS = 60_000;
/** Bound on waiting for the server to exit after SIGTERM, before SIGKILL. */
const SERVER_STOP_TIMEOUT_MS = 10_000;

export type AppServer = {
  base: string;
  token: string;
  stop(): Promise<void>;
  stderrTail(): string;
};

/** Why the app cannot be started here, or null when it can. */
export function appServerUnavailable(): string | null {
  if (!existsSync(path.resolve(".next", "BUILD_ID")))
    return "no production build (.next/BUILD_ID); run `npx next build` first";
  return null;
}

/** Bound on waiting for the group's last process to be gone after SIGKILL. */
const GROUP_GONE_TIMEOUT_MS = 5_000;

/** Signals every process of the group `pgid`; false when none is left. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is empty
  }
}

/** Groups of servers not yet stopped, killed if the bench itself is interrupted. */
const liveGroups = new Set<number>();
function killLiveGroups(signal: NodeJS.Signals) {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
  // Then die of the signal as the bench would have without this handler.
  process.removeListener(signal, killLiveGroups);
  process.kill(process.pid, signal);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.once(signal, killLiveGroups);

async function stopProcess(child: ChildProcess): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    // The group, not start.mjs alone: next-server gets the signal even if start.mjs is killed first.
    signalGroup(pgid, "SIGTERM");
    const timer = setTimeout(() => signalGroup(pgid, "SIGKILL"), SERVER_STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }
  // start.mjs has exited; a next-server still in its group (it did not finish in time) is killed.
  const deadline = Date.now() + GROUP_GONE_TIMEOUT_MS;
  while (signalGroup(pgid, 0) && Date.now() < deadline) {
    signalGroup(pgid, "SIGKILL");
    await new Promise((r) => setTimeout(r, 50));
  }
  liveGroups.delete(pgid);
}

async function waitForServer(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      await fetch(`${base}/sign-in`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`the server did not answer within ${SERVER_START_TIMEOUT_MS} ms`);
}

/** Starts the app; `env` adds to the server's environment (DATABASE_URL, say). */
export async function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "relay-review-bench-app-"));
  const token = process.env.E2E_TOKEN ?? `bench-${randomBytes(24).toString("hex")}`;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      RELAY_REVIEW_DATA: dataDir,
      RELAY_REVIEW_TOKEN: token,
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
    // Its own process group, so stop() can reach next-server too (see the module comment).
    detached: true,
  });
  if (child.pid !== undefined) liveGroups.add(child.pid);
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const stop = async () => {
    await stopProcess(child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(base, child);
  } catch (error) {
    await stop();
    throw new Error(
      `${(error as Error).message}${stderr ? `; server said: ${stderr.trim().split("\n").slice(-3).join(" | ")}` : ""}`,
    );
  }
  return { base, token, stop, stderrTail: () => stderr.trim().split("\n").slice(-3).join(" | ") };
}

/**
 * Signs a browser context in as the owner does, through the sign-in page (`/sign-in#token=…`):
 * a session cookie alone opens no page since the session's origin proof (docs/security.md), so a
 * sign-in made with `context.request` left every page on the sign-in form and no mark was ever set.
 */
export async function signInThroughPage(context: BrowserContext, token: string): Promise<void> {
  const page = await context.newPage();
  try {
    const answered = page.waitForResponse(
      (r) => new URL(r.url()).pathname === "/api/auth/sign-in" && r.request().method() === "POST",
    );
    await page.goto(`/sign-in?next=%2F#token=${encodeURIComponent(token)}`);
    const res = await answered;
    if (res.status() !== 204) throw new Error(`sign-in answered ${res.status()}`);
    // Past the sign-in page: the proof is stored and the session worker is active.
    await page.waitForURL((u) => u.pathname === "/");
  } finally {
    await page.close();
  }
}
