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
  sandboxed?: { uid?: number; gid?: number; traced: boolean };
};

export function spawnStdioServer(params: StdioSpawnParams): ChildProcess {
  const sandboxed = params.sandboxed;
  return spawn(params.command, params.args, {
    // Next's types make NODE_ENV required on ProcessEnv; a child's environment needs no such entry.
    env: (sandboxed
      ? { ...(params.env ?? {}) }
      : { ...defaultChildEnvironment(), ...(params.env ?? {}) }) as NodeJS.ProcessEnv,
    ...(params.cwd ? { cwd: params.cwd } : {}),
    ...(sandboxed?.uid !== undefined ? { uid: sandboxed.uid } : {}),
    ...(sandboxed?.gid !== undefined ? { gid: sandboxed.gid } : {}),
    stdio: sandboxed?.traced
      ? (["pipe", "pipe", "pipe", "pipe"] as const)
      : (["pipe", "pipe", "pipe"] as const),
    detached: process.platform !== "win32",
    shell: false,
    windowsHide: true,
  });
}
