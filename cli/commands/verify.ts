/**
 * `relay-review verify --pin RECORD.json [limits…] (--url URL | -- COMMAND [ARGS…])`: inspect the
 * live surface and compare it with the pin. RECORD.json is a registration record or the whole
 * output of `inspect --json` (then the difference is shown field by field, before and after).
 * Exit 0: match. 1: mismatch or incomparable (blocked), difference printed. 2: usage or a bad
 * pin file. 3: the inspection itself failed (the message names the tripped limit).
 */
import { readFileSync } from "node:fs";
import { declaresAppsExtension } from "@/lib/mcp/capabilities";
import type { InspectResult } from "@/lib/mcp/types";
import { TARGET_USAGE, formatInspectError, parseArgs } from "@/cli/shared/args";
import {
  OAUTH_BOOL_FLAGS,
  OAUTH_USAGE,
  OAUTH_VALUE_FLAGS,
  prepareCliOAuth,
} from "@/cli/shared/oauth";
import { safeText } from "@/cli/shared/render";
import { loadInspector, prespawn } from "@/cli/shared/runtime";
import { formatSurfaceDiff } from "@/lib/surface/diff";
import { parseStrictJson } from "@/lib/strict-json";
import { comparePin, parseRegistrationRecord, type NameDiff } from "@/lib/surface/registration";
import { parseSurfaceSnapshot, surfaceOf, type Surface } from "@/lib/surface/types";

const USAGE = `usage: relay-review verify --pin RECORD.json TARGET\n${TARGET_USAGE}\n${OAUTH_USAGE}`;

// The pin file may come from anywhere and the live surface is the server's: both print through safeText.
const say = (text: string) => process.stdout.write(`${safeText(text)}\n`);
const err = (text: string) => process.stderr.write(`relay-review verify: ${safeText(text)}\n`);

function formatNames(n: NameDiff): string {
  const lines: string[] = [];
  for (const a of n.added) lines.push(`+ ${a.list} ${JSON.stringify(a.key)}`);
  for (const r of n.removed) lines.push(`- ${r.list} ${JSON.stringify(r.key)}`);
  for (const c of n.changed) lines.push(`~ ${c.list} ${JSON.stringify(c.key)} (item hash differs)`);
  if (n.instructionsChanged) lines.push("~ instructions (hash differs)");
  return lines.join("\n");
}

export async function run(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv, ["--pin", ...OAUTH_VALUE_FLAGS], ["--quiet", ...OAUTH_BOOL_FLAGS]);
  if (parsed.isHelp) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const pinPath = parsed.flags.get("--pin");
  if (typeof pinPath !== "string") parsed.errors.push("--pin RECORD.json is required");
  if (parsed.errors.length || !parsed.target || typeof pinPath !== "string") {
    err(parsed.errors.join("; "));
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  let json: unknown;
  try {
    const strict = parseStrictJson(readFileSync(pinPath, "utf8"));
    if (!strict.ok) throw new Error(strict.message);
    json = strict.value;
  } catch (error) {
    err(`cannot read ${pinPath}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const wrapper =
    json && typeof json === "object" && "registration" in json
      ? (json as { registration: unknown; snapshot?: unknown })
      : null;
  const record = parseRegistrationRecord(wrapper ? wrapper.registration : json);
  if (!record.ok) {
    err(
      `${pinPath} is not a registration record: ${record.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
    );
    return 2;
  }
  const pinnedSnapshot =
    wrapper?.snapshot !== undefined ? parseSurfaceSnapshot(wrapper.snapshot) : null;
  const pinnedSurface: Surface | undefined =
    pinnedSnapshot && pinnedSnapshot.surfaceSha256 === record.record.surface_sha256
      ? surfaceOf(pinnedSnapshot)
      : undefined;

  const started = await prespawn(parsed.target);
  if (started.error) {
    err(`connect_failed: could not start the server: ${started.error}`);
    return 3;
  }
  const prepared = await prepareCliOAuth(parsed.flags, parsed.target, (line) => {
    if (!parsed.flags.has("--quiet") || line.startsWith("authorize at:")) err(line);
  });
  if (!prepared.ok) {
    err(prepared.message);
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const target = prepared.target;
  const { inspectServer } = await loadInspector();
  const inspectOnce = () =>
    inspectServer(target, {
      limits: parsed.limits,
      // Declared as the pin's inspection declared them, so the two compare like with like.
      ...(declaresAppsExtension(record.record.declared_capabilities)
        ? { hostRendersApps: true }
        : {}),
      ...(started.child ? { prespawned: started.child } : {}),
    });
  const result = prepared.oauth
    ? await prepared.oauth
        .authorizing<InspectResult>(inspectOnce, (error) => ({ ok: false, error }))
        .finally(() => prepared.oauth?.close())
    : await inspectOnce();
  if (!result.ok) {
    err(formatInspectError(result.error));
    return 3;
  }
  const cmp = comparePin(record.record, result.snapshot, pinnedSurface);
  if (cmp.status === "match") {
    say(`match: ${record.record.server} surface_sha256 ${cmp.surfaceSha256}`);
    return 0;
  }
  if (cmp.status === "incomparable") {
    say(
      `incomparable: ${cmp.reason}\n  pinned with:    ${cmp.pinned.join(", ")}\n  inspected with: ${cmp.inspected.join(", ")}`,
    );
    return 1;
  }
  const detail = cmp.diff ? formatSurfaceDiff(cmp.diff) : cmp.names ? formatNames(cmp.names) : "";
  say(
    `MISMATCH: ${record.record.server} surface changed${cmp.blocked ? " — blocked (on_surface_change: block)" : " (on_surface_change: warn)"}\n` +
      `  pinned:  ${cmp.expected}\n  live:    ${cmp.actual}` +
      (detail ? `\n${detail}` : ""),
  );
  return 1;
}
