/**
 * `npm run bench`: every benchmark in one run, so ratios compare figures measured side by side.
 * Each module in bench/suites/ exports `run(): Promise<BenchResult[]>`.
 */
import { readdirSync } from "node:fs";
import { register } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { BenchResult } from "./types";

// Suites load lib/mcp/node/*, which import `server-only`: resolve it as Next's server bundles do.
register(new URL("../cli/shared/server-only-hook.mjs", import.meta.url));

const dir = path.join(import.meta.dirname, "suites");
const files = readdirSync(dir).filter((f) => f.endsWith(".ts")).sort();
const results: BenchResult[] = [];
let failed = false;
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { run: () => Promise<BenchResult[]> };
  console.log(`\n== ${file}`);
  for (const r of await mod.run()) {
    results.push(r);
    const verdict = r.pass ? "PASS" : "MISS";
    if (!r.pass) failed = true;
    console.log(`${verdict}  ${r.name}: ${r.figure}  (goal: ${r.goal})`);
  }
}
console.log(`\n${results.filter((r) => r.pass).length} of ${results.length} goals met`);
process.exitCode = failed ? 1 : 0;
