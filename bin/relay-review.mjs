#!/usr/bin/env node
// Entry point for `npx relay-review`: runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from "tsx/esm/api";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

register();
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { main } = await import(pathToFileURL(path.join(root, "cli/main.ts")).href);
process.exitCode = await main(process.argv.slice(2));
