/**
 * The one argument parser of every `relay-review` command. `node:util` parseArgs splits the
 * command line (`--name value`, `--name=value`, the `--` terminator); this module checks it
 * against what the command accepts and says what is wrong in the CLI's own words, so each
 * command only validates meaning. Usage errors are collected, never thrown: the command prints
 * them with its usage and exits 2.
 *
 * The target (`--url URL` or `-- COMMAND [ARGS…]`, limits, headers, env) is parsed here too. The
 * CLI runs a command the operator typed on their own machine, so it does not consult the
 * workbench's launcher allowlist, and `--url` may name any host the operator chooses (the
 * workbench's egress allowlist guards the web app).
 */
import { parseArgs as splitArgs } from "node:util";
import { HTTP_MODES, isHttpMode } from "@/lib/transport-kind";
import type { InspectTarget } from "@/lib/mcp/types";
import type { InspectLimits } from "@/lib/surface/limits";

export const LIMIT_FLAGS: Record<string, keyof InspectLimits> = {
  "--connect-timeout-ms": "connectTimeoutMs",
  "--timeout-ms": "requestTimeoutMs",
  "--deadline-ms": "deadlineMs",
  "--max-bytes": "totalBytes",
  "--max-items": "itemCount",
  "--max-pages": "pageCount",
  "--max-description": "descriptionLength",
  "--settle-ms": "settleQuietMs",
  "--max-relists": "relists",
  "--max-invalid-messages": "invalidMessages",
};

export const TARGET_USAGE = [
  "target:  --url URL [--header 'Name: value']… [--transport auto|streamable-http|sse]",
  "     or  [--env NAME[=VALUE]]… -- COMMAND [ARGS…]   (a stdio server; `node` runs this Node)",
  `limits:  ${Object.keys(LIMIT_FLAGS).join(" N, ")} N`,
].join("\n");

/** What a command accepts; every option by its full name (`--pin`). */
export type CommandSpec = {
  /** Options that take a value, at most once. */
  values?: readonly string[];
  /** Options that take a value and may be repeated. */
  lists?: readonly string[];
  /** Options that take no value. */
  booleans?: readonly string[];
  /** Whether arguments that are not options are accepted (the command checks how many). */
  positionals?: boolean;
  /** Whether `-- COMMAND [ARGS…]` is accepted. */
  command?: boolean;
};

export type CommandLine = {
  /** `--help` or `-h` before any `--`: print the usage and exit 0. */
  isHelp: boolean;
  values: Map<string, string>;
  lists: Map<string, string[]>;
  booleans: Set<string>;
  positionals: string[];
  /** Everything after `--`, or null when there is no `--`. */
  command: string[] | null;
  errors: string[];
};

/** Split and check `argv` against `spec`. Never throws. */
export function parseCommandLine(argv: readonly string[], spec: CommandSpec): CommandLine {
  const values = new Set(spec.values ?? []);
  const lists = new Set(spec.lists ?? []);
  const booleans = new Set(spec.booleans ?? []);
  const line: CommandLine = {
    isHelp: false,
    values: new Map(),
    lists: new Map(),
    booleans: new Set(),
    positionals: [],
    command: null,
    errors: [],
  };
  const options: Record<string, { type: "string" | "boolean" }> = {};
  for (const name of [...values, ...lists]) options[name.slice(2)] = { type: "string" };
  for (const name of booleans) options[name.slice(2)] = { type: "boolean" };
  // strict: false, so unknown options come back as tokens and the messages below are ours.
  const { tokens } = splitArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  for (const token of tokens) {
    if (token.kind === "option-terminator") {
      line.command = argv.slice(token.index + 1);
      if (!spec.command) line.errors.push('unexpected "--": this command runs no server');
      break;
    }
    if (token.kind === "positional") {
      if (spec.positionals) line.positionals.push(token.value);
      else line.errors.push(`unexpected argument ${JSON.stringify(token.value)}`);
      continue;
    }
    const name = token.rawName;
    if (name === "--help" || name === "-h") {
      line.isHelp = true;
      continue;
    }
    if (booleans.has(name)) {
      if (token.value !== undefined) line.errors.push(`${name} takes no value`);
      else line.booleans.add(name);
      continue;
    }
    if (!values.has(name) && !lists.has(name)) {
      line.errors.push(`unknown option ${JSON.stringify(name)}`);
      continue;
    }
    // A following option is not a value (`--pin --quiet`); `--pin=--x` says it is one.
    const value = token.value;
    if (value === undefined || (!token.inlineValue && value.startsWith("--"))) {
      line.errors.push(`${name} needs a value`);
      continue;
    }
    if (lists.has(name)) line.lists.set(name, [...(line.lists.get(name) ?? []), value]);
    else if (line.values.has(name)) line.errors.push(`${name} given twice`);
    else line.values.set(name, value);
  }
  return line;
}

