/**
 * Shared argument parsing for `inspect` and `verify`: the target (`--url URL` or
 * `-- COMMAND [ARGS…]`), limit flags, headers and env. The CLI runs a command the operator typed
 * on their own machine, so it does not consult the workbench's launcher allowlist, and `--url`
 * may name any host the operator chooses (the workbench's egress allowlist guards the web app).
 */
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

export type ParsedArgs = {
  flags: Map<string, string | true>;
  limits: Partial<InspectLimits>;
  target: InspectTarget | null;
  errors: string[];
};

/**
 * Parse argv. `valueFlags` take a value; `boolFlags` do not. Everything after `--` is the command.
 */
export function parseArgs(
  argv: readonly string[],
  valueFlags: readonly string[],
  boolFlags: readonly string[],
): ParsedArgs {
  const flags = new Map<string, string | true>();
  const limits: Partial<InspectLimits> = {};
  const errors: string[] = [];
  const headers: Record<string, string> = {};
  const env: Record<string, string> = {};
  let command: string[] | null = null;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      command = argv.slice(i + 1);
      break;
    }
    const [name, inline] =
      a.startsWith("--") && a.includes("=")
        ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
        : [a, undefined];
    const takeValue = (): string | undefined => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined || v === "--") {
        errors.push(`${name} needs a value`);
        return undefined;
      }
      i++;
      return v;
    };
    if (name in LIMIT_FLAGS) {
      const v = takeValue();
      if (v === undefined) continue;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0)
        errors.push(`${name} must be a whole number, not ${JSON.stringify(v)}`);
      else limits[LIMIT_FLAGS[name]!] = n;
    } else if (name === "--header") {
      const v = takeValue();
      if (v === undefined) continue;
      const at = v.indexOf(":");
      if (at <= 0) errors.push(`--header wants 'Name: value', not ${JSON.stringify(v)}`);
      else headers[v.slice(0, at).trim()] = v.slice(at + 1).trim();
    } else if (name === "--env") {
      const v = takeValue();
      if (v === undefined) continue;
      const eq = v.indexOf("=");
      const key = eq === -1 ? v : v.slice(0, eq);
      const value = eq === -1 ? process.env[v] : v.slice(eq + 1);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
        errors.push(`--env: ${JSON.stringify(key)} is not a variable name`);
      else if (value === undefined) errors.push(`--env ${key}: not set in this shell`);
      else env[key] = value;
    } else if (valueFlags.includes(name) || name === "--url" || name === "--transport") {
      const v = takeValue();
      if (v !== undefined) flags.set(name, v);
    } else if (boolFlags.includes(name)) {
      flags.set(name, true);
    } else {
      errors.push(`unknown option ${JSON.stringify(a)}`);
    }
  }
  const url = flags.get("--url");
  let target: InspectTarget | null = null;
  if (typeof url === "string" && command) errors.push("give either --url or -- COMMAND, not both");
  else if (typeof url === "string") {
    const mode = flags.get("--transport") ?? "auto";
    if (mode !== "auto" && mode !== "streamable-http" && mode !== "sse")
      errors.push(`--transport must be auto, streamable-http or sse`);
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
  return { flags, limits, target, errors };
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
