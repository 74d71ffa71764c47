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
// `npm run bench -- roles analysis` runs only the named suites.
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && (only.length === 0 || only.includes(f.slice(0, -3))))
  .sort();
if (files.length === 0) throw new Error(`no bench suite named ${only.join(", ")}`);
const results: BenchResult[] = [];
let failed = false;
for (const file of files) {
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as {
    run: () => Promise<BenchResult[]>;
  };
  console.log(`\n== ${file}`);
  // A suite that throws is reported as a miss, and the suites after it still run.
  const suiteResults = await mod.run().catch((error: unknown): BenchResult[] => [
    {
      name: file,
      figure: `not measured: the suite failed: ${error instanceof Error ? error.message : String(error)}`,
      goal: "the suite runs",
      pass: false,
    },
  ]);
  for (const r of suiteResults) {
    results.push(r);
    const verdict = r.pass ? "PASS" : "MISS";
    if (!r.pass) failed = true;
    console.log(`${verdict}  ${r.name}: ${r.figure}  (goal: ${r.goal})`);
  }
}
console.log(`\n${results.filter((r) => r.pass).length} of ${results.length} goals met`);
process.exitCode = failed ? 1 : 0;
