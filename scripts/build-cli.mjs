// Bundles the CLI (cli/main.ts and everything it imports) into plain ESM with esbuild, so
// `relay-review` starts without compiling TypeScript through tsx's loader hooks on every run
// (about 150-250 ms a start, most of the gap to a bare SDK client in `npm run bench`).
// Runs at install (postinstall) and on `npm run build:cli`. bin/relay-review.mjs uses the bundle
// only while no input is newer than it, and otherwise runs the sources through tsx, so an edit
// is never run stale. Commands stay separate chunks: `inspect` starts its server before the SDK
// loads, so the two boots overlap.
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const BUNDLE_DIR = path.join(ROOT, "node_modules/.cache/relay-review-cli");

const builtAt = Date.now();
const staging = `${BUNDLE_DIR}.${process.pid}.tmp`;
rmSync(staging, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { main: "cli/main.ts" },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  tsconfig: "tsconfig.json",
  // The bundle runs outside Next: `server-only` is the empty module it is under react-server.
  alias: { "server-only": "./node_modules/server-only/empty.js" },
  // Bundled CommonJS dependencies call require(); give the ESM output one.
  banner: {
    js: "import { createRequire as __rrCreateRequire } from 'node:module'; const require = __rrCreateRequire(import.meta.url);",
  },
  metafile: true,
  logLevel: "warning",
});
// What bin/relay-review.mjs compares with: every project file in the bundle, and the lockfile
// (a dependency change rewrites it).
const inputs = Object.keys(result.metafile.inputs)
  .filter((f) => !f.startsWith("node_modules/"))
  .concat("package-lock.json");
mkdirSync(staging, { recursive: true });
writeFileSync(path.join(staging, "inputs.json"), JSON.stringify({ builtAt, inputs }));
rmSync(BUNDLE_DIR, { recursive: true, force: true });
renameSync(staging, BUNDLE_DIR);
console.log(
  `build-cli: bundled ${inputs.length - 1} source files into ${path.relative(ROOT, BUNDLE_DIR)}`,
);
