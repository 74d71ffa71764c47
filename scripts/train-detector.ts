/**
 * Trains the detector's text model (issue 31) and writes lib/detection/model.json.
 *
 *   npx tsx scripts/train-detector.ts --data ../shared/detection [--seed 31] [--out lib/detection/model.json]
 *   npx tsx scripts/train-detector.ts --data ../shared/detection --check   (retrain, compare, write nothing)
 *
 * Reads InjecAgent and BIPIA (MIT) from the data folder, using only the training side: InjecAgent's
 * attacker instructions outside the held-out 30 % (lib/detection/benchmarks.ts), BIPIA's train
 * files. Adds the hand-written text in scripts/detector/handwritten.ts and the frozen prose in
 * scripts/detector/prose (fixed, licensed inputs: nothing from the working tree's docs or
 * node_modules). Reproducible: the same data and seed write the same bytes (`--check` verifies it). With --write-heldout it also copies the held-out test files that
 * `relay-review detect eval` reads into tests/detection/data (with the licences).
 */
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import {
  attackerInstructions,
  bipiaAttacks,
  bipiaContexts,
  injecCases,
  isHeldOutInstruction,
  userCases,
  ENHANCED_PREFIX,
} from "@/lib/detection/benchmarks";
import { buildTrainingSet } from "@/lib/detection/training-set";
import { packModel, trainWeights } from "@/lib/detection/train";
import { handwritten } from "./detector/handwritten";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: "../shared/detection" },
    seed: { type: "string", default: "31" },
    out: { type: "string", default: "lib/detection/model.json" },
    "write-heldout": { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    l2: { type: "string", default: "3e-3" },
    epochs: { type: "string", default: "6" },
    "positive-weight": { type: "string", default: "1.25" },
  },
});
const dir = path.resolve(values.data);
const seed = Number(values.seed);

const sha = (file: string) =>
  createHash("sha256")
    .update(readFileSync(path.join(dir, file)))
    .digest("hex")
    .slice(0, 16);

// Prose written for people, frozen in scripts/detector/prose (NOTICE.md there says what it is and
// under which licence): this repository's README and docs and the READMEs of MIT-licensed packages,
// as they were when frozen. Training never reads the working tree's docs or node_modules, so a
// docs commit or a dependency bump does not change the model.
const PROSE = "scripts/detector/prose/prose.jsonl.gz";
const proseBytes = readFileSync(PROSE);
const prose = gunzipSync(proseBytes)
  .toString("utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as { unit: string; text: string });
const instructions = attackerInstructions(dir);
const trainInstructions = instructions.filter((i) => !isHeldOutInstruction(i));
const hyper = {
  l2: Number(values.l2),
  epochs: Number(values.epochs),
  positiveWeight: Number(values["positive-weight"]),
};
const set = buildTrainingSet(
  {
    trainInstructions: [...trainInstructions, ...trainInstructions.map((i) => ENHANCED_PREFIX + i)],
    userCases: userCases(dir),
    tools: JSON.parse(
      readFileSync(path.join(dir, "injecagent/data/tools.json"), "utf8"),
    ) as unknown[],
    bipiaTextAttacks: bipiaAttacks(dir, "text", "train"),
    bipiaCodeAttacks: bipiaAttacks(dir, "code", "train"),
    bipiaEmail: bipiaContexts(dir, "email", "train"),
    bipiaCode: bipiaContexts(dir, "code", "train"),
    handwritten: handwritten(seed),
    prose: prose.map(({ unit, text }) => ({ unit, text })),
  },
  hyper,
  seed,
);
const { examples, threshold, forModelThreshold, validation } = set;
const trained = trainWeights(examples, { ...hyper, seed });
const model = packModel(
  trained,
  threshold,
  {
    seed,
    hyper,
    examples: examples.length,
    positives: examples.filter((e) => e.label === 1).length,
    trainInstructions: trainInstructions.length,
    heldOutInstructions: instructions.length - trainInstructions.length,
    validation,
    prose: {
      [PROSE]: createHash("sha256").update(proseBytes).digest("hex").slice(0, 16),
      texts: prose.length,
    },
    data: {
      "injecagent/data/attacker_cases_dh.jsonl": sha("injecagent/data/attacker_cases_dh.jsonl"),
      "injecagent/data/attacker_cases_ds.jsonl": sha("injecagent/data/attacker_cases_ds.jsonl"),
      "injecagent/data/user_cases.jsonl": sha("injecagent/data/user_cases.jsonl"),
      "injecagent/data/tools.json": sha("injecagent/data/tools.json"),
      "bipia/benchmark/email/train.jsonl": sha("bipia/benchmark/email/train.jsonl"),
      "bipia/benchmark/code/train.jsonl": sha("bipia/benchmark/code/train.jsonl"),
      "bipia/benchmark/text_attack_train.json": sha("bipia/benchmark/text_attack_train.json"),
      "bipia/benchmark/code_attack_train.json": sha("bipia/benchmark/code_attack_train.json"),
    },
  },
  forModelThreshold,
);
const bytes = JSON.stringify(model) + "\n";
const digest = createHash("sha256").update(bytes).digest("hex");
if (values.check) {
  // Retrain and compare with the committed model instead of writing: the same inputs and seed must
  // give the same bytes at any commit.
  const shipped = createHash("sha256").update(readFileSync(values.out)).digest("hex");
  console.log(`train-detector --check: retrained ${digest}, ${values.out} ${shipped}`);
  if (digest !== shipped) {
    console.error(
      "train-detector --check: MISMATCH, retraining does not reproduce the shipped model",
    );
    process.exit(1);
  }
  console.log("train-detector --check: retraining reproduces the shipped model byte for byte");
  process.exit(0);
}
writeFileSync(values.out, bytes);
console.log(
  `train-detector: ${examples.length} windows (${examples.filter((e) => e.label === 1).length} payload), threshold ${threshold} (${forModelThreshold} for text written for the model), wrote ${values.out} (${Buffer.byteLength(JSON.stringify(model))} bytes)`,
);
console.log(`  validation: ${JSON.stringify(validation)}`);

if (values["write-heldout"]) {
  const out = "tests/detection/data";
  const held = new Set(instructions.filter(isHeldOutInstruction));
  for (const setting of ["base", "enhanced"] as const) {
    const cases = injecCases(dir, setting)
      .filter((c) => held.has(c["Attacker Instruction"]))
      .map((c) => ({
        instruction: c["Attacker Instruction"],
        userTool: c["User Tool"],
        text: c["Tool Response"],
      }));
    mkdirSync(`${out}/injecagent`, { recursive: true });
    writeFileSync(`${out}/injecagent/heldout_${setting}.json`, JSON.stringify(cases) + "\n");
  }
  copyFileSync(path.join(dir, "injecagent/LICENCE"), `${out}/injecagent/LICENCE`);
  for (const file of [
    "LICENSE",
    "benchmark/email/test.jsonl",
    "benchmark/table/test.jsonl",
    "benchmark/code/test.jsonl",
    "benchmark/text_attack_test.json",
    "benchmark/code_attack_test.json",
  ]) {
    mkdirSync(path.dirname(`${out}/bipia/${file}`), { recursive: true });
    copyFileSync(path.join(dir, "bipia", file), `${out}/bipia/${file}`);
  }
  console.log(`  wrote the held-out test files to ${out}`);
}
