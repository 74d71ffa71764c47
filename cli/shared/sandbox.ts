/**
 * `--sandbox` for the commands that start a stdio server the operator typed (`inspect`, `gate`):
 * the bubblewrap sandbox the web app runs every stdio server in (lib/sandbox/node/sandbox.ts: its own
 * user, no network but its own loopback, never the data folder, the signing key or the host's
 * /tmp), with named egress through the workbench's proxy (`--egress HOST:PORT`, `--egress
 * CIDR:PORT`, the grammar of a launcher's `sandbox.egress`) and named limits (`--sandbox-limit
 * NAME=N` and `--egress-limit NAME=N`, a launcher's `sandbox.limits` and `sandbox.egressLimits`).
 * The sandbox modules load only when one is asked for, so a command without `--sandbox` starts
 * as fast as before.
 */
import type { ParsedArgs } from "@/cli/shared/args";
import type { EgressLimits } from "@/lib/sandbox/egress";
import type { LauncherSandbox, SandboxLimits } from "@/lib/sandbox/plan";
import type { InspectTarget } from "@/lib/mcp/types";

export const SANDBOX_BOOL_FLAGS = ["--sandbox"] as const;
export const SANDBOX_LIST_FLAGS = [
  "--egress",
  "--sandbox-limit",
  "--egress-limit",
  "--sandbox-read",
] as const;
export const SANDBOX_USAGE =
  "sandbox: --sandbox [--egress HOST:PORT|CIDR:PORT]… [--sandbox-limit NAME=N]… [--egress-limit NAME=N]… [--sandbox-read PATH]…   (a stdio command; see docs/sandbox.md)";

type StdioTarget = Extract<InspectTarget, { kind: "stdio" }>;

export type CliSandbox =
  { ok: true; sandbox: LauncherSandbox | null } | { ok: false; message: string };

/** Limits a command sets unless the operator names them (the gate's, for a server that stays up). */
export type SandboxDefaults = {
  limits?: Partial<SandboxLimits>;
  egressLimits?: Partial<EgressLimits>;
};

/** `NAME=N` entries of one flag into `into`; the message names the flag and the entry. */
function parseNamedNumbers(
  flag: string,
  args: readonly string[],
  names: readonly string[],
  into: Record<string, unknown>,
): string | null {
  for (const arg of args) {
    const at = arg.indexOf("=");
    const name = at === -1 ? arg : arg.slice(0, at);
    if (!names.includes(name))
      return `${flag} ${JSON.stringify(name)}: not a limit (${names.join(", ")})`;
    const value = Number(at === -1 ? NaN : arg.slice(at + 1));
    if (!Number.isInteger(value)) return `${flag} ${name}: wants NAME=N, a whole number`;
    into[name] = value;
  }
  return null;
}

/**
 * The sandbox settings the command line asks for, validated as a launcher's are: null without
 * `--sandbox`; otherwise a usage message naming the flag and the entry that is wrong.
 */
export async function sandboxFromArgs(
  parsed: ParsedArgs,
  defaults: SandboxDefaults = {},
): Promise<CliSandbox> {
  const egress = parsed.lists.get("--egress") ?? [];
  const limitArgs = parsed.lists.get("--sandbox-limit") ?? [];
  const egressLimitArgs = parsed.lists.get("--egress-limit") ?? [];
  const read = parsed.lists.get("--sandbox-read") ?? [];
  if (!parsed.flags.has("--sandbox")) {
    return egress.length || limitArgs.length || egressLimitArgs.length || read.length
      ? {
          ok: false,
          message: "--egress, --sandbox-limit, --egress-limit and --sandbox-read go with --sandbox",
        }
      : { ok: true, sandbox: null };
  }
  if (parsed.target?.kind !== "stdio")
    return { ok: false, message: "--sandbox applies to a stdio command (-- COMMAND …), not a URL" };
  const [{ LauncherSandboxSchema, SANDBOX_LIMIT_DEFAULTS }, { EGRESS_LIMIT_DEFAULTS }] =
    await Promise.all([import("@/lib/sandbox/plan"), import("@/lib/sandbox/egress")]);
  const limits: Record<string, unknown> = { ...defaults.limits };
  const egressLimits: Record<string, unknown> = { ...defaults.egressLimits };
  const wrong =
    parseNamedNumbers("--sandbox-limit", limitArgs, Object.keys(SANDBOX_LIMIT_DEFAULTS), limits) ??
    parseNamedNumbers(
      "--egress-limit",
      egressLimitArgs,
      Object.keys(EGRESS_LIMIT_DEFAULTS),
      egressLimits,
    );
  if (wrong) return { ok: false, message: wrong };
  const settings = LauncherSandboxSchema.safeParse({ egress, limits, egressLimits, read });
  if (!settings.success) {
    const issue = settings.error.issues[0]!;
    const [field, entry] = issue.path;
    const flag =
      field === "egress"
        ? `--egress ${JSON.stringify(egress[Number(entry)] ?? "")}`
        : field === "read"
          ? `--sandbox-read ${JSON.stringify(read[Number(entry)] ?? "")}`
          : `${field === "limits" ? "--sandbox-limit" : "--egress-limit"} ${String(entry)}`;
    return { ok: false, message: `${flag}: ${issue.message}` };
  }
  return { ok: true, sandbox: settings.data };
}

/**
 * The typed command in the sandbox: `node` is this Node, script paths are made absolute against
 * the current directory (the checkout the sandbox shows the server). `trace: false` runs it without
 * strace, for a server that stays up (the gate): a trace slows every system call and nothing reads it.
 */
export async function sandboxCliTarget(
  target: StdioTarget,
  sandbox: LauncherSandbox,
  options: { dataDir: string | null; trace: boolean },
) {
  const [{ sandboxTarget }, { isRelativeScriptArg }, { resolveDataDir }, path] = await Promise.all([
    import("@/lib/sandbox/node/sandbox"),
    import("@/lib/sandbox/launchers"),
    import("@/lib/data-dir"),
    import("node:path"),
  ]);
  const root = process.cwd();
  return sandboxTarget(
    {
      ...target,
      command: target.command === "node" ? process.execPath : target.command,
      args: target.args.map((a) => (isRelativeScriptArg(a) ? path.resolve(root, a) : a)),
    },
    {
      sandbox,
      root,
      dataDir: options.dataDir ?? resolveDataDir(process.env),
      env: process.env,
      trace: options.trace,
    },
  );
}

/** One line saying how the server runs, for the operator. */
export function describeSandbox(target: StdioTarget): string {
  const run = target.sandbox;
  if (!run) return "the server runs unsandboxed, as typed";
  const egress = run.plan.egress?.grants ?? [];
  return `the server runs sandboxed (${run.mechanism}; network: ${egress.length ? `only ${egress.join(", ")} through the egress proxy` : "none but its own loopback"}; the data folder, the signing key and the host's /tmp are not visible)`;
}
