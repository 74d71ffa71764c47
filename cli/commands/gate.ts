/**
 * `relay-review gate --record RECORD.json [--public-key FILE | --data DIR] [--key-sha256 HEX]
 *    [--listen PORT] [--max-age-days N (default 90)] [--call-timeout-ms N] [limits…] (--url URL | -- COMMAND [ARGS…])`
 *
 * An MCP proxy an agent's client starts instead of the server. It verifies the record's
 * signature (the key is read, never created: `--public-key`, else `--data`, RELAY_REVIEW_DATA or
 * ./.data; with `--key-sha256 HEX`, as the client-config export writes it, only that key),
 * starts the real server, checks its surface against the record's fingerprint, and only then
 * serves the client: stdio on this process's stdin/stdout, or Streamable HTTP on 127.0.0.1:PORT/mcp
 * with `--listen PORT` (0 picks a port; `listening URL` goes to stdout). Over
 * HTTP every request needs `Authorization: Bearer <token>`: RELAY_REVIEW_GATE_TOKEN, else a token
 * made at start and printed on stdout (`bearer-token TOKEN`); `--listen-no-token` is the explicit
 * opt-out (loopback only, as the gate always is; any local process can then use it).
 *
 * The server gets the environment variables the record names (`server.transport.envNames`, read
 * from the gate's own environment) plus any `--env`; an HTTP server gets the record's headers
 * (`headerEnv`, values from the environment) plus any `--header`.
 *
 * `--sandbox` starts a stdio server in the web app's bubblewrap sandbox (cli/shared/sandbox.ts):
 * no network but its own loopback unless `--egress HOST:PORT` grants a destination through the
 * egress proxy, none of the data folder or the key, named limits (`--sandbox-limit NAME=N`,
 * `--egress-limit NAME=N`). The gate's run is not traced, and its per-run bounds are a session's
 * (GATE_SANDBOX_DEFAULTS), not an inspection's: the server stays up for the agent's whole session.
 *
 * stdout is the MCP channel in stdio mode: nothing else is written there. Events go to stderr as
 * one JSON object per line (`refused_call`, `surface_changed`, …); human-readable messages are
 * prefixed `relay-review gate:`.
 *
 * With OAuth (`--url`), the token is kept fresh for the whole session, and a relayed request the
 * server answers with 403 insufficient_scope gets a wider grant mid-session: interactive, a new
 * "authorize at:" line and the loopback redirect (then the request is sent again, once); with
 * client credentials, a token request for the wider scope. A refusal, a timeout or a fourth
 * authorization in one session is the agent's JSON-RPC error (-32003) naming the OAuth step.
 *
 * Exit codes: 0 the client went away; 1 the record was refused (unsigned, tampered, wrong key,
 * malformed, rejected, no live surface, too old, an accepted risk whose `until` has passed);
 * 2 usage or no key; 3 the live surface does not match the record (nothing was relayed); 4 the
 * server could not be started or checked. An acceptance that ends while the gate runs makes every
 * later request a JSON-RPC error (-32004) and one `acceptance_ended` event.
 */
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { TARGET_USAGE, parseArgs } from "@/cli/shared/args";
import { ERA_PREFERENCES, type EraPreference } from "@/lib/mcp/types";
import { loadVerificationKey } from "@/cli/shared/keys";
import {
  OAUTH_BOOL_FLAGS,
  OAUTH_USAGE,
  OAUTH_VALUE_FLAGS,
  prepareCliOAuth,
} from "@/cli/shared/oauth";
import { withRecordVariables } from "@/cli/shared/record-target";
import { safeText } from "@/cli/shared/render";
import {
  SANDBOX_BOOL_FLAGS,
  SANDBOX_LIST_FLAGS,
  SANDBOX_USAGE,
  describeSandbox,
  sandboxCliTarget,
  sandboxFromArgs,
} from "@/cli/shared/sandbox";
import { signingKeySha256, verifyRecord } from "@/lib/decisions/record";
import { DetectionReporter } from "@/lib/gate/reporter";
import {
  DEFAULT_MAX_RECORD_AGE_DAYS,
  checkAcceptedRisks,
  checkRecordAge,
  formatGateEvent,
  type GateEvent,
  type GateRefusal,
} from "@/lib/gate/policy";

