/**
 * `relay-review` as a real child process, the way a pipeline runs it: bin/relay-review.mjs (the
 * bundle npm install built, or the sources through tsx when they are newer). Never throws for a
 * non-zero exit: the code, stdout and stderr are the result.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const BIN = path.join(ROOT, "bin/relay-review.mjs");

export type CliResult = { code: number; stdout: string; stderr: string };

/** Run `relay-review ARGS…` with exactly `env` (default: this process's). */
export async function runCli(
  args: readonly string[],
  env: Record<string, string | undefined> = process.env,
  timeoutMs = 60_000,
): Promise<CliResult> {
  try {
    // Safe: a child's environment is any string record (Next's typings add a required NODE_ENV).
    const childEnv = env as NodeJS.ProcessEnv;
    const r = await promisify(execFile)(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: childEnv,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === "number" ? e.code : -1,
      stdout: e.stdout ?? "",
      stderr: e.stderr ?? "",
    };
  }
}
