/**
 * The launcher allowlist: a browser request can never name an arbitrary command. A stdio target
 * is runnable only when its `{command, args}` equals an entry of the owner's allowlist exactly
 * (`config/launchers.json` ships the demo servers, server-everything and — only with
 * `RELAY_REVIEW_ALLOW_FIXTURES=1` — the hostile fixtures; `$RELAY_REVIEW_DATA/launchers.json`
 * holds the owner's own). An entry also lists the variable *names* it may receive (values come
 * from the secret store, else the workbench's environment, at connect time, and are never stored)
 * and may fix non-secret values itself (`env: { GITLAB_API_URL: "https://…" }`).
 * `httpTargets` is the same allowlist for HTTP servers: a URL prefix and the header → variable
 * pairs (and `${NAME}`s in the URL) a server under it may be given. Pure: the files are read in
 * node/resolve-target.ts.
 */
import { z } from "zod";
import { LauncherSandboxSchema } from "@/lib/sandbox/plan";
import { isSecretName, tokenShapeIn } from "@/lib/secrets/redact";
import {
  ENV_NAME_PATTERN,
  RESERVED_NAMES_RULE,
  isReservedName,
  referencesIn,
} from "@/lib/secrets/references";
import { nearestLauncher } from "@/lib/sandbox/nearest";

const VariableNameSchema = z
  .string()
  .regex(ENV_NAME_PATTERN, "must be an environment variable name")
  .refine((n) => !isReservedName(n), { message: RESERVED_NAMES_RULE });
const HeaderNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/, "must be an HTTP header name");

/** Fixed values a launcher always passes: settings, never credentials (those go in the secret store). */
const FixedEnvSchema = z
  .record(VariableNameSchema, z.string().max(4000))
  .superRefine((env, ctx) => {
    for (const [name, value] of Object.entries(env)) {
      if (isSecretName(name) || tokenShapeIn(value)) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: `${name} looks like a secret: list its name in envNames and set its value on the workbench's Secrets page instead of writing it here`,
        });
      }
    }
  });

/**
 * Why an argument may not carry a `${NAME}`: a process's command line is readable by every local
 * user (/proc/PID/cmdline), for the server and for every host-side process around it (strace,
 * bwrap). Values go to a server as environment variables, which the sandbox hands over privately.
 */
export function argumentReferenceProblem(arg: string, index: number): string | null {
  const names = referencesIn(arg);
  if (!names.length) return null;
  return `args[${index}] ${JSON.stringify(arg)} would put the value of ${names.join(", ")} on the server's command line, which every local user can read (/proc/PID/cmdline); list ${names.length > 1 ? "them" : "it"} in envNames and have the server read ${names.length > 1 ? "them" : "it"} from its environment instead`;
}

/** A launcher's command-line arguments: no `${NAME}` in any (argumentReferenceProblem). */
const ArgsSchema = z
  .array(z.string().max(2000))
  .max(64)
  .superRefine((args, ctx) => {
    args.forEach((arg, i) => {
      const problem = argumentReferenceProblem(arg, i);
      // The path names the argument already (`args[1]`); the message starts at its text.
      if (problem)
        ctx.addIssue({
          code: "custom",
          path: [i],
          message: problem.slice(problem.indexOf(" ") + 1),
        });
    });
  });

export const LauncherSchema = z
  .object({
    id: z.string().min(1).max(80),
    label: z.string().max(200).default(""),
    command: z.string().min(1).max(500),
    args: ArgsSchema.default([]),
    /** Variable names this launcher may be given: from the secret store, else the workbench's env. */
    envNames: z.array(VariableNameSchema).max(64).default([]),
    /** Non-secret values this launcher always passes (e.g. `GITLAB_API_URL`). */
    env: FixedEnvSchema.default({}),
    /** A hostile test fixture: listed only when RELAY_REVIEW_ALLOW_FIXTURES=1. */
    fixture: z.boolean().default(false),
    /** Sandbox settings for the web app's runs: limits, extra read-only paths, egress (lib/sandbox/plan.ts). */
    sandbox: LauncherSandboxSchema.optional(),
  })
  .strict();
export type Launcher = z.infer<typeof LauncherSchema>;