export const EXIT = {
  OK: 0,
  RECORD_REFUSED: 1,
  USAGE: 2,
  SURFACE_MISMATCH: 3,
  UPSTREAM_FAILED: 4,
} as const;

const USAGE = [
  "usage: relay-review gate --record RECORD.json [--public-key FILE | --data DIR] [--key-sha256 HEX] [--listen PORT [--listen-no-token]] [--max-age-days N] [--call-timeout-ms N] [--content-scan flag|hold] [--era auto|2026|2025 (default: the record's era)] [--report-to WORKBENCH_URL (token in RELAY_REVIEW_REPORT_TOKEN)] [--sandbox …] TARGET",
  TARGET_USAGE,
  SANDBOX_USAGE,
  OAUTH_USAGE,
].join("\n");

/**
 * The sandbox's limits where the gate's differ from an inspection's. A relay server stays up for
 * the agent's whole session, so the per-run bounds are the most a launcher may set rather than an
 * inspection's: an hour of CPU time instead of a minute, and 100,000 proxied requests and 4 GiB
 * instead of 256 and 64 MiB. Connections at once, idle and connect times stay as they are.
 */
const GATE_SANDBOX_DEFAULTS = {
  limits: { cpuSeconds: 3_600 },
  egressLimits: { requests: 100_000, totalMiB: 4_096 },
};

const say = (line: string) => process.stderr.write(`relay-review gate: ${safeText(line)}\n`);
const emit = (event: GateEvent) => process.stderr.write(formatGateEvent(event));

function refuse(refusal: GateRefusal, code: number, detail?: string): number {
  say(`refused to start: ${refusal.message}`);
  if (detail) process.stderr.write(safeText(detail).replace(/^/gm, "  ") + "\n");
  emit({ event: "refused_start", reason: refusal.reason, message: refusal.message });
  return code;
}

