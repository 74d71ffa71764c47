/**
 * MCP client configs → review entries. Four shapes: Claude Desktop `claude_desktop_config.json`,
 * Cursor `.cursor/mcp.json` and the generic `{ "mcpServers": { name: {…} } }` shape (all three
 * keyed by `mcpServers`), and VS Code `.vscode/mcp.json` (`servers`, JSON with comments and
 * trailing commas, `${input:…}` / `${env:…}` references). Pure.
 *
 * Invariants:
 * - No secret value survives the parse. Every env or header value that is not wholly a variable
 *   reference (`${VAR}`, `${env:VAR}`, `${secret:VAR}`, `${input:id}`) counts as a secret: the
 *   server keeps only a variable name (an env key names itself; a header becomes
 *   `RR_<SERVER>_<HEADER>`). Secret-looking arguments, URL credentials and secret query parameters
 *   become `${NAME}` references in place (lib/secrets/redact.ts); credentials in an HTTP URL move
 *   to an `Authorization` header variable. The result lists each replacement by location, never
 *   by value. Issue messages never quote values.
 * - A malformed file is a list of issues, each with the line, the column and the field path.
 * - A server started through `relay-review gate … -- COMMAND ARGS` imports as the server behind
 *   the gate, so an exported gated config re-imports to the same server.
 * - Unknown per-client keys (`disabled`, `autoApprove`, `timeout`, …) are ignored; `envFile` and
 *   `cwd` are noted, since the workbench neither reads the file nor runs there.
 */
import { parseJsonc, joinPath, type Position } from "@/lib/import/jsonc";
import {
  CONFIG_TRANSPORT_TYPES,
  isConfigTransportType,
  type RemoteTransportKind,
} from "@/lib/transport-kind";
import { makeNamer, redactArgs, redactUrl } from "@/lib/secrets/redact";

export const CLIENT_SHAPES = ["claude-desktop", "vscode", "cursor", "mcp-servers"] as const;
export type ClientShape = (typeof CLIENT_SHAPES)[number];

export const SHAPE_LABEL: Record<ClientShape, string> = {
  "claude-desktop": "Claude Desktop",
  vscode: "VS Code",
  cursor: "Cursor",
  "mcp-servers": "MCP client",
};

export type ImportIssue = Position & { path: string; message: string };

export type ImportedTransport =
  | { kind: "stdio"; command: string; args: string[]; envNames: string[] }
  | { kind: RemoteTransportKind; url: string; headerEnv: Record<string, string> };

export type ImportedServer = {
  /** The entry's name in the config. */
  key: string;
  id: string;
  name: string;
  line: number;
  transport: ImportedTransport;
  /** When the entry starts the server through the gate: the record it names. */
  gatedBy: { record: string } | null;
  notes: string[];
};

/** A value that was not stored: where it was, and the variable that now stands for it. */
export type SecretReplacement = {
  server: string;
  field: "env" | "header" | "arg" | "url";
  name: string;
  variable: string;
  path: string;
  line: number;
};

export type ImportedConfig = {
  shape: ClientShape;
  fileName: string;
  agentName: string;
  servers: ImportedServer[];
  replacements: SecretReplacement[];
  notes: string[];
};

export type ParseConfigResult =
  { ok: true; config: ImportedConfig } | { ok: false; issues: ImportIssue[] };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/;
const WHOLE_REF = /^\$\{(?:(env|secret|input):)?([A-Za-z_][A-Za-z0-9_.-]*)\}$/;
const MAX_SERVERS = 1000;

/** The shape a file name suggests, or null (then the content decides). */
export function shapeFromFileName(fileName: string): ClientShape | null {
  const f = fileName.replace(/\\/g, "/").toLowerCase();
  if (f.endsWith("claude_desktop_config.json")) return "claude-desktop";
  if (f.endsWith(".vscode/mcp.json")) return "vscode";
  if (f.endsWith(".cursor/mcp.json")) return "cursor";
  return null;
}

/** A review id from a config name: `GitHub Server` → `github-server`. */
export function slugId(name: string): string {
  const s = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, "-")
    .replace(/^[^a-z0-9]+/, "")
    .replace(/-+$/, "")
    .slice(0, 72);
  return s || "server";
}

/** `RR_<SERVER>_`: the start of the names of variables the import makes up for a server. */
export function variablePrefix(serverKey: string): string {
  const part = serverKey
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `RR_${part.slice(0, 60) || "SERVER"}_`;
}

