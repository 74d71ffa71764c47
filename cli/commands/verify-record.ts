/**
 * `relay-review verify-record RECORD.json [--public-key FILE | --data DIR] [--url URL | -- COMMAND [ARGS…]]
 *    [--workbench URL | --share LINK [--workbench-max-bytes N]] [--max-age-days N]`
 *
 * A record issued more than `--max-age-days` ago (default 90, DEFAULT_MAX_RECORD_AGE_DAYS) is
 * refused (exit 1) however valid its signature: a decision nobody re-issued in a quarter stops
 * vouching. So is a record with an accepted risk whose `until` has passed (exit 1, naming each
 * ended finding): the approval vouched for that finding only until then.
 *
 * Checks a decision record's Ed25519 signature with the workbench's public key, and, when given a
 * server to reach, that its live surface still matches the record's `surface_sha256`. The key is
 * read, never created: `--public-key` (a PEM public or private key), or the data folder
 * (`--data`, else RELAY_REVIEW_DATA, else ./.data). Record text is printed through `safeText`
 * (control characters and ANSI sequences shown as ⟦…⟧), since a record may come from anywhere.
 *
 * With `--workbench URL` (owner API, `Authorization: Bearer` with RELAY_REVIEW_TOKEN, else the
 * data folder's owner-token file, read and never created) or `--share LINK` (a read-only share
 * link), it asks the workbench whether the decision is current *now*: the record cannot know that
 * the agent's tool set, the image digest or the controls changed, the review can (issue 5). The
 * workbench's text is attacker-controlled too and is printed escaped; the token is never printed.
 *
 * Exit codes: 0 valid (and the live surface matches and the workbench says current, when checked);
 * 1 the signature check failed (unsigned, tampered, wrong key, malformed), or the record is too
 * old or an acceptance in it has ended; 2 usage, unreadable file, no key or no owner token; 3 the
 * live surface does not match the record; 4 the live check could not run; 5 the workbench says
 * the decision is stale; 6 the workbench check could not run, or the workbench has no such review
 * or decision, or its decision by that id is not the record's.
 * When both checks run, both report and the exit code is the first that applies of 3, 5, 4, 6: a
 * definite finding before a check that could not run.
 */
import { readFile } from "node:fs/promises";
import { parseCommandLine, type CommandLine } from "@/cli/shared/args";
import { loadVerificationKey } from "@/cli/shared/keys";
import { withRecordVariables } from "@/cli/shared/record-target";
import { safeText } from "@/cli/shared/render";
import { loadInspector } from "@/cli/shared/runtime";
import {
  MAX_WORKBENCH_RESPONSE_BYTES,
  getWorkbench,
  loadOwnerToken,
  serverErrorMessage,
  type OwnerToken,
} from "@/cli/shared/workbench";
import { declaresAppsExtension } from "@/lib/mcp/capabilities";
import type { InspectTarget } from "@/lib/mcp/types";
import { comparePin } from "@/lib/surface/registration";
import { ListDecisionsResponseSchema } from "@/lib/decisions/api";
import { isPendingRecord, verifyRecord, type DecisionRecord } from "@/lib/decisions/record";
import { DEFAULT_MAX_RECORD_AGE_DAYS, checkAcceptedRisks, checkRecordAge } from "@/lib/gate/policy";
import {
  ShareViewStatusSchema,
  checkRecordAgainstWorkbench,
  decisionsEndpoint,
  parseWorkbenchBase,
  sendsCredentialInClear,
  shareEndpoint,
  workbenchHttpFailure,
  type WorkbenchEndpoint,
} from "@/lib/decisions/workbench-check";

export const EXIT = {
  VALID: 0,
  INVALID: 1,
  USAGE: 2,
  SURFACE_MISMATCH: 3,
  LIVE_UNAVAILABLE: 4,
  WORKBENCH_STALE: 5,
  WORKBENCH_UNAVAILABLE: 6,
} as const;

/** With both checks, the first of these that applies is the exit code: a finding before a check that could not run. */
const EXIT_PRECEDENCE: readonly number[] = [
  EXIT.SURFACE_MISMATCH,
  EXIT.WORKBENCH_STALE,
  EXIT.LIVE_UNAVAILABLE,
  EXIT.WORKBENCH_UNAVAILABLE,
];

