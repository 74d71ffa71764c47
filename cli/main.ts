/**
 * `relay-review` command dispatcher. Each subcommand lives in cli/commands/<name>.ts and exports
 * `run(argv): Promise<number>` (the exit code). Errors go to stderr with a non-zero exit.
 */
const COMMANDS: Record<string, { summary: string; file: string }> = {
  inspect: { summary: "inspect [--json] (--url URL | -- COMMAND [ARGS…])   print a server's live surface and fingerprint", file: "inspect" },
  verify: { summary: "verify --pin RECORD.json (--url URL | -- COMMAND [ARGS…])   exit 0 when the live surface matches the pin", file: "verify" },
  "verify-record": { summary: "verify-record RECORD.json [--url URL | -- COMMAND [ARGS…]]   check a decision record's signature (and the live surface)", file: "verify-record" },
  gate: { summary: "gate --record RECORD.json [--listen PORT] (--url URL | -- COMMAND [ARGS…])   MCP proxy enforcing a decision", file: "gate" },
  import: { summary: "import FILE [--url WORKBENCH]   register servers and an agent from an MCP client config", file: "import" },
};

function usage(): string {
  return ["usage: relay-review <command> [options]", "", ...Object.values(COMMANDS).map((c) => `  ${c.summary}`)].join("\n");
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
  let mod: { run: (argv: string[]) => Promise<number> };
  try {
    // Loaded by path so that a command still being built does not break the others.
    mod = (await import(new URL(`./commands/${command.file}.ts`, import.meta.url).href)) as typeof mod;
  } catch (error) {
    process.stderr.write(`relay-review: the ${name} command is not available in this build (${String(error)})\n`);
    return 2;
  }
  try {
    return await mod.run(rest);
  } catch (error) {
    process.stderr.write(`relay-review ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
