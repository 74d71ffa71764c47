/**
 * `relay-review inspect [--json] [--apps] [limits…] (--url URL | -- COMMAND [ARGS…])`: connect for
 * real, list the whole surface, and print it with effective annotations, suspicious-text flags and
 * the fingerprint. `--apps` declares the MCP Apps extension, as the workbench's per-server opt-in
 * "the agent's host renders MCP Apps" does (issue 30): a server may list its UI tools only then, and
 * the pin record names the extension, so `verify` declares it again. `--json` prints one object: `{ registration, snapshot, suspicious }` (indented on a
 * terminal, one line otherwise), where
 * `registration` is the pin record (see docs/fingerprint.md) and `snapshot` every listed item.
 * Exit 0 on success, 1 when the inspection failed (the message names the tripped limit), 2 on usage.
 * The command runs as typed, on the operator's own machine, unsandboxed; `--sandbox` runs it in the
 * web app's bubblewrap sandbox instead (default limits, no network unless `--egress` grants it;
 * cli/shared/sandbox.ts) and prints what it tried.
 */
import { TARGET_USAGE, formatInspectError, parseArgs } from "@/cli/shared/args";
import {
  OAUTH_BOOL_FLAGS,
  OAUTH_USAGE,
  OAUTH_VALUE_FLAGS,
  prepareCliOAuth,
} from "@/cli/shared/oauth";
import { loadInspector, prespawn } from "@/cli/shared/runtime";
import {
  SANDBOX_BOOL_FLAGS,
  SANDBOX_LIST_FLAGS,
  SANDBOX_USAGE,
  sandboxCliTarget,
  sandboxFromArgs,
} from "@/cli/shared/sandbox";
import type { SandboxReport } from "@/lib/sandbox/plan";
import { ERA_PREFERENCES, type EraPreference, type InspectResult } from "@/lib/mcp/types";

function renderSandboxReport(report: SandboxReport, safeText: (s: string) => string): string {
  if (!report.sandboxed) return `relay-review inspect: ran without a sandbox: ${report.reason}\n`;
  const lines = [
    `relay-review inspect: sandboxed (${report.mechanism}, network ${report.network})`,
  ];
  if (report.totalBound)
    lines.push(
      report.totalBound.enforced
        ? `  whole sandbox bounded by ${report.totalBound.by}: ${report.totalBound.memoryMiB} MiB, ${report.totalBound.processes} processes`
        : `  no bound on the whole sandbox's memory and processes (only per-process limits): ${report.totalBound.reason}`,
    );
  if (!report.traced) lines.push(`  ${report.traceNote ?? "no trace"}`);
  for (const a of report.attempts)
    lines.push(
      `  tried ${a.kind} ${safeText(a.target)}${a.write ? " (write)" : ""}: ${a.result}${a.count > 1 ? ` ×${a.count}` : ""}`,
    );
  if (report.droppedAttempts)
    lines.push(`  … and ${report.droppedAttempts} more distinct attempts`);
  if (report.egress) {
    lines.push(
      `  egress granted: ${report.egress.grants.join(", ")} (through ${report.egress.proxy})`,
    );
    for (const a of report.egress.attempts)
      lines.push(
        `  egress ${safeText(a.via)} ${safeText(a.target)}: ${a.decision}, ${safeText(a.reason)}${a.outcome ? ` (${safeText(a.outcome)})` : ""}${a.count > 1 ? ` ×${a.count}` : ""}`,
      );
    if (report.egress.droppedAttempts)
      lines.push(`  … and ${report.egress.droppedAttempts} more distinct egress requests`);
  }
  return lines.join("\n") + "\n";
}

