/**
 * `relay-review` command dispatcher. Each subcommand lives in cli/commands/<name>.ts and exports
 * `run(argv): Promise<number>` (the exit code). Errors go to stderr with a non-zero exit.
 */
type Command = { run: (argv: string[]) => Promise<number> };

/**
 * Each command is imported only when it runs (`inspect` starts its server before the SDK loads).
 * The specifiers are literals so a bundler can follow them (see bin/relay-review.mjs).
 */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  inspect: {
    summary:
      "inspect [--json] [--apps] (--url URL | -- COMMAND [ARGS…])   print a server's live surface and fingerprint",
    load: () => import("./commands/inspect"),
  },
  verify: {
    summary:
      "verify --pin RECORD.json (--url URL | -- COMMAND [ARGS…])   exit 0 when the live surface matches the pin",
    load: () => import("./commands/verify"),
  },
  "verify-record": {
    summary:
      "verify-record RECORD.json [--url URL | -- COMMAND [ARGS…]] [--workbench URL | --share LINK]   check a decision record's signature (and the live surface, and whether the workbench still calls it current)",
    load: () => import("./commands/verify-record"),
  },
  check: {
    summary:
      "check --workbench URL --review ID [--json]   exit by the review's state: 0 current, 3 blocked, 4 failing, 5 stale (6 workbench unreachable)",
    load: () => import("./commands/check"),
  },
  sarif: {
    summary:
      "sarif --workbench URL --review ID [--output FILE]   the review's findings as SARIF 2.1.0, with stable fingerprints",
    load: () => import("./commands/sarif"),
  },
  gate: {
    summary:
      "gate --record RECORD.json [--listen PORT] (--url URL | -- COMMAND [ARGS…])   MCP proxy enforcing a decision",
    load: () => import("./commands/gate"),
  },
  audit: {
    summary:
      "audit verify (--workbench URL | --file EXPORT.json) [--public-key FILE]   walk the audit log's hash chain and signed heads: 0 intact, 1 broken (names the first break)",
    load: () => import("./commands/audit"),
  },
  detect: {
    summary:
      "detect [--json] FILE|- | --jsonl FILE | eval   scan returned text for payloads aimed at a model (a count, not a control)",
    load: () => import("./commands/detect"),
  },
  flags: {
    summary:
      "flags --workbench URL --review ID [--held] [--json]   list the detector's flags on a review, and which results a gate holds",
    load: () => import("./commands/flags"),
  },
  release: {
    summary:
      "release FLAG_ID --workbench URL --review ID   let a result a gate held on a detector flag through to the agent",
    load: () => import("./commands/release"),
  },
  import: {
    summary:
      "import FILE [--url WORKBENCH]   register servers and an agent from an MCP client config",
    load: () => import("./commands/import"),
  },
};

function usage(): string {
  return [
    "usage: relay-review <command> [options]",
    "",
    ...Object.values(COMMANDS).map((c) => `  ${c.summary}`),
  ].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h") {
    process.stdout.write(usage() + "\n");
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`relay-review: unknown command ${JSON.stringify(name)}\n${usage()}\n`);
    return 2;
  }
  try {
    const mod = await command.load();
    return await mod.run(rest);
  } catch (error) {
    // Loaded only now: a command's own imports stay lazy. The message may quote a server or a file.
    const { safeText } = await import("./shared/render");
    process.stderr.write(
      `relay-review ${name}: ${safeText(error instanceof Error ? error.message : String(error))}\n`,
    );
    return 1;
  }
}
