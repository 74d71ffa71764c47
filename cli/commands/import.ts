/**
 * `relay-review import FILE [--url WORKBENCH] [--review ID] [--shape SHAPE] [--json]`
 *
 * Registers the servers of an MCP client config (Claude Desktop, VS Code, Cursor or the generic
 * `mcpServers` shape) and one agent holding their tools, in a running workbench: POST /api/import
 * with the owner token from RELAY_REVIEW_TOKEN. Without --review a new review is created. The file
 * is checked locally first, so a malformed file fails here, naming the line and the field, and
 * the workbench never sees it. Secret values are replaced by variable names before anything
 * leaves this process; the command lists what it replaced.
 *
 * Exit codes: 0 imported; 1 the workbench refused it; 2 usage, unreadable or malformed file.
 */
import { readFile } from "node:fs/promises";
import { parseCommandLine } from "@/cli/shared/args";
import { safeText } from "@/cli/shared/render";
import { ImportResponseSchema } from "@/lib/import/api";
import {
  CLIENT_SHAPES,
  formatImportIssue,
  parseClientConfig,
  type ClientShape,
} from "@/lib/import/config";
import { clientConfigForServers } from "@/lib/import/write";

const USAGE = `usage: relay-review import FILE [--url WORKBENCH (default http://127.0.0.1:3000)] [--review ID] [--shape ${CLIENT_SHAPES.join("|")}] [--json]\n  token: RELAY_REVIEW_TOKEN (the owner token the workbench printed at start)`;

// The file and the workbench's answer are printed through safeText: either may carry control characters.
const say = (line: string) => process.stdout.write(`${safeText(line)}\n`);
const err = (line: string) => process.stderr.write(`relay-review import: ${safeText(line)}\n`);

export async function run(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv, {
    values: ["--url", "--review", "--shape"],
    booleans: ["--json"],
    positionals: true,
  });
  if (line.isHelp) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (line.errors.length === 0 && line.positionals.length !== 1)
    line.errors.push("give exactly one FILE");
  if (line.errors.length) {
    err(`${line.errors.join("; ")}\n${USAGE}`);
    return 2;
  }
  const opts = Object.fromEntries(line.values) as Partial<Record<string, string>>;
  const isJson = line.booleans.has("--json");
  const files = line.positionals;
  const shape = opts["--shape"] as ClientShape | undefined;
  if (shape !== undefined && !CLIENT_SHAPES.includes(shape)) {
    err(`--shape must be one of ${CLIENT_SHAPES.join(", ")}`);
    return 2;
  }
  const file = files[0]!;
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch (error) {
    err(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const parsed = parseClientConfig(raw, { fileName: file, ...(shape ? { shape } : {}) });
  if (!parsed.ok) {
    err(`${file} is malformed:`);
    for (const i of parsed.issues)
      process.stderr.write(`  ${safeText(`${file}:${formatImportIssue(i)}`)}\n`);
    return 2;
  }
  // Only names leave this process: the config is rebuilt from the parsed servers, secrets already replaced.
  const text = clientConfigForServers(
    parsed.config.servers.map((s) => ({ name: s.key, transport: s.transport })),
  );
  const token = process.env.RELAY_REVIEW_TOKEN?.trim();
  if (!token) {
    err("RELAY_REVIEW_TOKEN is not set (the owner token the workbench printed at start)");
    return 2;
  }
  const base = (opts["--url"] ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
  let res: Response;
  try {
    res = await fetch(`${base}/api/import`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        text,
        fileName: file,
        shape: parsed.config.shape,
        ...(opts["--review"] ? { reviewId: opts["--review"] } : {}),
      }),
    });
  } catch (error) {
    err(
      `cannot reach the workbench at ${base}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const e = (body as { error?: { message?: string } } | null)?.error;
    err(`the workbench answered ${res.status}: ${e?.message ?? "(no message)"}`);
    return 1;
  }
  const out = ImportResponseSchema.parse(body);
  if (isJson) {
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return 0;
  }
  const s = out.summary;
  say(
    `${out.created ? "created review" : "updated review"} ${out.reviewId} (revision ${out.revision})`,
  );
  say(`agent ${s.agent.name} [${s.agent.id}] holds ${s.agent.toolCount} tool(s)`);
  for (const srv of s.servers)
    say(
      `  server ${srv.name} [${srv.id}]: ${srv.status}, ${srv.toolCount} tool(s)${srv.notes.length ? ` — ${srv.notes.join("; ")}` : ""}`,
    );
  if (parsed.config.replacements.length) {
    say(
      `secrets not stored (${parsed.config.replacements.length}), replaced by variables (set their values on the workbench's Secrets page):`,
    );
    for (const r of parsed.config.replacements)
      say(`  line ${r.line}: ${r.path} (${r.field} ${r.name}) → \${${r.variable}}`);
  } else say("no secret values found");
  return 0;
}
