import "server-only";
/**
 * From a review's `RelayServer` to a runnable `InspectTarget`, after the workbench's checks: the
 * launcher allowlist for stdio, the egress allowlist for HTTP, and env/header values resolved by
 * name from the workbench's environment (never stored). Every refusal is a value.
 */
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { checkEgress, egressPolicyFromEnv, type EgressPolicy, type LookupAll } from "@/lib/mcp/egress";
import { pinnedEgressFetch } from "@/lib/mcp/node/egress-fetch";
import {
  LauncherFileSchema,
  activeLaunchers,
  isRelativeScriptArg,
  matchLauncher,
  type LauncherFile,
} from "@/lib/mcp/launchers";
import { LauncherSandboxSchema } from "@/lib/mcp/sandbox-plan";
import type { InspectError, InspectTarget } from "@/lib/mcp/types";
import type { RelayServer, Transport } from "@/lib/review/schema";

export type Env = Readonly<Record<string, string | undefined>>;
export type ResolveTargetResult = { ok: true; target: InspectTarget } | { ok: false; error: InspectError };

export const dnsLookupAll: LookupAll = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

export function repoRoot(env: Env = process.env): string {
  return env.RELAY_REVIEW_ROOT ?? process.cwd();
}

/** The shipped allowlist plus the owner's file; a malformed file is an error value, not a crash. */
export function loadLauncherFiles(env: Env = process.env): { ok: true; files: LauncherFile[] } | { ok: false; message: string } {
  const root = repoRoot(env);
  const dataDir = env.RELAY_REVIEW_DATA ?? path.join(root, ".data");
  const files: LauncherFile[] = [];
  for (const file of [path.join(root, "config/launchers.json"), path.join(dataDir, "launchers.json")]) {
    if (!existsSync(file)) continue;
    try {
      const parsed = LauncherFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
      if (!parsed.success) return { ok: false, message: `${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}` };
      files.push(parsed.data);
    } catch (error) {
      return { ok: false, message: `${file}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }
  return { ok: true, files };
}

const refused = (message: string): ResolveTargetResult => ({ ok: false, error: { code: "refused", message } });

export type ResolveOptions = { lookup?: LookupAll; root?: string };

/** Check a review server's transport and build the target `inspectServer` runs. */
export async function resolveInspectTarget(
  server: Pick<RelayServer, "transport"> | { transport: Transport },
  env: Env = process.env,
  options: ResolveOptions = {},
): Promise<ResolveTargetResult> {
  const t = server.transport;
  const root = options.root ?? repoRoot(env);
  if (t.kind === "manual") return refused("this server's tools are entered by hand; it has no live surface to inspect");
  if (t.kind === "stdio") {
    const loaded = loadLauncherFiles({ ...env, RELAY_REVIEW_ROOT: root });
    if (!loaded.ok) return refused(`the launcher allowlist could not be read: ${loaded.message}`);
    const match = matchLauncher(activeLaunchers(loaded.files, env.RELAY_REVIEW_ALLOW_FIXTURES === "1"), {
      command: t.command,
      args: t.args,
      envNames: t.envNames,
    });
    if (!match.ok) return refused(match.message);
    const extraEnv: Record<string, string> = {};
    for (const name of t.envNames) {
      const value = env[name];
      if (value === undefined) return refused(`the environment variable ${name} is not set on the workbench`);
      extraEnv[name] = value;
    }
    return {
      ok: true,
      target: {
        kind: "stdio",
        command: t.command === "node" ? process.execPath : t.command,
        args: t.args.map((a) => (isRelativeScriptArg(a) ? path.resolve(root, a) : a)),
        env: extraEnv,
        cwd: root,
        launcher: { id: match.launcher.id, sandbox: LauncherSandboxSchema.parse(match.launcher.sandbox ?? {}) },
      },
    };
  }
  const policy = egressPolicyFromEnv(env);
  if (!policy.ok) return refused(policy.message);
  const lookupAll = options.lookup ?? dnsLookupAll;
  const check = await checkEgress(t.url, policy.policy, lookupAll);
  if (!check.ok) return refused(check.message);
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(t.headerEnv)) {
    const value = env[name];
    if (value === undefined) return refused(`the environment variable ${name} (for header ${header}) is not set on the workbench`);
    headers[header] = value;
  }
  return {
    ok: true,
    target: {
      kind: "http",
      url: t.url,
      headers,
      mode: t.kind === "sse" ? "sse" : "auto",
      egress: egressGuard(policy.policy, lookupAll),
      fetch: pinnedEgressFetch(policy.policy),
    },
  };
}

/** Re-check before every request, so a DNS answer that changes after the first check is caught. */
export function egressGuard(policy: EgressPolicy, lookupAll: LookupAll = dnsLookupAll) {
  return async (url: URL): Promise<string | null> => {
    const r = await checkEgress(url, policy, lookupAll);
    return r.ok ? null : r.message;
  };
}
