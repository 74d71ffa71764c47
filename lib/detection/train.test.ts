import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bipiaAttacks, bipiaContexts } from "./benchmarks";
import { detect } from "./detect";
import { loadModel, type ModelFile } from "./model";
import { trainingWindows } from "./training-set";
import { packModel, trainWeights, type Example } from "./train";
import shippedFile from "./model.json";

// A small training set from the shipped held-out files (this test checks the trainer, not the model).
const data = "tests/detection/data";
function examples(): Example[] {
  const out: Example[] = [];
  for (const a of bipiaAttacks(data, "text", "test").slice(0, 40))
    for (const w of trainingWindows(a, 1)) out.push({ text: w, label: 1, source: "t" });
  for (const c of bipiaContexts(data, "email", "test").slice(0, 20))
    for (const w of trainingWindows(c.text, 0)) out.push({ text: w, label: 0, source: "t" });
  return out;
}
const bytes = (f: ModelFile) => createHash("sha256").update(JSON.stringify(f)).digest("hex");

describe("detector training", () => {
  it("is reproducible: the same examples and seed give the same bytes, another seed other bytes", () => {
    const ex = examples();
    const a = packModel(trainWeights(ex, { seed: 7, epochs: 3 }), 0.5, {});
    const b = packModel(trainWeights(ex, { seed: 7, epochs: 3 }), 0.5, {});
    const c = packModel(trainWeights(ex, { seed: 8, epochs: 3 }), 0.5, {});
    expect(bytes(a)).toBe(bytes(b));
    expect(bytes(a)).not.toBe(bytes(c));
  });

  it("learns: a model trained on payloads separates a held-back payload from clean mail", () => {
    const model = loadModel(packModel(trainWeights(examples(), { seed: 7 }), 0.5, {}));
    const attack = bipiaAttacks(data, "text", "test")[41]!;
    const clean = bipiaContexts(data, "email", "test")[30]!.text;
    const s = (t: string) => detect(t, { model }).score;
    expect(s(attack)).toBeGreaterThan(s(clean));
  });

  it("ships a small model that loads with no download", () => {
    expect(readFileSync("lib/detection/model.json").length).toBeLessThan(400_000);
    const model = loadModel(shippedFile as ModelFile);
    expect(model.threshold).toBeGreaterThanOrEqual(0.5);
    expect(model.provenance).toHaveProperty("seed");
  });
});