/** The options every command that reaches a server takes, besides `-- COMMAND [ARGS…]`. */
const TARGET_SPEC = {
  values: ["--url", "--transport", ...Object.keys(LIMIT_FLAGS)],
  lists: ["--header", "--env"],
} as const;

export type ParsedArgs = {
  isHelp: boolean;
  flags: Map<string, string | true>;
  /** The command's own repeatable options (`listFlags`), each in the order given. */
  lists: Map<string, string[]>;
  limits: Partial<InspectLimits>;
  target: InspectTarget | null;
  errors: string[];
};

/**
 * A command that reaches a server: the target options plus the command's own `valueFlags`
 * (a value each), `boolFlags` and `listFlags` (repeatable). Everything after `--` is the server's
 * command line.
 */
export function parseArgs(
  argv: readonly string[],
  valueFlags: readonly string[],
  boolFlags: readonly string[],
  listFlags: readonly string[] = [],
): ParsedArgs {
  const line = parseCommandLine(argv, {
    values: [...TARGET_SPEC.values, ...valueFlags],
    lists: [...TARGET_SPEC.lists, ...listFlags],
    booleans: boolFlags,
    command: true,
  });
  const errors = line.errors;
  const flags = new Map<string, string | true>(line.values);
  for (const name of line.booleans) flags.set(name, true);
  const limits: Partial<InspectLimits> = {};
  for (const [name, key] of Object.entries(LIMIT_FLAGS)) {
    const v = line.values.get(name);
    if (v === undefined) continue;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0)
      errors.push(`${name} must be a whole number, not ${JSON.stringify(v)}`);
    else limits[key] = n;
  }
  const headers: Record<string, string> = {};
  for (const v of line.lists.get("--header") ?? []) {
    const at = v.indexOf(":");
    if (at <= 0) errors.push(`--header wants 'Name: value', not ${JSON.stringify(v)}`);
    else headers[v.slice(0, at).trim()] = v.slice(at + 1).trim();
  }
  const env: Record<string, string> = {};
  for (const v of line.lists.get("--env") ?? []) {
    const eq = v.indexOf("=");
    const key = eq === -1 ? v : v.slice(0, eq);
    const value = eq === -1 ? process.env[v] : v.slice(eq + 1);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      errors.push(`--env: ${JSON.stringify(key)} is not a variable name`);
    else if (value === undefined) errors.push(`--env ${key}: not set in this shell`);
    else env[key] = value;
  }
  const url = line.values.get("--url");
  const command = line.command;
  let target: InspectTarget | null = null;
  if (url !== undefined && command) errors.push("give either --url or -- COMMAND, not both");
  else if (url !== undefined) {
    const mode = line.values.get("--transport") ?? "auto";
    if (!isHttpMode(mode)) errors.push(`--transport must be ${HTTP_MODES.join(", ")}`);
    else {
      try {
        const u = new URL(url);
        if (u.protocol !== "http:" && u.protocol !== "https:")
          errors.push("--url must be an http(s) URL");
        else target = { kind: "http", url, headers, mode };
      } catch {
        errors.push(`--url ${JSON.stringify(url)} is not a URL`);
      }
    }
  } else if (command) {
    if (command.length === 0) errors.push("-- must be followed by a command");
    else {
      const [cmd, ...args] = command as [string, ...string[]];
      target = {
        kind: "stdio",
        command: cmd === "node" ? process.execPath : cmd,
        args,
        env,
        cwd: process.cwd(),
      };
    }
  } else errors.push("no server given: use --url URL or -- COMMAND [ARGS…]");
  const lists = new Map(listFlags.map((name) => [name, line.lists.get(name) ?? []]));
  return { isHelp: line.isHelp, flags, lists, limits, target, errors };
}

/** One line for an inspection error, naming the limit when one tripped. */
export function formatInspectError(error: {
  code: string;
  limit?: string;
  message: string;
  stderrTail?: string;
}): string {
  const head = error.limit
    ? `limit ${error.limit} tripped: ${error.message}`
    : `${error.code}: ${error.message}`;
  const tail = error.stderrTail?.trim();
  return tail
    ? `${head}\n  server stderr (last lines):\n${tail
        .split("\n")
        .slice(-8)
        .map((l) => `    ${l}`)
        .join("\n")}`
    : head;
}