export const HttpTargetSchema = z
  .object({
    id: z.string().min(1).max(80),
    label: z.string().max(200).default(""),
    /** An http(s) URL; a server's URL matches when it equals this or continues it at a `/`, `?` or `#`. */
    urlPrefix: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(2000),
    /** Header → the variable it may carry. */
    headerEnv: z.record(HeaderNameSchema, VariableNameSchema).default({}),
    /** Variables that may be put into the URL as `${NAME}` (e.g. an `?api_key=`). */
    urlNames: z.array(VariableNameSchema).max(64).default([]),
  })
  .strict();
export type HttpTarget = z.infer<typeof HttpTargetSchema>;

export const LauncherFileSchema = z
  .object({
    version: z.literal(1),
    launchers: z.array(LauncherSchema).max(1000),
    httpTargets: z.array(HttpTargetSchema).max(1000).default([]),
  })
  .strict();
export type LauncherFile = z.infer<typeof LauncherFileSchema>;

/**
 * A launcher file's schema failures, each naming the entry it is in by id (`launcher "probe"`)
 * and the field by path (`sandbox.egress[1]`), so the owner knows which line to fix.
 */
export function describeLauncherFileIssues(
  raw: unknown,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): string {
  const entries = (key: string): unknown[] => {
    const v = (raw as Record<string, unknown> | null)?.[key];
    return Array.isArray(v) ? v : [];
  };
  const field = (path: ReadonlyArray<PropertyKey>) =>
    path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
  return issues
    .map((issue) => {
      const [list, index, ...rest] = issue.path;
      if ((list === "launchers" || list === "httpTargets") && typeof index === "number") {
        const id = (entries(list)[index] as { id?: unknown } | undefined)?.id;
        const what = list === "launchers" ? "launcher" : "HTTP target";
        const named = typeof id === "string" ? `${what} ${JSON.stringify(id.slice(0, 80))}` : what;
        return `${named} (${list}[${index}])${rest.length ? ` ${field(rest)}` : ""}: ${issue.message}`;
      }
      return `${field(issue.path) || "(file)"}: ${issue.message}`;
    })
    .join("; ");
}

export type LauncherMatch = { ok: true; launcher: Launcher } | { ok: false; message: string };

const sameArgs = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/** Find the entry whose command and args equal the request's exactly, and check its env names. */
export function matchLauncher(
  launchers: readonly Launcher[],
  request: { command: string; args: readonly string[]; envNames?: readonly string[] },
): LauncherMatch {
  const inArgs = request.args.flatMap((a, i) => argumentReferenceProblem(a, i) ?? []);
  if (inArgs.length) return { ok: false, message: inArgs[0]! };
  const launcher = launchers.find(
    (l) => l.command === request.command && sameArgs(l.args, request.args),
  );
  if (!launcher) {
    const near = nearestLauncher(launchers, request);
    const hint = near
      ? `; the nearest allowlisted launcher is ${JSON.stringify(near.launcher.id)}${near.launcher.label ? ` (${near.launcher.label})` : ""}: ${JSON.stringify([near.launcher.command, ...near.launcher.args].join(" "))}, pick it in the register form's launcher list`
      : "";
    return {
      ok: false,
      message: `the command ${JSON.stringify([request.command, ...request.args].join(" "))} is not in the workbench's launcher allowlist${hint}; otherwise the workbench owner adds it to $RELAY_REVIEW_DATA/launchers.json`,
    };
  }
  const allowed = new Set([...launcher.envNames, ...Object.keys(launcher.env)]);
  const wanted = [...new Set([...(request.envNames ?? []), ...request.args.flatMap(referencesIn)])];
  const reserved = wanted.filter(isReservedName);
  if (reserved.length)
    return { ok: false, message: `${reserved.join(", ")}: ${RESERVED_NAMES_RULE}` };
  const extra = wanted.filter((n) => !allowed.has(n));
  if (extra.length) {
    return {
      ok: false,
      message: `launcher ${JSON.stringify(launcher.id)} may not receive the variable(s) ${extra.join(", ")}; the workbench owner lists allowed names in its envNames in $RELAY_REVIEW_DATA/launchers.json`,
    };
  }
  return { ok: true, launcher };
}

/** Entries usable now: fixtures only when allowed. */
export function activeLaunchers(
  files: readonly LauncherFile[],
  allowFixtures: boolean,
): Launcher[] {
  return files.flatMap((f) => f.launchers).filter((l) => allowFixtures || !l.fixture);
}

