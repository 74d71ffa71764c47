import "server-only";
import { httpModeOf } from "@/lib/transport-kind";
/**
 * From a review's `RelayServer` to a runnable `InspectTarget`, after the workbench's checks: the
 * launcher allowlist for stdio, the egress allowlist and the HTTP target allowlist for HTTP, and
 * variable values resolved by name at connect time (launcher's fixed values, the secret store, the
 * workbench's environment: lib/secrets/resolve.ts), never stored. Every refusal is a value.
 */
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { resolveDataDir } from "@/lib/data-dir";
import {
  checkEgress,
  egressPolicyFromEnv,
  type EgressPolicy,
  type LookupAll,
} from "@/lib/mcp/egress";
import { pinnedEgressFetch } from "@/lib/mcp/node/egress-fetch";
import {
  LauncherFileSchema,
  activeLaunchers,
  describeLauncherFileIssues,
  isRelativeScriptArg,
  matchHttpTarget,
  matchLauncher,
  type LauncherFile,
} from "@/lib/sandbox/launchers";
import { LauncherSandboxSchema } from "@/lib/sandbox/plan";
import { transportVariables } from "@/lib/review/transport-variables";
import { substituteReferences } from "@/lib/secrets/references";
import { resolveVariables, type VariableSource } from "@/lib/secrets/resolve";
import type { InspectError, InspectTarget } from "@/lib/mcp/types";
import type { RelayServer, Transport } from "@/lib/review/schema";

export type Env = Readonly<Record<string, string | undefined>>;
export type ResolvedVariable = { name: string; source: VariableSource };
/** `variables`: what the target was given, by name and source, for the inspection's record. */
export type ResolveTargetResult =
  | { ok: true; target: InspectTarget; variables: ResolvedVariable[] }
  | { ok: false; error: InspectError };
/** Opens the stored secrets among `names` (lib/store/secrets.ts openSecrets, bound to a db and key). */
export type SecretLookup = (
  names: readonly string[],
) => Promise<{ ok: true; values: ReadonlyMap<string, string> } | { ok: false; message: string }>;

export const dnsLookupAll: LookupAll = async (hostname) =>
  (await lookup(hostname, { all: true })).map((a) => a.address);

/** Where scripts/build-servers.mjs writes the compiled demo servers, relative to the checkout. */
export const COMPILED_SERVERS_DIR = "servers/dist";

export function repoRoot(env: Env = process.env): string {
  return env.RELAY_REVIEW_ROOT ?? process.cwd();
}

