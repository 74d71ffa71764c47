#!/usr/bin/env node
// Entry point for `npx relay-review`. Runs the CLI from the bundle scripts/build-cli.mjs writes at
// install, while no source file is newer than it; otherwise (an edit since, or no bundle) runs the
// TypeScript sources through tsx, so no build step is ever needed and nothing runs stale.
import { readFileSync, statSync } from "node:fs";
import { register as registerHooks } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const bundleDir = path.join(root, "node_modules/.cache/relay-review-cli");

/** The bundle's entry, or null when it is missing or older than any of its inputs. */
function freshBundle() {
  try {
    const { builtAt, inputs } = JSON.parse(
      readFileSync(path.join(bundleDir, "inputs.json"), "utf8"),
    );
    for (const file of inputs) if (statSync(path.join(root, file)).mtimeMs > builtAt) return null;
    return path.join(bundleDir, "main.js");
  } catch {
    return null; // no bundle, or an input was removed: the sources decide
  }
}

let entry = freshBundle();
if (!entry) {
  const { register } = await import("tsx/esm/api");
  register();
  // `server-only` resolves as under react-server, as in Next's server bundles (the bundle aliases it).
  registerHooks(new URL("../cli/shared/server-only-hook.mjs", import.meta.url));
  entry = path.join(root, "cli/main.ts");
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