const USAGE = [
  "usage: relay-review verify-record RECORD.json [--public-key FILE | --data DIR] [--url URL | -- COMMAND [ARGS…]] [--max-age-days N]",
  "                                  [--workbench URL | --share LINK [--workbench-max-bytes N]]",
  "  --workbench URL  ask the workbench whether the decision is current now (owner token: RELAY_REVIEW_TOKEN,",
  "                   else the owner-token file in --data DIR / RELAY_REVIEW_DATA / ./.data)",
  "  --share LINK     the same through a read-only share link (http://HOST/share/TOKEN)",
  `  --workbench-max-bytes N  largest answer accepted (default ${MAX_WORKBENCH_RESPONSE_BYTES})`,
  `  --max-age-days N  refuse a record issued more than N days ago (default ${DEFAULT_MAX_RECORD_AGE_DAYS})`,
  "exit: 0 valid and current, 1 signature invalid, record too old or an acceptance ended, 2 usage,",
  "      3 live surface differs, 4 live check could not run, 5 stale according to the workbench,",
  "      6 workbench check could not run or decision not found there",
].join("\n");

type Args = {
  recordPath: string;
  publicKeyFile: string | null;
  dataDir: string | null;
  url: string | null;
  command: string[] | null;
  /** Where to ask about the decision now: the owner API under a workbench base URL, or a share link's API. */
  workbench: { via: "owner"; base: string } | { via: "share"; endpoint: WorkbenchEndpoint } | null;
  workbenchMaxBytes: number;
  maxAgeDays: number;
};

/** The record's options, on the CLI's one parser (cli/shared/args.ts). */
function parseRecordArgs(
  line: CommandLine,
): { ok: true; args: Args } | { ok: false; message: string } {
  if (line.errors.length) return { ok: false, message: line.errors.join("; ") };
  const { positionals: positional, command } = line;
  const opts = Object.fromEntries(line.values) as Partial<Record<string, string>>;
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
  if (opts["--workbench"] !== undefined && opts["--share"] !== undefined)
    return { ok: false, message: "give --workbench or --share, not both" };
  const maxBytesText = opts["--workbench-max-bytes"];
  const workbenchMaxBytes =
    maxBytesText === undefined ? MAX_WORKBENCH_RESPONSE_BYTES : Number(maxBytesText);
  if (!Number.isSafeInteger(workbenchMaxBytes) || workbenchMaxBytes < 1)
    return { ok: false, message: "--workbench-max-bytes must be a whole number of bytes" };
  if (
    maxBytesText !== undefined &&
    opts["--workbench"] === undefined &&
    opts["--share"] === undefined
  )
    return { ok: false, message: "--workbench-max-bytes needs --workbench or --share" };
  const maxAgeText = opts["--max-age-days"];
  const maxAgeDays = maxAgeText === undefined ? DEFAULT_MAX_RECORD_AGE_DAYS : Number(maxAgeText);
  if (!Number.isSafeInteger(maxAgeDays) || maxAgeDays < 0)
    return { ok: false, message: "--max-age-days must be a whole number of days" };
  let workbench: Args["workbench"] = null;
  if (opts["--workbench"] !== undefined) {
    const parsed = parseWorkbenchBase(opts["--workbench"]);
    if (!parsed.ok) return parsed;
    workbench = { via: "owner", base: parsed.base };
  } else if (opts["--share"] !== undefined) {
    const parsed = shareEndpoint(opts["--share"]);
    if (!parsed.ok) return parsed;
    workbench = { via: "share", endpoint: parsed.endpoint };
  }
  return {
    ok: true,
    args: {
      recordPath: positional[0]!,
      publicKeyFile: opts["--public-key"] ?? null,
      dataDir: opts["--data"] ?? null,
      url: opts["--url"] ?? null,
      command,
      workbench,
      workbenchMaxBytes,
      maxAgeDays,
    },
  };
}

const out = (line: string) => process.stdout.write(safeText(line) + "\n");
const err = (line: string) =>
  process.stderr.write(`relay-review verify-record: ${safeText(line)}\n`);

