/**
 * The launcher allowlist: a browser request can never name an arbitrary command. A stdio target
 * is runnable only when its `{command, args}` equals an entry of the owner's allowlist exactly
 * (`config/launchers.json` ships the demo servers, server-everything and — only with
 * `RELAY_REVIEW_ALLOW_FIXTURES=1` — the hostile fixtures; `$RELAY_REVIEW_DATA/launchers.json`
 * holds the owner's own). An entry also lists the environment variable *names* it may receive;
 * values are read from the workbench's environment at connect time and never stored. Pure: the
 * files are read in node/resolve-target.ts.
 */
import { z } from "zod";
import { LauncherSandboxSchema } from "@/lib/mcp/sandbox-plan";

export const LauncherSchema = z
  .object({
    id: z.string().min(1).max(80),
    label: z.string().max(200).default(""),
    command: z.string().min(1).max(500),
    args: z.array(z.string().max(2000)).max(64).default([]),
    /** Environment variable names this launcher may be given (values come from the workbench's env). */
    envNames: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/)).max(64).default([]),
    /** A hostile test fixture: listed only when RELAY_REVIEW_ALLOW_FIXTURES=1. */
    fixture: z.boolean().default(false),
    /** Sandbox settings for the web app's runs: limits, extra read-only paths, egress (lib/mcp/sandbox-plan.ts). */
    sandbox: LauncherSandboxSchema.optional(),
  })
  .strict();
export type Launcher = z.infer<typeof LauncherSchema>;

export const LauncherFileSchema = z.object({ version: z.literal(1), launchers: z.array(LauncherSchema).max(1000) }).strict();
export type LauncherFile = z.infer<typeof LauncherFileSchema>;

export type LauncherMatch =
  | { ok: true; launcher: Launcher }
  | { ok: false; message: string };

const sameArgs = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Find the entry whose command and args equal the request's exactly, and check its env names. */
export function matchLauncher(
  launchers: readonly Launcher[],
  request: { command: string; args: readonly string[]; envNames?: readonly string[] },
): LauncherMatch {
  const launcher = launchers.find((l) => l.command === request.command && sameArgs(l.args, request.args));
  if (!launcher) {
    return {
      ok: false,
      message: `the command ${JSON.stringify([request.command, ...request.args].join(" "))} is not in the workbench's launcher allowlist; the workbench owner adds it to $RELAY_REVIEW_DATA/launchers.json`,
    };
  }
  const extra = (request.envNames ?? []).filter((n) => !launcher.envNames.includes(n));
  if (extra.length) {
    return {
      ok: false,
      message: `launcher ${JSON.stringify(launcher.id)} may not receive the environment variable(s) ${extra.join(", ")}; the owner lists allowed names in its envNames`,
    };
  }
  return { ok: true, launcher };
}

/** Entries usable now: fixtures only when allowed. */
export function activeLaunchers(files: readonly LauncherFile[], allowFixtures: boolean): Launcher[] {
  return files.flatMap((f) => f.launchers).filter((l) => allowFixtures || !l.fixture);
}

/** Whether an argument names a script path to resolve against the repo root. */
export function isRelativeScriptArg(arg: string): boolean {
  return !arg.startsWith("-") && !arg.startsWith("/") && /[\\/]/.test(arg) && /\.(?:[cm]?[jt]s)$/.test(arg);
}
