// Compiles the demo stdio servers (servers/*.ts the allowlisted launchers run) into plain ESM
// files in servers/dist/ that `node` runs directly. The workbench runs every stdio server in its
// bubblewrap sandbox, where tsx would compile the TypeScript afresh on every run (its cache cannot
// be shared between runs: one server could plant code a later run executes); the demo's first
// Inspect took about a minute on a loaded machine. Runs at install (postinstall), before
// `npm run build` and `npm run dev`, and on `npm run build:servers`. servers/dist/ is not committed.
import { mkdirSync, renameSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const OUT_DIR = path.join(ROOT, "servers/dist");

/** The servers the launchers in config/launchers.json run compiled; each becomes servers/dist/NAME.js. */
const COMPILED_SERVERS = ["knowledge-mcp", "knowledge-mcp-v4.2", "deploy-mcp"];

/**
 * Each server runs its main only when it is the script node was started with
 * (`import.meta.url === pathToFileURL(process.argv[1]).href`). In a bundle every module's
 * import.meta.url is the bundle's, so knowledge-mcp's main would also start inside
 * knowledge-mcp-v4.2.js: a module other than the entry keeps its own source file's URL.
 */
const ownImportMetaUrl = (entry) => ({
  name: "own-import-meta-url",
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (args.path === entry || args.path.includes(`${path.sep}node_modules${path.sep}`)) return;
      const source = await readFile(args.path, "utf8");
      // A URL no script path ever has: that module's main never starts here.
      const url = JSON.stringify(`relay-review-bundled:${path.relative(ROOT, args.path)}`);
      return { contents: source.replaceAll("import.meta.url", url), loader: "ts" };
    });
  },
});

const staging = `${OUT_DIR}.${process.pid}.tmp`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
// One build per server, so each entry's own import.meta.url is the only one left untouched.
await Promise.all(
  COMPILED_SERVERS.map((name) => {
    const entry = path.join(ROOT, "servers", `${name}.ts`);
    return build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: path.join(staging, `${name}.js`),
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      tsconfig: "tsconfig.json",
      // Bundled CommonJS dependencies call require(); give the ESM output one.
      banner: {
        js: "import { createRequire as __rrCreateRequire } from 'node:module'; const require = __rrCreateRequire(import.meta.url);",
      },
      plugins: [ownImportMetaUrl(entry)],
      logLevel: "warning",
    });
  }),
);
rmSync(OUT_DIR, { recursive: true, force: true });
renameSync(staging, OUT_DIR);
console.log(
  `build-servers: compiled ${COMPILED_SERVERS.length} demo servers into ${path.relative(ROOT, OUT_DIR)}`,
);