/** Whether an argument names a script path to resolve against the repo root. */
export function isRelativeScriptArg(arg: string): boolean {
  return (
    !arg.startsWith("-") &&
    !arg.startsWith("/") &&
    /[\\/]/.test(arg) &&
    /\.(?:[cm]?[jt]s)$/.test(arg)
  );
}

/** Whether `url` is `prefix` or continues it at a path, query or fragment boundary. */
export function urlUnderPrefix(url: string, prefix: string): boolean {
  let u: string;
  let p: string;
  try {
    u = new URL(url).toString();
    p = new URL(prefix).toString();
  } catch {
    return false;
  }
  if (u === p) return true;
  if (!u.startsWith(p)) return false;
  return p.endsWith("/") || "/?#".includes(u[p.length]!);
}

export type HttpTargetMatch =
  { ok: true; target: HttpTarget | null } | { ok: false; message: string };

/**
 * The HTTP target entry allowing what a server's headers and URL ask for: the longest matching
 * prefix. A server that asks for no variable needs no entry. `file` names where the owner adds one.
 */
export function matchHttpTarget(
  targets: readonly HttpTarget[],
  request: { url: string; headerEnv: Readonly<Record<string, string>> },
  file: string,
): HttpTargetMatch {
  const urlNames = referencesIn(request.url);
  const headers = Object.entries(request.headerEnv);
  const reserved = [...new Set([...urlNames, ...headers.map(([, v]) => v)])].filter(isReservedName);
  if (reserved.length)
    return { ok: false, message: `${reserved.join(", ")}: ${RESERVED_NAMES_RULE}` };
  if (urlNames.length === 0 && headers.length === 0) return { ok: true, target: null };
  const target = targets
    .filter((t) => urlUnderPrefix(request.url, t.urlPrefix))
    .sort((a, b) => b.urlPrefix.length - a.urlPrefix.length)[0];
  const origin = (() => {
    try {
      return new URL(request.url).origin;
    } catch {
      return request.url;
    }
  })();
  if (!target) {
    const first = headers[0];
    const what = first
      ? `header ${first[0]} may not carry the variable ${first[1]}`
      : `the URL may not carry the variable ${urlNames[0]}`;
    return {
      ok: false,
      message: `${what}: no httpTargets entry in ${file} covers ${origin}; the workbench owner adds one with this urlPrefix and the header → variable names it may use`,
    };
  }
  const lower = new Map(Object.entries(target.headerEnv).map(([h, v]) => [h.toLowerCase(), v]));
  for (const [header, name] of headers) {
    if (lower.get(header.toLowerCase()) !== name) {
      return {
        ok: false,
        message: `header ${header} may not carry the variable ${name}: httpTargets entry ${JSON.stringify(target.id)} in ${file} does not allow it; the workbench owner adds "${header}": "${name}" to its headerEnv`,
      };
    }
  }
  const extra = urlNames.filter((n) => !target.urlNames.includes(n));
  if (extra.length)
    return {
      ok: false,
      message: `the URL may not carry the variable(s) ${extra.join(", ")}: httpTargets entry ${JSON.stringify(target.id)} in ${file} does not list them in urlNames`,
    };
  return { ok: true, target };
}

/** Who may be given each variable name: launchers and HTTP targets, for the Secrets page. */
export function variableUsers(
  launchers: readonly Launcher[],
  targets: readonly HttpTarget[],
): Map<string, { kind: "launcher" | "httpTarget"; id: string; label: string }[]> {
  const out = new Map<string, { kind: "launcher" | "httpTarget"; id: string; label: string }[]>();
  const add = (
    name: string,
    user: { kind: "launcher" | "httpTarget"; id: string; label: string },
  ) => {
    const list = out.get(name) ?? [];
    if (!list.some((u) => u.kind === user.kind && u.id === user.id)) list.push(user);
    out.set(name, list);
  };
  for (const l of launchers)
    for (const n of l.envNames) add(n, { kind: "launcher", id: l.id, label: l.label });
  for (const t of targets)
    for (const n of [...Object.values(t.headerEnv), ...t.urlNames])
      add(n, { kind: "httpTarget", id: t.id, label: t.label });
  return out;
}