/** The shipped allowlist plus the owner's file; a malformed file is an error value, not a crash. */
export function loadLauncherFiles(
  env: Env = process.env,
): { ok: true; files: LauncherFile[] } | { ok: false; message: string } {
  const root = repoRoot(env);
  const dataDir = resolveDataDir(env);
  const files: LauncherFile[] = [];
  for (const file of [
    path.join(root, "config/launchers.json"),
    path.join(dataDir, "launchers.json"),
  ]) {
    // The launcher files are read at run time from the data folder: nothing for the build to trace.
    if (!existsSync(/*turbopackIgnore: true*/ file)) continue;
    try {
      const raw: unknown = JSON.parse(readFileSync(/*turbopackIgnore: true*/ file, "utf8"));
      const parsed = LauncherFileSchema.safeParse(raw);
      if (!parsed.success)
        return {
          ok: false,
          message: `${file}: ${describeLauncherFileIssues(raw, parsed.error.issues)}`,
        };
      files.push(parsed.data);
    } catch (error) {
      return {
        ok: false,
        message: `${file}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  return { ok: true, files };
}

const refused = (message: string): ResolveTargetResult => ({
  ok: false,
  error: { code: "refused", message },
});
const noSecrets: SecretLookup = () => Promise.resolve({ ok: true, values: new Map() });

export type ResolveOptions = { lookup?: LookupAll; root?: string; secrets?: SecretLookup };

/** The owner's launcher file, named in refusals as the file to edit. */
export function ownerLauncherFile(env: Env = process.env): string {
  return path.join(resolveDataDir(env), "launchers.json");
}

/** Check a review server's transport and build the target `inspectServer` runs. */
export async function resolveInspectTarget(
  server: Pick<RelayServer, "transport"> | { transport: Transport },
  env: Env = process.env,
  options: ResolveOptions = {},
): Promise<ResolveTargetResult> {
  const t = server.transport;
  const root = options.root ?? repoRoot(env);
  if (t.kind === "manual")
    return refused("this server's tools are entered by hand; it has no live surface to inspect");
  if (t.kind === "stdio") {
    const loaded = loadLauncherFiles({ ...env, RELAY_REVIEW_ROOT: root });
    if (!loaded.ok) return refused(`the launcher allowlist could not be read: ${loaded.message}`);
    const match = matchLauncher(
      activeLaunchers(loaded.files, env.RELAY_REVIEW_ALLOW_FIXTURES === "1"),
      {
        command: t.command,
        args: t.args,
        envNames: t.envNames,
      },
    );
    if (!match.ok) return refused(match.message);
    // A script the checkout lacks would fail inside the sandbox as "Cannot find module"; say which
    // file and how it is made (the demo servers are compiled at install and build).
    const missing = t.args.find(
      (a) => isRelativeScriptArg(a) && !existsSync(/*turbopackIgnore: true*/ path.resolve(root, a)),
    );
    if (missing)
      return refused(
        `the launcher's script ${missing} does not exist in the workbench's checkout; ${
          missing.startsWith(`${COMPILED_SERVERS_DIR}/`)
            ? "the demo servers are compiled by `npm ci` and `npm run build`: run `npm run build:servers`"
            : "the workbench owner installs the server (npm ci) or fixes the script path in launchers.json"
        }`,
      );
    const wanted = transportVariables(t);
    const fixed = match.launcher.env;
    const looked = await (options.secrets ?? noSecrets)(
      [...wanted.env, ...wanted.args].filter((n) => !Object.hasOwn(fixed, n)),
    );
    if (!looked.ok) return refused(looked.message);
    // The launcher's fixed values are always given; the names the review asks for on top.
    const resolved = resolveVariables([...Object.keys(fixed), ...wanted.env, ...wanted.args], {
      fixed,
      secrets: looked.values,
      env,
    });
    if (!resolved.ok) return refused(resolved.message);
    const extraEnv: Record<string, string> = {};
    for (const name of new Set([...Object.keys(fixed), ...wanted.env]))
      extraEnv[name] = resolved.values.get(name)!;
    return {
      ok: true,
      target: {
        kind: "stdio",
        command: t.command === "node" ? process.execPath : t.command,
        args: t.args.map((a) =>
          substituteReferences(isRelativeScriptArg(a) ? path.resolve(root, a) : a, resolved.values),
        ),
        env: extraEnv,
        cwd: root,
        launcher: {
          id: match.launcher.id,
          sandbox: LauncherSandboxSchema.parse(match.launcher.sandbox ?? {}),
        },
      },
      variables: resolved.variables,
    };
  }
  const policy = egressPolicyFromEnv(env);
  if (!policy.ok) return refused(policy.message);
  const lookupAll = options.lookup ?? dnsLookupAll;
  const check = await checkEgress(t.url, policy.policy, lookupAll);
  if (!check.ok) return refused(check.message);
  const loaded = loadLauncherFiles({ ...env, RELAY_REVIEW_ROOT: root });
  if (!loaded.ok) return refused(`the HTTP target allowlist could not be read: ${loaded.message}`);
  const allowed = matchHttpTarget(
    loaded.files.flatMap((f) => f.httpTargets),
    { url: t.url, headerEnv: t.headerEnv },
    ownerLauncherFile({ ...env, RELAY_REVIEW_ROOT: root }),
  );
  if (!allowed.ok) return refused(allowed.message);
  const wanted = transportVariables(t);
  const names = [...Object.values(wanted.headers), ...wanted.url];
  const looked = await (options.secrets ?? noSecrets)(names);
  if (!looked.ok) return refused(looked.message);
  const forHeader = new Map(Object.entries(t.headerEnv).map(([h, n]) => [n, h]));
  const resolved = resolveVariables(names, { fixed: {}, secrets: looked.values, env }, (n) =>
    forHeader.has(n) ? `${n} (for header ${forHeader.get(n)})` : n,
  );
  if (!resolved.ok) return refused(resolved.message);
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(t.headerEnv)) {
    const value = resolved.values.get(name)!;
    if (/[\r\n\0]/.test(value))
      return refused(
        `the value of ${name} (for header ${header}) contains a line break or NUL, which no header may hold; set it again on the Secrets page`,
      );
    headers[header] = value;
  }
  return {
    ok: true,
    variables: resolved.variables,
    target: {
      kind: "http",
      url: substituteReferences(t.url, resolved.values, encodeURIComponent),
      headers,
      mode: httpModeOf(t.kind),
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