const wholeNumber = (flag: string, v: string | true | undefined): number | null | string => {
  if (v === undefined) return null;
  const n = Number(v);
  return typeof v === "string" && Number.isInteger(n) && n >= 0
    ? n
    : `${flag} must be a whole number`;
};

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(
    argv,
    [
      "--record",
      "--public-key",
      "--data",
      "--listen",
      "--max-age-days",
      "--call-timeout-ms",
      "--key-sha256",
      "--report-to",
      "--content-scan",
      "--era",
      ...OAUTH_VALUE_FLAGS,
    ],
    ["--listen-no-token", ...SANDBOX_BOOL_FLAGS, ...OAUTH_BOOL_FLAGS],
    SANDBOX_LIST_FLAGS,
  );
  if (parsed.isHelp) {
    process.stderr.write(USAGE + "\n"); // stdout is the MCP channel
    return EXIT.OK;
  }
  const f = parsed.flags;
  const recordPath = f.get("--record");
  if (typeof recordPath !== "string") parsed.errors.push("--record RECORD.json is required");
  if (f.has("--public-key") && f.has("--data"))
    parsed.errors.push("give --public-key or --data, not both");
  const listen = wholeNumber("--listen", f.get("--listen"));
  const maxAge = wholeNumber("--max-age-days", f.get("--max-age-days"));
  const callTimeout = wholeNumber("--call-timeout-ms", f.get("--call-timeout-ms"));
  for (const v of [listen, maxAge, callTimeout]) if (typeof v === "string") parsed.errors.push(v);
  const pinnedKey = f.get("--key-sha256");
  if (
    pinnedKey !== undefined &&
    (typeof pinnedKey !== "string" || !/^[0-9a-f]{64}$/i.test(pinnedKey))
  )
    parsed.errors.push(
      "--key-sha256 must be 64 hex characters (the SHA-256 of the raw public key)",
    );
  const envToken = process.env.RELAY_REVIEW_GATE_TOKEN?.trim() || null;
  // Detection reports (issue 31): the token comes from the environment, never argv (ps shows argv).
  const reportTo = f.get("--report-to");
  const reportToken = process.env.RELAY_REVIEW_REPORT_TOKEN ?? null;
  if (reportTo !== undefined && (typeof reportTo !== "string" || !reportToken))
    parsed.errors.push("--report-to URL needs RELAY_REVIEW_REPORT_TOKEN (a reporting token)");
  const contentScan = f.get("--content-scan");
  if (contentScan !== undefined && contentScan !== "flag" && contentScan !== "hold")
    parsed.errors.push("--content-scan is flag or hold");
  // The upstream era: default the one the record's inspection spoke (issue 30 item 4).
  const era = f.get("--era");
  if (era !== undefined && !(ERA_PREFERENCES as readonly unknown[]).includes(era))
    parsed.errors.push("--era is auto, 2026 or 2025");
  const isOpen = f.has("--listen-no-token");
  if (isOpen && listen === null) parsed.errors.push("--listen-no-token applies to --listen only");
  if (isOpen && envToken !== null)
    parsed.errors.push(
      "--listen-no-token and RELAY_REVIEW_GATE_TOKEN contradict each other: unset the variable or drop the flag",
    );
  const sandbox = parsed.errors.length
    ? null
    : await sandboxFromArgs(parsed, GATE_SANDBOX_DEFAULTS);
  if (sandbox && !sandbox.ok) parsed.errors.push(sandbox.message);
  if (parsed.errors.length || !parsed.target || typeof recordPath !== "string") {
    say(parsed.errors.join("; "));
    process.stderr.write(USAGE + "\n");
    return EXIT.USAGE;
  }

  let text: string;
  try {
    text = await readFile(recordPath, "utf8");
  } catch (error) {
    say(`cannot read ${recordPath}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.USAGE;
  }
  const publicKeyFile = f.get("--public-key");
  const dataDir = f.get("--data");
  const key = await loadVerificationKey({
    publicKeyFile: typeof publicKeyFile === "string" ? publicKeyFile : null,
    dataDir: typeof dataDir === "string" ? dataDir : null,
  });
  if (!key.ok) {
    say(key.message);
    return EXIT.USAGE;
  }
  // The client config pins the key: a key file swapped beside the record (with a record of its
  // own) is not the workbench's, whatever it verifies.
  if (typeof pinnedKey === "string") {
    const actual = signingKeySha256(key.key);
    if (actual !== pinnedKey.toLowerCase())
      return refuse(
        {
          reason: "wrong_key",
          message: `the public key ${key.from} (sha256 ${actual}) is not the pinned key ${pinnedKey.toLowerCase()} (--key-sha256)`,
        },
        EXIT.RECORD_REFUSED,
      );
  }
  const verified = verifyRecord(text, key.key);
  if (!verified.ok) {
    const lead = {
      unsigned: "unsigned record",
      tampered: "tampered record",
      wrong_key: "record signed by another key",
      malformed: "malformed record",
      bad_key: "unusable key",
    }[verified.reason];
    const detail = (verified.issues ?? []).map((i) => `${i.path}: ${i.message}`).join("\n");
    return refuse(
      { reason: verified.reason, message: `${lead}: ${verified.message}` },
      verified.reason === "bad_key" ? EXIT.USAGE : EXIT.RECORD_REFUSED,
      detail || undefined,
    );
  }
  const record = verified.record;
  const tooOld = checkRecordAge(
    record,
    new Date(),
    typeof maxAge === "number" ? maxAge : DEFAULT_MAX_RECORD_AGE_DAYS,
  );
  if (tooOld) return refuse(tooOld, EXIT.RECORD_REFUSED);
  // An acceptance that has ended is refused here, before any server starts; one that ends while
  // the gate runs stops it at the next request (lib/mcp/node/gate.ts `handle`).
  const ended = checkAcceptedRisks(record, new Date());
  if (ended) return refuse(ended, EXIT.RECORD_REFUSED);

  const withVariables = withRecordVariables(parsed.target, record.server.transport);
  for (const name of withVariables.missing)
    say(`warning: the record names ${name}, which is not set in this environment`);
  let serverTarget = withVariables.target;
  const sandboxSettings = sandbox?.ok ? sandbox.sandbox : null;
  if (sandboxSettings && serverTarget.kind === "stdio") {
    const sandboxed = await sandboxCliTarget(serverTarget, sandboxSettings, {
      dataDir: typeof dataDir === "string" ? dataDir : null,
      trace: false,
    });
    if (!sandboxed.ok)
      return refuse(
        { reason: "upstream_failed", message: `cannot sandbox the server: ${sandboxed.message}` },
        EXIT.UPSTREAM_FAILED,
      );
    serverTarget = sandboxed.target;
    say(describeSandbox(sandboxed.target));
  }
  // OAuth: the token is kept fresh for the whole relaying session (refreshed before it expires,
  // and on a 401), in this process's memory only.
  const prepared = await prepareCliOAuth(f, serverTarget, say);
  if (!prepared.ok) {
    say(prepared.message);
    process.stderr.write(USAGE + "\n");
    return EXIT.USAGE;
  }
  const target = prepared.target;

  const { startGate } = await import("@/lib/mcp/node/gate");
  // Set once the gate has started: the reporter asks the workbench about its held results.
  let running: { heldIds(): string[]; release(id: string): boolean } | null = null;
  const reporter =
    typeof reportTo === "string" && reportToken
      ? new DetectionReporter({
          url: reportTo,
          token: reportToken,
          agent: record.agent.name,
          onError: say,
          held: () => running?.heldIds() ?? [],
          onReleased: (ids) => ids.forEach((id) => running?.release(id)),
        })
      : null;
  const startOnce = () =>
    startGate({
      record,
      target,
      limits: parsed.limits,
      ...(typeof callTimeout === "number" ? { callTimeoutMs: callTimeout } : {}),
      ...(contentScan === "hold" || contentScan === "flag" ? { contentScan } : {}),
      ...(era !== undefined ? { era: era as EraPreference } : {}),
      ...(reporter ? { onScanned: (s, e) => reporter.scanned(s, e) } : {}),
      onEvent: emit,
      ...(prepared.oauth ? { consent: prepared.oauth.consent } : {}),
    });
  const started = prepared.oauth
    ? await prepared.oauth.authorizing(startOnce, (error) => ({
        ok: false as const,
        refusal: { reason: "upstream_failed" as const, message: error.message },
        error,
      }))
    : await startOnce();
  if (!started.ok) {
    await prepared.oauth?.close();
    const code =
      started.refusal.reason === "surface_mismatch" || started.refusal.reason === "incomparable"
        ? EXIT.SURFACE_MISMATCH
        : started.refusal.reason === "upstream_failed"
          ? EXIT.UPSTREAM_FAILED
          : EXIT.RECORD_REFUSED;
    const detail = [
      started.detail,
      started.stderrTail
        ? `server stderr (last lines):\n${started.stderrTail.split("\n").slice(-8).join("\n")}`
        : undefined,
    ]
      .filter(Boolean)
      .join("\n");
    return refuse(started.refusal, code, detail || undefined);
  }
  const gate = started.gate;
  running = gate;
  const base = {
    event: "gate_started" as const,
    server: gate.policy.serverName,
    decision: gate.policy.decisionId,
    surface_sha256: gate.policy.surfaceSha256,
    tools: gate.visibleTools,
    // The era spoken upstream, and where URL-mode elicitation may send the user (issue 30 item 4).
    era: gate.snapshot?.era ?? "2025",
    elicitation_url_domains: record.registration?.elicitation_url_domains ?? [],
    ...(sandboxSettings ? { sandbox: { egress: [...sandboxSettings.egress] } } : {}),
  };
  // The loopback listener stays up while the gate relays: a call the listing did not need may get
  // 403 insufficient_scope, and the step-up's consent comes back to it (only for a state it made).
  const closeAll = async () => {
    await gate.close();
    await reporter?.close();
    await prepared.oauth?.close();
  };
  const stop = () => void closeAll().finally(() => process.exit(EXIT.OK));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  if (typeof listen === "number") {
    // Any local process can reach 127.0.0.1, so a token is the default: RELAY_REVIEW_GATE_TOKEN,
    // else one made here and printed on stdout for the operator to give the agent's client.
    const token = isOpen ? null : (envToken ?? randomBytes(32).toString("base64url"));
    const server = await gate.listen(listen, token);
    emit({ ...base, transport: "streamable-http", listen: server.url });
    process.stdout.write(`listening ${server.url}\n`);
    if (token !== null && envToken === null) process.stdout.write(`bearer-token ${token}\n`);
    if (token === null)
      say("--listen-no-token: any process on this machine can use this gate without a token");
    await gate.upstreamClosed;
    await server.close();
    await closeAll();
    return EXIT.OK;
  }
  emit({ ...base, transport: "stdio" });
  await gate.serveStdio();
  await closeAll();
  return EXIT.OK;
}
