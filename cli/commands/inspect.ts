/**
 * `relay-review inspect [--json] [limits…] (--url URL | -- COMMAND [ARGS…])`: connect for real,
 * list the whole surface, and print it with effective annotations, suspicious-text flags and the
 * fingerprint. `--json` prints one object: `{ registration, snapshot, suspicious }` (indented on a
 * terminal, one line otherwise), where
 * `registration` is the pin record (see docs/fingerprint.md) and `snapshot` every listed item.
 * Exit 0 on success, 1 when the inspection failed (the message names the tripped limit), 2 on usage.
 */
import { TARGET_USAGE, formatInspectError, parseArgs } from "@/cli/shared/args";
import { loadInspector, prespawn } from "@/cli/shared/runtime";

const USAGE = `usage: relay-review inspect [--json] [--name NAME] [--image REF@sha256:…] [--warn] TARGET\n${TARGET_USAGE}`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  const parsed = parseArgs(argv, ["--name", "--image"], ["--json", "--warn", "--quiet"]);
  if (parsed.errors.length || !parsed.target) {
    process.stderr.write(`relay-review inspect: ${parsed.errors.join("; ")}\n${USAGE}\n`);
    return 2;
  }
  const started = await prespawn(parsed.target);
  if (started.error) {
    process.stderr.write(`relay-review inspect: connect_failed: could not start ${JSON.stringify(parsed.target.kind === "stdio" ? parsed.target.command : "")}: ${started.error}\n`);
    return 1;
  }
  // Everything else (the SDK, zod, the surface modules) loads while the server boots.
  const [{ inspectServer }, { renderSnapshot, safeText }, { buildRegistrationRecord }, { scanSurface }, { surfaceOf }] = await Promise.all([
    loadInspector(),
    import("@/cli/shared/render"),
    import("@/lib/surface/registration"),
    import("@/lib/surface/suspicious"),
    import("@/lib/surface/types"),
  ]);
  const isJson = parsed.flags.has("--json");
  const result = await inspectServer(parsed.target, {
    limits: parsed.limits,
    ...(started.child ? { prespawned: started.child } : {}),
    onProgress: parsed.flags.has("--quiet") || isJson ? undefined : (e) => {
      if (e.type === "fallback") process.stderr.write(`relay-review inspect: ${e.reason}\n`);
    },
  });
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
  if (isJson) process.stdout.write(JSON.stringify({ registration, snapshot, suspicious: flags }, null, process.stdout.isTTY ? 2 : undefined) + "\n");
  else process.stdout.write(renderSnapshot(snapshot, flags) + "\n");
  return 0;
}
