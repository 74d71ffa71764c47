// Runs lib/store/rekey-command.ts through tsx, with `server-only` resolved as under react-server
// (as bin/relay-review.mjs does for the CLI). See docs/secrets.md § Re-keying.
import { register as registerHooks } from "node:module";
import { pathToFileURL } from "node:url";
import path from "node:path";

const { register } = await import("tsx/esm/api");
register();
registerHooks(new URL("../cli/shared/server-only-hook.mjs", import.meta.url));
const { runRekey } = await import(
  pathToFileURL(path.resolve(import.meta.dirname, "../lib/store/rekey-command.ts")).href
);
process.exitCode = await runRekey(process.argv.slice(2));