/** The server to inspect: the operator's URL or command, given what the record says it needs. */
function liveTarget(
  args: Args,
  record: DecisionRecord,
): { target: InspectTarget; warnings: string[] } {
  const typed: InspectTarget =
    args.command !== null
      ? { kind: "stdio", command: args.command[0]!, args: args.command.slice(1) }
      : { kind: "http", url: args.url! };
  const { target, missing } = withRecordVariables(typed, record.server.transport);
  return { target, warnings: missing.map((name) => `environment variable ${name} is not set`) };
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
  // In the era the record's inspection spoke, declaring what it declared (the MCP Apps extension
  // included): a pin compares like with like (issue 30).
  const result = await inspectServer(target, {
    ...(reg.era ? { era: reg.era } : {}),
    ...(declaresAppsExtension(reg.declared_capabilities) ? { hostRendersApps: true } : {}),
  });
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

/** Ask the workbench (owner API or share link) about the record's decision now, and say what it answered. */
async function checkWorkbench(
  workbench: NonNullable<Args["workbench"]>,
  maxBytes: number,
  record: DecisionRecord,
  owner: OwnerToken | null,
): Promise<number> {
  const reviewId = record.review.id;
  const decisionId = record.decision.id;
  const { via } = workbench;
  const endpoint =
    workbench.via === "share" ? workbench.endpoint : decisionsEndpoint(workbench.base, reviewId);
  if (sendsCredentialInClear(endpoint.apiUrl))
    err(
      `warning: ${via === "share" ? "the share link's token" : "the owner token"} goes to ${endpoint.shown} over plain http, readable on the way; use https off this machine`,
    );
  const fetched = await getWorkbench(
    endpoint,
    owner ? { authorization: `Bearer ${owner.token}` } : {},
    maxBytes,
  );
  if (!fetched.ok) {
    err(`workbench check failed: ${fetched.message}`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  if (fetched.status < 200 || fetched.status > 299) {
    const failure = workbenchHttpFailure(
      via,
      fetched.status,
      serverErrorMessage(fetched.text),
      reviewId,
      owner?.from ?? null,
    );
    err(`workbench check failed: ${failure}`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  let json: unknown;
  try {
    json = JSON.parse(fetched.text);
  } catch {
    err(`workbench check failed: the answer from ${endpoint.shown} is not JSON`);
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  const parsed =
    via === "share"
      ? ShareViewStatusSchema.safeParse(json)
      : ListDecisionsResponseSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    err(
      `workbench check failed: the answer from ${endpoint.shown} is not a ${via === "share" ? "share view" : "decisions list"}${first ? ` (${first.path.join(".") || "(root)"}: ${first.message})` : ""}`,
    );
    return EXIT.WORKBENCH_UNAVAILABLE;
  }
  const body = parsed.data;
  const frozen = "frozen" in body && body.frozen;
  const where =
    via === "share"
      ? `the share link ${endpoint.shown}${frozen ? ` (frozen at revision ${body.revision}; status is against the workbench's latest revision and live surface)` : ""}`
      : `review ${reviewId} revision ${body.revision} at ${endpoint.shown}`;
  const check = checkRecordAgainstWorkbench(record, body.decisions);
  switch (check.kind) {
    case "current":
      out(`workbench: current: decision ${decisionId} in ${where}`);
      return EXIT.VALID;
    case "stale":
      err(`workbench: STALE: decision ${decisionId} in ${where}; decide again. What changed:`);
      for (const c of check.changes) err(`  ${c.what}: ${c.message}`);
      return EXIT.WORKBENCH_STALE;
    case "not_found":
      err(
        via === "share"
          ? `workbench: decision ${decisionId} is not in the review behind ${where}${frozen ? "; a decision made after the freeze is not in it" : ""}`
          : `workbench: decision ${decisionId} is not in ${where} (deleted, or the record comes from another workbench)`,
      );
      return EXIT.WORKBENCH_UNAVAILABLE;
    case "differs":
      err(
        `workbench: the record is not the workbench's decision: decision ${decisionId} in ${where} differs from the signed record in`,
      );
      for (const d of check.differences)
        err(
          d.record === null
            ? `  ${d.field}`
            : `  ${d.field}: record ${d.record}, workbench ${d.workbench}`,
        );
      return EXIT.WORKBENCH_UNAVAILABLE;
  }
}

/** One exit code for the checks that ran: valid only when every one was. */
function combinedExit(codes: readonly number[]): number {
  return (
    EXIT_PRECEDENCE.find((c) => codes.includes(c)) ??
    codes.find((c) => c !== EXIT.VALID) ??
    EXIT.VALID
  );
}

export async function run(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv, {
    values: [
      "--public-key",
      "--data",
      "--url",
      "--workbench",
      "--share",
      "--workbench-max-bytes",
      "--max-age-days",
    ],
    positionals: true,
    command: true,
  });
  if (line.isHelp) {
    process.stdout.write(USAGE + "\n");
    return EXIT.VALID;
  }
  const parsed = parseRecordArgs(line);
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
  const key = await loadVerificationKey(args);
  if (!key.ok) {
    err(key.message);
    return EXIT.USAGE;
  }
  let owner: OwnerToken | null = null;
  if (args.workbench?.via === "owner") {
    const loaded = await loadOwnerToken(args.dataDir);
    if (!loaded.ok) {
      err(loaded.message);
      return EXIT.USAGE;
    }
    owner = loaded.owner;
  }
  const result = verifyRecord(text, key.key);
  if (!result.ok) {
    err(`${result.reason}: ${result.message}`);
    for (const i of result.issues ?? []) err(`  ${i.path}: ${i.message}`);
    return result.reason === "bad_key" ? EXIT.USAGE : EXIT.INVALID;
  }
  const r = result.record;
  const tooOld = checkRecordAge(r, new Date(), args.maxAgeDays);
  if (tooOld) {
    err(`stale: ${tooOld.message}`);
    return EXIT.INVALID;
  }
  const ended = checkAcceptedRisks(r, new Date());
  if (ended) {
    err(`stale: ${ended.message}`);
    return EXIT.INVALID;
  }
  out(`valid: signed by key ${result.keyId} (${key.from})`);
  out(`  decision ${r.decision.id}: ${r.decision.verdict}, ${r.server.name} into ${r.agent.name}`);
  out(`  tool set: ${r.decision.toolSet.map((t) => `${t.serverId}/${t.tool}`).join(", ")}`);
  out(`  ${r.basis.statement}; image ${r.server.imageDigest ?? "(no digest recorded)"}`);
  const author = r.decision.author;
  out(
    `  decided by ${author ? `${author.name} (${author.issuer} ${author.subject})` : (r.decision.reviewer ?? "?")} at ${r.decision.decidedAt}; issued ${r.issuedAt} from review ${r.review.id} revision ${r.review.revision}`,
  );
  for (const a of r.decision.approvals ?? [])
    out(`  approved by ${a.name} (${a.issuer} ${a.subject}) at ${a.at}`);
  if (isPendingRecord(r))
    out(
      `  PENDING: a proposal with ${r.decision.approvals?.length ?? 0} of ${r.decision.requiredApprovals} required approvals; not in force`,
    );
  // What the approval accepts, never left for the reader to infer from a green "valid".
  const accepted = r.decision.acceptedRisks;
  if (accepted && accepted.length > 0) {
    const until = accepted.map((a) => a.until).sort()[0]!;
    out(
      `  ACCEPTS RISK: ${accepted.length} open finding${accepted.length === 1 ? "" : "s"}, until ${until} at the earliest:`,
    );
    for (const a of accepted)
      out(
        `    ${a.severity} ${a.findingId} ${a.kind}: ${a.text}; owner ${a.owner}, until ${a.until}; why: ${a.why}`,
      );
  } else if (r.decision.verdict !== "rejected")
    out(
      accepted
        ? "  accepts no open finding"
        : "  accepted risk not recorded (a version 1 record, made before approvals said what they accept)",
    );
  if (r.decision.supersedes) out(`  supersedes decision ${r.decision.supersedes}`);
  // Where a gate may send the agent's user (URL-mode elicitation, issue 30): shown when admitted.
  const urlHosts = r.registration?.elicitation_url_domains ?? [];
  if (r.registration?.era) out(`  inspected in the ${r.registration.era} protocol era`);
  if (urlHosts.length) out(`  URL-mode elicitation admitted to: ${urlHosts.join(", ")}`);
  // A proposal is signed evidence of what was proposed, not a decision in force: a gate must not pass it.
  if (isPendingRecord(r)) {
    err("pending: this proposal has not been approved by enough people other than its author");
    return EXIT.INVALID;
  }
  const codes: number[] = [];
  if (args.url !== null || args.command !== null) codes.push(await checkLive(args, r));
  if (args.workbench !== null)
    codes.push(await checkWorkbench(args.workbench, args.workbenchMaxBytes, r, owner));
  return combinedExit(codes);
}
