/**
 * `relay-review verify-record RECORD.json [--public-key FILE | --data DIR] [--url URL | -- COMMAND [ARGS…]]`
 *
 * Checks a decision record's Ed25519 signature with the workbench's public key, and, when given a
 * server to reach, that its live surface still matches the record's `surface_sha256`. The key is
 * read, never created: `--public-key` (a PEM public or private key), or the data folder
 * (`--data`, else RELAY_REVIEW_DATA, else ./.data). Record text is printed with control
 * characters escaped, since a record may come from anywhere.
 *
 * Exit codes: 0 valid (and the live surface matches, when checked); 1 the signature check failed
 * (unsigned, tampered, wrong key, malformed); 2 usage, unreadable file or no key; 3 the live
 * surface does not match the record; 4 the live check could not run.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { loadInspector } from "@/cli/shared/runtime";
import type { InspectTarget } from "@/lib/mcp/types";
import { comparePin } from "@/lib/surface/registration";
import { resolveDataDir, signingKeyPaths } from "@/lib/decisions/key-files";
import { verifyRecord, type DecisionRecord } from "@/lib/decisions/record";

export const EXIT = {
  VALID: 0,
  INVALID: 1,
  USAGE: 2,
  SURFACE_MISMATCH: 3,
  LIVE_UNAVAILABLE: 4,
} as const;

const USAGE =
  "usage: relay-review verify-record RECORD.json [--public-key FILE | --data DIR] [--url URL | -- COMMAND [ARGS…]]";

type Args = {
  recordPath: string;
  publicKeyFile: string | null;
  dataDir: string | null;
  url: string | null;
  command: string[] | null;
};

export function parseArgs(
  argv: readonly string[],
): { ok: true; args: Args } | { ok: false; message: string } {
  const dash = argv.indexOf("--");
  const head = dash === -1 ? argv : argv.slice(0, dash);
  const command = dash === -1 ? null : argv.slice(dash + 1);
  const positional: string[] = [];
  const opts: Record<string, string> = {};
  for (let i = 0; i < head.length; i++) {
    const a = head[i]!;
    if (a === "--public-key" || a === "--data" || a === "--url") {
      const v = head[i + 1];
      if (v === undefined || v.startsWith("--"))
        return { ok: false, message: `${a} needs a value` };
      if (opts[a] !== undefined) return { ok: false, message: `${a} given twice` };
      opts[a] = v;
      i++;
    } else if (a.startsWith("-")) {
      return { ok: false, message: `unknown option ${JSON.stringify(a)}` };
    } else positional.push(a);
  }
  if (positional.length !== 1)
    return {
      ok: false,
      message: positional.length === 0 ? "RECORD.json is required" : "give exactly one RECORD.json",
    };
  if (opts["--public-key"] !== undefined && opts["--data"] !== undefined)
    return { ok: false, message: "give --public-key or --data, not both" };
  if (command !== null && command.length === 0)
    return { ok: false, message: "-- must be followed by a COMMAND" };
  if (command !== null && opts["--url"] !== undefined)
    return { ok: false, message: "give --url or -- COMMAND, not both" };
  return {
    ok: true,
    args: {
      recordPath: positional[0]!,
      publicKeyFile: opts["--public-key"] ?? null,
      dataDir: opts["--data"] ?? null,
      url: opts["--url"] ?? null,
      command,
    },
  };
}

/** Escape C0/C1 controls and bidi/zero-width characters so a hostile record cannot drive the terminal. */
export function terminalSafe(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g,
    (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`,
  );
}

const out = (line: string) => process.stdout.write(terminalSafe(line) + "\n");
const err = (line: string) =>
  process.stderr.write(`relay-review verify-record: ${terminalSafe(line)}\n`);

async function loadKey(
  args: Args,
): Promise<{ ok: true; key: KeyObject; from: string } | { ok: false; message: string }> {
  const read = async (file: string) => {
    try {
      return await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  };
  try {
    if (args.publicKeyFile !== null) {
      const pem = await read(args.publicKeyFile);
      if (pem === null) return { ok: false, message: `no such file: ${args.publicKeyFile}` };
      return { ok: true, key: createPublicKey(pem), from: args.publicKeyFile };
    }
    const dir = args.dataDir ?? resolveDataDir();
    const files = signingKeyPaths(dir);
    const pub = await read(files.publicKey);
    if (pub !== null) return { ok: true, key: createPublicKey(pub), from: files.publicKey };
    const priv = await read(files.privateKey);
    if (priv !== null) return { ok: true, key: createPublicKey(priv), from: files.privateKey };
    return {
      ok: false,
      message: `no signing key in ${dir} (the workbench creates one when it first signs a record); pass --public-key FILE`,
    };
  } catch (error) {
    return {
      ok: false,
      message: `cannot read the key: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

function liveTarget(
  args: Args,
  record: DecisionRecord,
): { target: InspectTarget; warnings: string[] } {
  const t = record.server.transport;
  const warnings: string[] = [];
  const fromEnv = (name: string) => {
    const v = process.env[name];
    if (v === undefined) warnings.push(`environment variable ${name} is not set`);
    return v;
  };
  if (args.command !== null) {
    const env: Record<string, string> = {};
    for (const name of t.envNames) {
      const v = fromEnv(name);
      if (v !== undefined) env[name] = v;
    }
    return {
      target: { kind: "stdio", command: args.command[0]!, args: args.command.slice(1), env },
      warnings,
    };
  }
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(t.headerEnv)) {
    const v = fromEnv(name);
    if (v !== undefined) headers[header] = v;
  }
  return {
    target: { kind: "http", url: args.url!, headers, mode: t.kind === "sse" ? "sse" : "auto" },
    warnings,
  };
}

async function checkLive(args: Args, record: DecisionRecord): Promise<number> {
  const reg = record.registration;
  if (reg === null) {
    err(
      record.decision.bound.surfaceSha256 === null
        ? `live check not possible: the decision was ${record.basis.statement}, so there is no surface fingerprint to compare`
        : "live check not possible: the record has no registration block (no declared capabilities to inspect like with like)",
    );
    return EXIT.LIVE_UNAVAILABLE;
  }
  const { target, warnings } = liveTarget(args, record);
  for (const w of warnings) err(`warning: ${w}`);
  // Loaded only now, so that a signature check never depends on the inspection code.
  const { inspectServer } = await loadInspector();
  const result = await inspectServer(target);
  if (!result.ok) {
    err(`live check failed: ${result.error.code}: ${result.error.message}`);
    return EXIT.LIVE_UNAVAILABLE;
  }
  const cmp = comparePin(reg, result.snapshot);
  switch (cmp.status) {
    case "match":
      out(`live surface matches the record: ${cmp.surfaceSha256}`);
      return EXIT.VALID;
    case "incomparable":
      err(
        `live surface not comparable: ${cmp.reason} (record: ${cmp.pinned.join(", ") || "none"}; inspection: ${cmp.inspected.join(", ") || "none"})`,
      );
      return EXIT.SURFACE_MISMATCH;
    case "mismatch": {
      err(
        `live surface differs from the record: expected ${cmp.expected}, got ${cmp.actual} (on_surface_change: ${reg.on_surface_change})`,
      );
      const n = cmp.names;
      if (n) {
        for (const i of n.added) err(`  added ${i.list} ${i.key}`);
        for (const i of n.removed) err(`  removed ${i.list} ${i.key}`);
        for (const i of n.changed) err(`  changed ${i.list} ${i.key}`);
        if (n.instructionsChanged) err("  changed instructions");
      }
      return EXIT.SURFACE_MISMATCH;
    }
  }
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE + "\n");
    return EXIT.VALID;
  }
  const parsed = parseArgs(argv);
  if (!parsed.ok) {
    err(parsed.message);
    process.stderr.write(USAGE + "\n");
    return EXIT.USAGE;
  }
  const { args } = parsed;
  let text: string;
  try {
    text = await readFile(args.recordPath, "utf8");
  } catch (error) {
    err(
      `cannot read ${args.recordPath}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return EXIT.USAGE;
  }
  const key = await loadKey(args);
  if (!key.ok) {
    err(key.message);
    return EXIT.USAGE;
  }
  const result = verifyRecord(text, key.key);
  if (!result.ok) {
    err(`${result.reason}: ${result.message}`);
    for (const i of result.issues ?? []) err(`  ${i.path}: ${i.message}`);
    return result.reason === "bad_key" ? EXIT.USAGE : EXIT.INVALID;
  }
  const r = result.record;
  out(`valid: signed by key ${result.keyId} (${key.from})`);
  out(`  decision ${r.decision.id}: ${r.decision.verdict}, ${r.server.name} into ${r.agent.name}`);
  out(`  tool set: ${r.decision.toolSet.map((t) => `${t.serverId}/${t.tool}`).join(", ")}`);
  out(`  ${r.basis.statement}; image ${r.server.imageDigest ?? "(no digest recorded)"}`);
  out(
    `  decided by ${r.decision.reviewer} at ${r.decision.decidedAt}; issued ${r.issuedAt} from review ${r.review.id} revision ${r.review.revision}`,
  );
  if (args.url === null && args.command === null) return EXIT.VALID;
  return checkLive(args, r);
}
