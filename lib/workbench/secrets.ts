import "server-only";
import { isRemoteTransport } from "@/lib/transport-kind";
/**
 * The secrets API's server side: the names the owner has set or may set (with the launchers and
 * HTTP targets that may receive each), and for one review server the names it needs and whether
 * each would resolve now. Never a value: states only.
 */
import {
  activeLaunchers,
  matchHttpTarget,
  matchLauncher,
  variableUsers,
} from "@/lib/sandbox/launchers";
import {
  loadLauncherFiles,
  ownerLauncherFile,
  repoRoot,
  type Env,
} from "@/lib/mcp/node/resolve-target";
import type { ListSecretsResponse, ServerVariablesResponse } from "@/lib/secrets/api";
import { getSecretKey } from "@/lib/secrets/key";
import { transportVariables } from "@/lib/review/transport-variables";
import { isReservedName } from "@/lib/secrets/references";
import type { RelayServer } from "@/lib/review/schema";
import type { Db } from "@/lib/store/db";
import { listSecrets } from "@/lib/store/secrets";

export async function secretsOverview(
  db: Db,
  env: Env = process.env,
): Promise<ListSecretsResponse> {
  const key = getSecretKey();
  const stored = await listSecrets(db);
  const loaded = loadLauncherFiles(env);
  const files = loaded.ok ? loaded.files : [];
  const launchers = activeLaunchers(files, env.RELAY_REVIEW_ALLOW_FIXTURES === "1");
  const users = variableUsers(
    launchers,
    files.flatMap((f) => f.httpTargets),
  );
  const fixed = new Map<string, string[]>();
  for (const l of launchers)
    for (const n of Object.keys(l.env)) fixed.set(n, [...(fixed.get(n) ?? []), l.id]);
  const names = [...new Set([...stored.map((s) => s.name), ...users.keys()])].sort();
  return {
    available: key.ok,
    keyMessage: key.ok ? null : key.message,
    names: names.map((name) => {
      const s = stored.find((x) => x.name === name);
      return {
        name,
        set: s !== undefined,
        updatedAt: s?.updatedAt ?? null,
        allowedBy: users.get(name) ?? [],
        fixedBy: fixed.get(name) ?? [],
      };
    }),
  };
}

export async function serverVariables(
  db: Db,
  server: Pick<RelayServer, "transport">,
  env: Env = process.env,
): Promise<ServerVariablesResponse> {
  const t = server.transport;
  const wanted = transportVariables(t);
  const where = new Map<
    string,
    Set<ServerVariablesResponse["variables"][number]["where"][number]>
  >();
  const add = (n: string, w: ServerVariablesResponse["variables"][number]["where"][number]) =>
    where.set(n, (where.get(n) ?? new Set()).add(w));
  for (const n of wanted.env) add(n, "env");
  for (const n of wanted.args) add(n, "arg");
  for (const n of Object.values(wanted.headers)) add(n, "header");
  for (const n of wanted.url) add(n, "url");
  const loaded = loadLauncherFiles({ ...env, RELAY_REVIEW_ROOT: repoRoot(env) });
  let allowlist: string | null = null;
  let fixed: Record<string, string> = {};
  if (!loaded.ok) allowlist = `the allowlist could not be read: ${loaded.message}`;
  else if (t.kind === "stdio") {
    const match = matchLauncher(
      activeLaunchers(loaded.files, env.RELAY_REVIEW_ALLOW_FIXTURES === "1"),
      { command: t.command, args: t.args },
    );
    if (!match.ok) allowlist = match.message;
    else {
      fixed = match.launcher.env;
      for (const n of Object.keys(fixed)) add(n, "fixed");
      const allowed = new Set([...match.launcher.envNames, ...Object.keys(fixed)]);
      for (const n of where.keys())
        if (!allowed.has(n) && !isReservedName(n))
          allowlist ??= `launcher ${JSON.stringify(match.launcher.id)} may not receive ${n}; the workbench owner lists it in envNames in ${ownerLauncherFile(env)}`;
    }
  } else if (isRemoteTransport(t)) {
    const match = matchHttpTarget(
      loaded.files.flatMap((f) => f.httpTargets),
      { url: t.url, headerEnv: t.headerEnv },
      ownerLauncherFile(env),
    );
    if (!match.ok) allowlist = match.message;
  }
  const stored = new Set((await listSecrets(db)).map((s) => s.name));
  const key = getSecretKey();
  const variables = [...where].map(([name, w]) => {
    const state: ServerVariablesResponse["variables"][number]["state"] = isReservedName(name)
      ? "reserved"
      : allowlist !== null
        ? "not_allowed"
        : Object.hasOwn(fixed, name)
          ? "launcher"
          : stored.has(name) && key.ok
            ? "secret"
            : env[name] !== undefined
              ? "environment"
              : "unset";
    return { name, where: [...w].sort(), state };
  });
  return { variables: variables.sort((a, b) => a.name.localeCompare(b.name)), allowlist };
}
