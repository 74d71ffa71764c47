/**
 * Writes lib/detection/measured.ts: the held-out figures (lib/detection/eval.ts) that every count
 * prints beside it (lib/detection/figures.ts). Run after retraining: `npx tsx scripts/measure-detector.ts`.
 * Deterministic but for measuredAt (the date, no time).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as prettier from "prettier";
import { findRoot, heldOutSlices, measure } from "../lib/detection/eval";

const root = findRoot();
const results = heldOutSlices(root).map((s) => ({ slice: s, result: measure(s) }));
const pool = (kind: "attack" | "clean") => {
  let k = 0;
  let n = 0;
  for (const { slice, result } of results)
    if (slice.kind === kind && slice.goal !== null) {
      k += result.rate.k;
      n += result.rate.n;
    }
  return { k, n };
};
const model = readFileSync(path.join(root, "lib/detection/model.json"));
const out = {
  recall: pool("attack"),
  falsePositive: pool("clean"),
  modelSha256: createHash("sha256").update(model).digest("hex"),
  measuredAt: new Date().toISOString().slice(0, 10),
  slices: results.map(({ slice, result }) => ({
    name: slice.name,
    kind: slice.kind,
    k: result.rate.k,
    n: result.rate.n,
  })),
};
// Formatted as the repository formats TypeScript, so `prettier --check .` passes after a rerun.
const file = path.join(root, "lib/detection/measured.ts");
const source =
  "// Written by scripts/measure-detector.ts from the held-out evaluation; do not edit by hand.\n" +
  `export const MEASURED: unknown = ${JSON.stringify(out, null, 2)};\n`;
void (async () => {
  const options = { ...(await prettier.resolveConfig(file)), filepath: file };
  writeFileSync(file, await prettier.format(source, options));
  console.log(
    `recall ${out.recall.k}/${out.recall.n}, false positives ${out.falsePositive.k}/${out.falsePositive.n}`,
  );
})();