/** `RR_<SERVER>_<HEADER>`, upper snake case. */
export function headerVariable(serverKey: string, header: string): string {
  const part = (s: string) =>
    s
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, "_")
      .replace(/^_+|_+$/g, "");
  const name = `RR_${part(serverKey) || "SERVER"}_${part(header) || "HEADER"}`;
  return name.slice(0, 128);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The server behind `relay-review gate [opts] -- COMMAND ARGS` (or `--url URL`), or null when not gated. */
function unwrapGate(
  command: string,
  args: string[],
): { record: string; command: string | null; args: string[]; url: string | null } | null {
  let rest: string[];
  const base = command.replace(/\\/g, "/").split("/").pop() ?? command;
  if (base === "relay-review") rest = args;
  else if (base === "npx" || base === "npx.cmd") {
    const j = args.findIndex((a) => !a.startsWith("-"));
    if (j === -1 || !/^relay-review(@.*)?$/.test(args[j]!)) return null;
    rest = args.slice(j + 1);
  } else return null;
  if (rest[0] !== "gate") return null;
  const dash = rest.indexOf("--");
  const head = dash === -1 ? rest : rest.slice(0, dash);
  const after = dash === -1 ? [] : rest.slice(dash + 1);
  const value = (flag: string) => {
    const k = head.indexOf(flag);
    return k === -1 ? null : (head[k + 1] ?? null);
  };
  return {
    record: value("--record") ?? "",
    command: after[0] ?? null,
    args: after.slice(1),
    url: value("--url"),
  };
}

