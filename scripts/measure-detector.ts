/**
 * Writes lib/detection/measured.json: the held-out figures (lib/detection/eval.ts) that every count
 * prints beside it (lib/detection/figures.ts). Run after retraining: `npx tsx scripts/measure-detector.ts`.
 * Deterministic but for measuredAt (the date, no time).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
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
writeFileSync(path.join(root, "lib/detection/measured.json"), `${JSON.stringify(out, null, 2)}\n`);
console.log(
  `recall ${out.recall.k}/${out.recall.n}, false positives ${out.falsePositive.k}/${out.falsePositive.n}`,
);
