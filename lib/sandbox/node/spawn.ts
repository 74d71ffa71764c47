import "server-only";
/**
 * Spawning a stdio server, kept free of heavy imports so the CLI can start the server first and
 * load the SDK while it boots (the two overlap; see cli/commands/inspect.ts). The child runs in
 * its own process group so closing can kill everything it started. Its stdout stays paused
 * until the transport attaches, so nothing it writes early is lost.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** The SDK's default inherited variables (DEFAULT_INHERITED_ENV_VARS in client/stdio.js, POSIX list). */
const INHERITED_ENV =
  process.platform === "win32"
    ? [
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
        "PROGRAMFILES",
      ]
    : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];

/** Like the SDK's getDefaultEnvironment(): a few variables from our env, never shell functions. */
export function defaultChildEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  return env;
}

export type StdioSpawnParams = {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
  /**
   * A sandboxed run (node/sandbox.ts): `env` is the whole environment (nothing inherited), the
   * process runs as `uid`/`gid`, and with `traced` strace's trace comes on fd 2 and the server's
   * stderr on fd 3.
   */
  sandboxed?: {
    uid?: number;
    gid?: number;
    traced: boolean;
    /** Bytes for bwrap to read at setup, each on its own pipe at that descriptor (seccomp, the env file). */
    inputs?: ReadonlyArray<{ fd: number; bytes: Uint8Array }>;
  };
};

export function spawnStdioServer(params: StdioSpawnParams): ChildProcess {
  const sandboxed = params.sandboxed;
  const inputs = sandboxed?.inputs ?? [];
  // fds 0-2, fd 3 (the server's stderr when traced), then one pipe per input at its own number.
  const stdio: Array<"pipe" | "ignore"> = sandboxed?.traced
    ? ["pipe", "pipe", "pipe", "pipe"]
    : ["pipe", "pipe", "pipe"];
  for (const { fd } of inputs) {
    while (stdio.length <= fd) stdio.push("ignore");
    stdio[fd] = "pipe";
  }
  const child = spawn(params.command, params.args, {
    // Next's types make NODE_ENV required on ProcessEnv; a child's environment needs no such entry.
    env: (sandboxed
      ? { ...(params.env ?? {}) }
      : { ...defaultChildEnvironment(), ...(params.env ?? {}) }) as NodeJS.ProcessEnv,
    ...(params.cwd ? { cwd: params.cwd } : {}),
    ...(sandboxed?.uid !== undefined ? { uid: sandboxed.uid } : {}),
    ...(sandboxed?.gid !== undefined ? { gid: sandboxed.gid } : {}),
    stdio,
    detached: process.platform !== "win32",
    shell: false,
    windowsHide: true,
  });
  // Written once and closed: bwrap reads each to its end before it starts the server. A child
  // that dies first makes the write fail with EPIPE, which the close path reports.
  for (const { fd, bytes } of inputs) {
    const pipe = child.stdio[fd] as NodeJS.WritableStream | null | undefined;
    if (!pipe) continue;
    pipe.on("error", () => {});
    pipe.end(Buffer.from(bytes));
  }
  return child;
}