/** Parse a client config file. `fileName` picks the shape when it is one of the known names. */
export function parseClientConfig(
  text: string,
  options: { fileName?: string; shape?: ClientShape } = {},
): ParseConfigResult {
  const fileName = options.fileName?.trim() || "mcp.json";
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { ok: false, issues: [parsed.issue] };
  const { value, positions } = parsed;
  const issues: ImportIssue[] = [];
  const at = (path: (string | number)[]): Position => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const pos = positions.get(joinPath(p));
      if (pos) return pos;
      if (p.length === 0) return { line: 1, column: 1 };
    }
  };
  const issue = (path: (string | number)[], message: string) =>
    issues.push({ ...at(path), path: joinPath(path), message });

  if (!isObject(value)) {
    issue([], "the file must be a JSON object");
    return { ok: false, issues };
  }
  const hinted = options.shape ?? shapeFromFileName(fileName);
  const rootKey =
    hinted === "vscode"
      ? Object.hasOwn(value, "servers")
        ? "servers"
        : "mcpServers"
      : Object.hasOwn(value, "mcpServers")
        ? "mcpServers"
        : Object.hasOwn(value, "servers")
          ? "servers"
          : null;
  if (rootKey === null) {
    issue(
      [],
      'expected "mcpServers" (Claude Desktop, Cursor, generic) or "servers" (VS Code) at the top level',
    );
    return { ok: false, issues };
  }
  const shape: ClientShape = hinted ?? (rootKey === "servers" ? "vscode" : "mcp-servers");
  const entries = value[rootKey];
  if (!isObject(entries)) {
    issue([rootKey], `"${rootKey}" must be an object of server entries, keyed by name`);
    return { ok: false, issues };
  }
  const keys = Object.keys(entries);
  if (keys.length > MAX_SERVERS) {
    issue([rootKey], `more than ${MAX_SERVERS} servers`);
    return { ok: false, issues };
  }

  const servers: ImportedServer[] = [];
  const replacements: SecretReplacement[] = [];
  const notes: string[] = [];
  const usedIds = new Set<string>();

  for (const key of keys) {
    const entry = entries[key];
    const base = [rootKey, key];
    if (key.trim() === "") issue(base, "a server name must not be empty");
    if (!isObject(entry)) {
      issue(base, "a server entry must be an object");
      continue;
    }
    const serverNotes: string[] = [];
    const type = entry.type ?? entry.transport;
    const typeField = entry.type !== undefined ? "type" : "transport";
    if (type !== undefined && !isConfigTransportType(type)) {
      issue([...base, typeField], `${typeField} must be "stdio", "http" or "sse"`);
      continue;
    }
    const str = (field: string): string | null => {
      const v = entry[field];
      if (v === undefined) return null;
      if (typeof v !== "string" || v.trim() === "") {
        issue([...base, field], `${field} must be a non-empty string`);
        return null;
      }
      return v;
    };
    const stringMap = (field: string): Record<string, string> => {
      const v = entry[field];
      if (v === undefined || v === null) return {};
      if (!isObject(v)) {
        issue([...base, field], `${field} must be an object of string values`);
        return {};
      }
      const out: Record<string, string> = {};
      for (const [k, x] of Object.entries(v)) {
        if (typeof x !== "string") issue([...base, field, k], `${field}.${k} must be a string`);
        else out[k] = x;
      }
      return out;
    };
    const before = issues.length;
    const command = str("command");
    const url = str("url") ?? str("serverUrl");
    let transport: ImportedTransport | null = null;
    let gatedBy: ImportedServer["gatedBy"] = null;
    let id = slugId(key);
    for (let n = 2; usedIds.has(id); n++) id = `${slugId(key).slice(0, 70)}-${n}`;

    if (command !== null && (type === undefined || CONFIG_TRANSPORT_TYPES[type] === "stdio")) {
      const rawArgs = entry.args ?? [];
      let args: string[] = [];
      if (!Array.isArray(rawArgs)) issue([...base, "args"], "args must be a list of strings");
      else
        rawArgs.forEach((a, n) => {
          if (typeof a !== "string") issue([...base, "args", n], "args entries must be strings");
        });
      if (Array.isArray(rawArgs) && rawArgs.every((a) => typeof a === "string")) args = rawArgs;
      const env = stringMap("env");
      if (issues.length > before) continue;
      let cmd = command;
      const gate = unwrapGate(command, args);
      if (gate) {
        gatedBy = { record: gate.record };
        serverNotes.push(
          `started through the relay-review gate${gate.record ? ` with record ${gate.record}` : ""}; imported as the server behind it`,
        );
        if (gate.url !== null) {
          const u = redactUrl(gate.url, makeNamer(variablePrefix(key)), { userinfo: "remove" });
          const path = [...base, "args"];
          for (const r of u.redactions)
            replacements.push({
              server: key,
              field: "url",
              name: r.name,
              variable: r.variable,
              path: joinPath(path),
              line: at(path).line,
            });
          const headerEnv: Record<string, string> = {};
          if (u.removedUserinfo) {
            headerEnv.Authorization = headerVariable(key, "Authorization");
            replacements.push({
              server: key,
              field: "url",
              name: "userinfo",
              variable: headerEnv.Authorization,
              path: joinPath(path),
              line: at(path).line,
            });
            serverNotes.push(
              `the gate URL's credentials were removed; set ${headerEnv.Authorization} to "Basic <base64 of user:password>" on the Secrets page`,
            );
          }
          transport = { kind: "http", url: u.url, headerEnv };
        } else if (gate.command === null) {
          issue(
            [...base, "args"],
            'the relay-review gate entry has no "-- COMMAND" or --url naming the server behind it',
          );
          continue;
        } else {
          cmd = gate.command;
          args = gate.args;
        }
      }
      if (!transport) {
        const envNames: string[] = [];
        for (const [name, v] of Object.entries(env)) {
          const path = [...base, "env", name];
          if (!ENV_NAME.test(name)) {
            issue(path, "env keys must be environment variable names");
            continue;
          }
          envNames.push(name);
          const ref = WHOLE_REF.exec(v);
          if (ref) {
            if (ref[2] !== name)
              serverNotes.push(
                `${name} takes its value from \${${ref[1] ? `${ref[1]}:` : ""}${ref[2]}} in the client; the workbench supplies ${name} by name`,
              );
          } else {
            replacements.push({
              server: key,
              field: "env",
              name,
              variable: name,
              path: joinPath(path),
              line: at(path).line,
            });
          }
        }
        const redacted = redactArgs(args, makeNamer(variablePrefix(key), envNames));
        const argsBase = gate ? [...base, "args"] : null;
        for (const r of redacted.redactions) {
          // Behind the gate the server's args sit after `--`; the file position is the args list.
          const path = argsBase ?? [...base, "args", r.index ?? 0];
          replacements.push({
            server: key,
            field: "arg",
            name: r.name,
            variable: r.variable,
            path: joinPath(path),
            line: at(path).line,
          });
        }
        if (redacted.redactions.length > 0)
          serverNotes.push(
            `its command line carried ${redacted.redactions.map((r) => r.variable).join(", ")}: the sandbox refuses a secret in a command line (every local user can read /proc/PID/cmdline), so this server is inspected once it reads the value from its environment (envNames)`,
          );
        transport = {
          kind: "stdio",
          command: cmd,
          args: redacted.args,
          envNames: [...new Set(envNames)].sort(),
        };
      }
    } else if (url !== null) {
      let parsedUrl: URL | null = null;
      try {
        parsedUrl = new URL(url);
      } catch {
        issue([...base, entry.url !== undefined ? "url" : "serverUrl"], "url is not a valid URL");
      }
      if (parsedUrl && parsedUrl.protocol !== "http:" && parsedUrl.protocol !== "https:")
        issue([...base, "url"], "url must be http(s)");
      const headers = stringMap("headers");
      if (issues.length > before) continue;
      const headerEnv: Record<string, string> = {};
      const urlPath = [...base, entry.url !== undefined ? "url" : "serverUrl"];
      const redactedUrl = redactUrl(url, makeNamer(variablePrefix(key)), { userinfo: "remove" });
      for (const r of redactedUrl.redactions)
        replacements.push({
          server: key,
          field: "url",
          name: r.name,
          variable: r.variable,
          path: joinPath(urlPath),
          line: at(urlPath).line,
        });
      if (
        redactedUrl.removedUserinfo &&
        !Object.keys(headers).some((h) => h.toLowerCase() === "authorization")
      ) {
        const variable = headerVariable(key, "Authorization");
        headerEnv.Authorization = variable;
        replacements.push({
          server: key,
          field: "url",
          name: "userinfo",
          variable,
          path: joinPath(urlPath),
          line: at(urlPath).line,
        });
        serverNotes.push(
          `the URL's credentials were removed; set ${variable} to "Basic <base64 of user:password>" on the Secrets page`,
        );
      } else if (redactedUrl.removedUserinfo) {
        serverNotes.push(
          "the URL's credentials were removed; the Authorization header already carries the credential",
        );
      }
      const userinfoWithHeader = redactedUrl.removedUserinfo !== null && !headerEnv.Authorization;
      for (const [header, v] of Object.entries(headers)) {
        const path = [...base, "headers", header];
        if (!HEADER_NAME.test(header)) {
          issue(path, "not a valid HTTP header name");
          continue;
        }
        const ref = WHOLE_REF.exec(v);
        if (ref && ref[1] !== "input" && ENV_NAME.test(ref[2]!)) {
          headerEnv[header] = ref[2]!;
          continue;
        }
        const variable = headerVariable(key, header);
        headerEnv[header] = variable;
        if (ref || v.includes("${"))
          serverNotes.push(
            `header ${header} is built from client-side variables; the workbench reads the whole value from ${variable}`,
          );
        else
          replacements.push({
            server: key,
            field: "header",
            name: header,
            variable,
            path: joinPath(path),
            line: at(path).line,
          });
      }
      const authHeader = Object.keys(headerEnv).find((h) => h.toLowerCase() === "authorization");
      if (userinfoWithHeader && authHeader)
        replacements.push({
          server: key,
          field: "url",
          name: "userinfo",
          variable: headerEnv[authHeader]!,
          path: joinPath(urlPath),
          line: at(urlPath).line,
        });
      transport = {
        // A URL with no type, or a stdio type the URL contradicts, is Streamable HTTP (falling back to SSE).
        kind: type !== undefined && CONFIG_TRANSPORT_TYPES[type] === "sse" ? "sse" : "http",
        url: new URL(redactedUrl.url).toString(),
        headerEnv,
      };
    } else {
      issue(
        base,
        type === "stdio"
          ? 'a stdio server needs "command"'
          : type
            ? `a ${type} server needs "url"`
            : 'a server needs "command" (stdio) or "url" (http/sse)',
      );
      continue;
    }
    if (entry.envFile !== undefined)
      serverNotes.push(
        "envFile is not read: add the names of the variables it sets to the server by hand",
      );
    if (entry.cwd !== undefined)
      serverNotes.push("cwd is not kept: the workbench runs servers from its own root");
    usedIds.add(id);
    servers.push({
      key,
      id,
      name: key.trim().slice(0, 120) || id,
      line: at(base).line,
      transport,
      gatedBy,
      notes: serverNotes,
    });
  }
  if (issues.length) return { ok: false, issues };
  if (servers.length === 0) notes.push(`the file lists no servers under "${rootKey}"`);
  const baseName = fileName.replace(/\\/g, "/").split("/").slice(-2).join("/");
  return {
    ok: true,
    config: {
      shape,
      fileName,
      agentName: `${SHAPE_LABEL[shape]} (${baseName})`.slice(0, 120),
      servers,
      replacements,
      notes,
    },
  };
}

/** One line per issue: `line 5, column 7: mcpServers.github.args: args must be a list of strings`. */
export function formatImportIssue(i: ImportIssue): string {
  return `line ${i.line}, column ${i.column}: ${i.path}: ${i.message}`;
}