const USAGE = `usage: relay-review inspect [--json] [--apps] [--era auto|2026|2025] [--sandbox …] [--name NAME] [--image REF@sha256:…] [--warn] TARGET\n  --era: auto (default over HTTP) asks server/discover first and falls back to the 2025 initialize; 2026 or 2025 speaks that era only (default over stdio: 2025)\n  --apps: declare the MCP Apps extension (the agent's host renders apps), as the workbench's per-server opt-in does\n${TARGET_USAGE}\n${SANDBOX_USAGE}\n${OAUTH_USAGE}`;

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(
    argv,
    ["--name", "--image", "--era", ...OAUTH_VALUE_FLAGS],
    ["--json", "--apps", "--warn", "--quiet", ...SANDBOX_BOOL_FLAGS, ...OAUTH_BOOL_FLAGS],
    SANDBOX_LIST_FLAGS,
  );
  if (parsed.isHelp) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  if (parsed.errors.length || !parsed.target) {
    process.stderr.write(`relay-review inspect: ${parsed.errors.join("; ")}\n${USAGE}\n`);
    return 2;
  }
  const era = parsed.flags.get("--era");
  if (era !== undefined && !(ERA_PREFERENCES as readonly unknown[]).includes(era)) {
    process.stderr.write(`relay-review inspect: --era must be auto, 2026 or 2025\n${USAGE}\n`);
    return 2;
  }
  const sandbox = await sandboxFromArgs(parsed);
  if (!sandbox.ok) {
    process.stderr.write(`relay-review inspect: ${sandbox.message}\n${USAGE}\n`);
    return 2;
  }
  if (sandbox.sandbox && parsed.target.kind === "stdio") {
    const sandboxed = await sandboxCliTarget(parsed.target, sandbox.sandbox, {
      dataDir: null,
      trace: true,
    });
    if (!sandboxed.ok) {
      process.stderr.write(`relay-review inspect: refused: ${sandboxed.message}\n`);
      return 1;
    }
    parsed.target = sandboxed.target;
  }
  // A sandboxed target is started by the transport (it reads strace's record from its own pipes).
  const started =
    parsed.target.kind === "stdio" && parsed.target.sandbox ? {} : await prespawn(parsed.target);
  if (started.error) {
    process.stderr.write(
      `relay-review inspect: connect_failed: could not start ${JSON.stringify(parsed.target.kind === "stdio" ? parsed.target.command : "")}: ${started.error}\n`,
    );
    return 1;
  }
  // Everything else (the SDK, zod, the surface modules) loads while the server boots.
  const [
    { inspectServer },
    { renderSnapshot, safeText },
    { buildRegistrationRecord },
    { scanSurface },
    { surfaceOf },
  ] = await Promise.all([
    loadInspector(),
    import("@/cli/shared/render"),
    import("@/lib/surface/registration"),
    import("@/lib/surface/suspicious"),
    import("@/lib/surface/types"),
  ]);
  const isJson = parsed.flags.has("--json");
  const say = (line: string) => process.stderr.write(`relay-review inspect: ${safeText(line)}\n`);
  const prepared = await prepareCliOAuth(parsed.flags, parsed.target, (line) => {
    if (!parsed.flags.has("--quiet") || line.startsWith("authorize at:")) say(line);
  });
  if (!prepared.ok) {
    process.stderr.write(`relay-review inspect: ${prepared.message}\n${USAGE}\n`);
    return 2;
  }
  const target = prepared.target;
  const inspectOnce = () =>
    inspectServer(target, {
      limits: parsed.limits,
      ...(parsed.flags.has("--apps") ? { hostRendersApps: true } : {}),
      ...(era !== undefined ? { era: era as EraPreference } : {}),
      ...(started.child ? { prespawned: started.child } : {}),
      onProgress:
        parsed.flags.has("--quiet") || isJson
          ? undefined
          : (e) => {
              if (e.type === "fallback") say(e.reason);
            },
    });
  const result = prepared.oauth
    ? await prepared.oauth
        .authorizing<InspectResult>(inspectOnce, (error) => ({ ok: false, error }))
        .finally(() => prepared.oauth?.close())
    : await inspectOnce();
  if ("sandbox" in result && result.sandbox && !isJson)
    process.stderr.write(renderSandboxReport(result.sandbox, safeText));
  if (!result.ok) {
    process.stderr.write(`relay-review inspect: ${safeText(formatInspectError(result.error))}\n`);
    return 1;
  }
  const snapshot = result.snapshot;
  const image = parsed.flags.get("--image");
  const name = parsed.flags.get("--name");
  const registration = buildRegistrationRecord(snapshot, {
    ...(typeof name === "string" ? { server: name } : {}),
    image: typeof image === "string" ? image : null,
    onSurfaceChange: parsed.flags.has("--warn") ? "warn" : "block",
  });
  const flags = scanSurface(surfaceOf(snapshot));
  // Indented for a person at a terminal, one line for a pipe or a file (10,000 tools: 3× smaller).
  if (isJson)
    process.stdout.write(
      JSON.stringify(
        {
          registration,
          snapshot,
          suspicious: flags,
          ...(result.sandbox ? { sandbox: result.sandbox } : {}),
          ...(result.authorization ? { authorization: result.authorization } : {}),
        },
        null,
        process.stdout.isTTY ? 2 : undefined,
      ) + "\n",
    );
  else process.stdout.write(renderSnapshot(snapshot, flags) + "\n");
  return 0;
}
