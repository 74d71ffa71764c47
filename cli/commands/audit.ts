/**
 * `relay-review audit verify (--workbench URL | --file EXPORT.json) [--public-key FILE | --data DIR]
 *    [--output FILE] [--json] [--workbench-max-bytes N]`
 *
 * Checks the audit log's hash chain and signed heads here, with a key the operator brings, and
 * names the first break (lib/audit/chain.ts; docs/audit.md says how to do the same without this
 * code). The log comes from the workbench (GET /api/audit/export, owner API, the token as `check`
 * finds it; the workbench signs a head for the export) or from an export kept earlier. The key is
 * `--public-key` (the workbench's signing-key.pub.pem), else the data folder's: never the export's
 * own, which a forger would write. `--output` keeps the fetched export, heads included.
 *
 * Exit codes: 0 intact; 1 broken (a row altered, removed, reordered or unsealed, or a head that does
 * not verify or does not match); 2 usage, no key, no owner token, or a file that is not an audit
 * export; 6 the workbench could not be asked (unreachable, token refused, not an export).
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseCommandLine, type CommandSpec } from "@/cli/shared/args";
import { loadVerificationKey } from "@/cli/shared/keys";
import { safeText } from "@/cli/shared/render";
import {
  MAX_WORKBENCH_RESPONSE_BYTES,
  getWorkbench,
  loadOwnerToken,
  serverErrorMessage,
} from "@/cli/shared/workbench";
import {
  AuditExportSchema,
  describeVerdict,
  verifyAuditExport,
  type AuditExport,
} from "@/lib/audit/export";
import { parseWorkbenchBase, sendsCredentialInClear } from "@/lib/decisions/workbench-check";
import { issuePath } from "@/lib/errors";
import { parseStrictJson } from "@/lib/strict-json";

export const EXIT = { INTACT: 0, BROKEN: 1, USAGE: 2, WORKBENCH_UNAVAILABLE: 6 } as const;

export const USAGE = [
  "usage: relay-review audit verify (--workbench URL | --file EXPORT.json) [--public-key FILE | --data DIR]",
  "                                 [--output FILE] [--json] [--workbench-max-bytes N]",
  "  Walks the audit log's hash chain and checks its signed heads with the workbench's public key,",
  "  and names the first break: the row, and what differs. The key is --public-key FILE, else the",
  "  signing key in --data DIR / RELAY_REVIEW_DATA / ./.data; never one the export carries.",
  "  --workbench  fetch GET /api/audit/export (owner token: RELAY_REVIEW_TOKEN, else the data folder's)",
  "  --file       an export kept earlier;   --output FILE  keep the fetched export",
  "  --json       print the verdict as JSON on stdout",
  "exit: 0 intact",
  "      1 broken  a row altered, removed, reordered or unsealed, or a signed head that fails or does not match",
  "      2 usage, no key, no owner token, or a file that is not an audit export",
  "      6 the workbench could not be asked (unreachable, token refused, an answer that is not an export)",
].join("\n");

export const AUDIT_SPEC: CommandSpec = {
  values: ["--workbench", "--file", "--public-key", "--data", "--output", "--workbench-max-bytes"],
  booleans: ["--json"],
  positionals: true,
};

type Source = { kind: "workbench"; base: string } | { kind: "file"; path: string };

export type AuditArgs = {
  source: Source;
  publicKeyFile: string | null;
  dataDir: string | null;
  output: string | null;
  json: boolean;
  maxBytes: number;
};

export function parseAuditArgs(
  argv: readonly string[],
): { ok: true; args: AuditArgs } | { ok: false; message: string } {
  const line = parseCommandLine(argv, AUDIT_SPEC);
  if (line.errors.length) return { ok: false, message: line.errors.join("; ") };
  const [sub, ...extra] = line.positionals;
  if (sub !== "verify")
    return {
      ok: false,
      message:
        sub === undefined
          ? "say what to do: audit verify"
          : `unknown audit command ${JSON.stringify(sub)}`,
    };
  if (extra.length)
    return { ok: false, message: `unexpected argument ${JSON.stringify(extra[0])}` };
  const workbench = line.values.get("--workbench");
  const file = line.values.get("--file");
  if ((workbench === undefined) === (file === undefined))
    return { ok: false, message: "give exactly one of --workbench URL or --file EXPORT.json" };
  let source: Source;
  if (workbench !== undefined) {
    const parsed = parseWorkbenchBase(workbench);
    if (!parsed.ok) return parsed;
    source = { kind: "workbench", base: parsed.base };
  } else source = { kind: "file", path: file! };
  if (source.kind === "file" && line.values.has("--output"))
    return {
      ok: false,
      message: "--output keeps a fetched export; with --file there is nothing to keep",
    };
  const maxText = line.values.get("--workbench-max-bytes");
  const maxBytes = maxText === undefined ? MAX_WORKBENCH_RESPONSE_BYTES : Number(maxText);
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
    return { ok: false, message: "--workbench-max-bytes must be a whole number of bytes" };
  return {
    ok: true,
    args: {
      source,
      publicKeyFile: line.values.get("--public-key") ?? null,
      dataDir: line.values.get("--data") ?? null,
      output: line.values.get("--output") ?? null,
      json: line.booleans.has("--json"),
      maxBytes,
    },
  };
}

type Loaded =
  { ok: true; exported: AuditExport; text: string } | { ok: false; exit: number; message: string };

function parseExport(text: string, where: string, exit: number): Loaded {
  const json = parseStrictJson(text);
  if (!json.ok) return { ok: false, exit, message: `${where} is not JSON: ${json.message}` };
  const parsed = AuditExportSchema.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return {
      ok: false,
      exit,
      message: `${where} is not a relay-review audit export: ${issuePath(issue.path) || "(root)"}: ${issue.message}`,
    };
  }
  return { ok: true, exported: parsed.data, text };
}

async function load(args: AuditArgs, warn: (line: string) => void): Promise<Loaded> {
  if (args.source.kind === "file") {
    let text: string;
    try {
      text = await readFile(args.source.path, "utf8");
    } catch (error) {
      return {
        ok: false,
        exit: EXIT.USAGE,
        message: `cannot read ${args.source.path}: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
    return parseExport(text, args.source.path, EXIT.USAGE);
  }
  const token = await loadOwnerToken(args.dataDir);
  if (!token.ok) return { ok: false, exit: EXIT.USAGE, message: token.message };
  const endpoint = { apiUrl: `${args.source.base}/api/audit/export`, shown: args.source.base };
  if (sendsCredentialInClear(endpoint.apiUrl))
    warn(
      `warning: the owner token goes to ${endpoint.shown} over plain http, readable on the way; use https off this machine`,
    );
  const fetched = await getWorkbench(
    endpoint,
    { authorization: `Bearer ${token.owner.token}` },
    args.maxBytes,
  );
  if (!fetched.ok) return { ok: false, exit: EXIT.WORKBENCH_UNAVAILABLE, message: fetched.message };
  if (fetched.status < 200 || fetched.status > 299) {
    const said = serverErrorMessage(fetched.text);
    return {
      ok: false,
      exit: EXIT.WORKBENCH_UNAVAILABLE,
      message: `the workbench at ${endpoint.shown} answered ${fetched.status}${said ? `: ${said}` : ""}${fetched.status === 401 ? ` (the token from ${token.owner.from} was refused)` : ""}`,
    };
  }
  return parseExport(fetched.text, `the answer from ${endpoint.shown}`, EXIT.WORKBENCH_UNAVAILABLE);
}

export async function run(argv: string[]): Promise<number> {
  const err = (line: string) => process.stderr.write(`relay-review audit: ${safeText(line)}\n`);
  if (parseCommandLine(argv, AUDIT_SPEC).isHelp) {
    process.stdout.write(USAGE + "\n");
    return EXIT.INTACT;
  }
  const parsed = parseAuditArgs(argv);
  if (!parsed.ok) {
    err(parsed.message);
    process.stderr.write(USAGE + "\n");
    return EXIT.USAGE;
  }
  const { args } = parsed;
  // The log first: a workbench that has never signed anything creates its key for the export.
  const loaded = await load(args, err);
  if (!loaded.ok) {
    err(loaded.message);
    return loaded.exit;
  }
  const key = await loadVerificationKey({
    publicKeyFile: args.publicKeyFile,
    dataDir: args.dataDir,
  });
  if (!key.ok) {
    err(key.message);
    return EXIT.USAGE;
  }
  if (args.output !== null) {
    try {
      await writeFile(args.output, loaded.text);
    } catch (error) {
      err(`cannot write ${args.output}: ${error instanceof Error ? error.message : String(error)}`);
      return EXIT.USAGE;
    }
  }
  const verdict = await verifyAuditExport(loaded.exported, key.key);
  if (args.json) process.stdout.write(JSON.stringify(verdict, null, 2) + "\n");
  // Row ids and summaries come from the log, which anyone with the database could have written.
  for (const line of describeVerdict(verdict)) process.stderr.write(`${safeText(line)}\n`);
  process.stderr.write(`  key ${safeText(key.from)}\n`);
  return verdict.isIntact ? EXIT.INTACT : EXIT.BROKEN;
}
