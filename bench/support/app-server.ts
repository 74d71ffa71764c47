/**
 * The production app (`next start` through scripts/start.mjs) on a free loopback port against a
 * temporary data folder, for the suites that measure what a browser or an API client sees.
 * `stop()` waits until the process has exited: the suites after one are timed, and a server still
 * shutting down beside them would be timed with them.
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

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), SERVER_STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
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
  });
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
