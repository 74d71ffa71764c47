import "server-only";
/**
 * Spawning a stdio server, kept free of heavy imports so the CLI can start the server first and
 * load the SDK while it boots (the two overlap; see cli/commands/inspect.ts). The child runs in
 * its own process group so closing can kill everything it started. Its stdout stays paused
 * until the transport attaches, so nothing it writes early is lost.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** The SDK's default inherited variables (DEFAULT_INHERITED_ENV_VARS in client/stdio.js, POSIX list). */
const INHERITED_ENV = process.platform === "win32"
  ? ["APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PROCESSOR_ARCHITECTURE", "SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "USERNAME", "USERPROFILE", "PROGRAMFILES"]
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

export type StdioSpawnParams = { command: string; args: string[]; env?: Record<string, string>; cwd?: string };

export function spawnStdioServer(params: StdioSpawnParams): ChildProcess {
  return spawn(params.command, params.args, {
    // Next's types make NODE_ENV required on ProcessEnv; a child's environment needs no such entry.
    env: { ...defaultChildEnvironment(), ...(params.env ?? {}) } as NodeJS.ProcessEnv,
    ...(params.cwd ? { cwd: params.cwd } : {}),
    stdio: ["pipe", "pipe", "pipe"] as const,
    detached: process.platform !== "win32",
    shell: false,
    windowsHide: true,
  });
}
