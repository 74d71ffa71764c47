/**
 * Turns the training side of the data into labelled windows (the unit the model scores), and picks
 * the flagging threshold on a validation part the model did not fit: 20 % of the training units
 * (instructions, contexts, hand-written lines) held back by hash, then the model is refitted on all
 * of it with that threshold. Pure: the script reads the files.
 */
import type { BipiaContext } from "./benchmarks";
import { hash } from "./features";
import { scoreWindow, loadModel, type Model } from "./model";
import { segments, visibleText, windows } from "./text";
import { packModel, trainWeights, type Example, type TrainOptions } from "./train";

export type TrainingInput = {
  trainInstructions: string[];
  userCases: { "User Instruction": string; "Tool Response Template": string }[];
  tools: unknown[];
  bipiaTextAttacks: string[];
  bipiaCodeAttacks: string[];
  bipiaEmail: BipiaContext[];
  bipiaCode: BipiaContext[];
  handwritten: { text: string; label: 0 | 1; source: string }[];
  /** Prose written for people (this repository's own docs): instructions to humans, not to a model. */
  prose: { text: string; unit: string }[];
};

type Unit = { texts: string[]; label: 0 | 1; source: string; key: string };

/** Windows of a text for training; a payload's windows need three words (a lone code line is not the payload). */
export function trainingWindows(text: string, label: 0 | 1): string[] {
  const all = windows(segments(visibleText(text)));
  return label === 1 ? all.filter((w) => (w.match(/\p{L}+/gu) ?? []).length >= 3) : all;
}

function toolTexts(tools: unknown[]): string[] {
  const out: string[] = [];
  const walk = (v: unknown, key = "") => {
    if (typeof v === "string") {
      if (/description|summary/.test(key)) out.push(v);
    } else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (v && typeof v === "object")
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, k);
  };
  walk(tools);
  return out;
}

function units(input: TrainingInput): Unit[] {
  const u: Unit[] = [];
  for (const t of input.trainInstructions)
    u.push({ texts: [t], label: 1, source: "injecagent", key: t.replace(/^IMPORTANT.*?: /, "") });
  for (const c of input.userCases) {
    u.push({
      texts: [c["User Instruction"]],
      label: 1,
      source: "injecagent-user",
      key: c["User Instruction"],
    });
    u.push({
      texts: [c["Tool Response Template"].replace("<Attacker Instruction>", "")],
      label: 0,
      source: "injecagent-template",
      key: c["Tool Response Template"],
    });
  }
  for (const t of toolTexts(input.tools))
    u.push({ texts: [t], label: 0, source: "toolemu-tools", key: t });
  for (const t of input.bipiaTextAttacks)
    u.push({ texts: [t], label: 1, source: "bipia-text", key: t });
  // A code attack's payload is the sentence asking for the snippet; the snippet's lines are code
  // like any other, and as positives they would teach the model that `import requests` is an attack.
  for (const t of input.bipiaCodeAttacks)
    u.push({
      texts: [t.replace(/```[\s\S]*?(```|$)/g, " ")],
      label: 1,
      source: "bipia-code",
      key: t,
    });
  for (const t of input.prose)
    u.push({ texts: [t.text], label: 0, source: "repo-docs", key: t.unit });
  for (const c of [...input.bipiaEmail, ...input.bipiaCode])
    u.push({ texts: [c.text], label: 0, source: c.unit.split("/")[0]!, key: c.unit });
  for (const h of input.handwritten)
    u.push({ texts: [h.text], label: h.label, source: h.source, key: h.text });
  return u;
}

function examplesOf(us: Unit[]): Example[] {
  const out: Example[] = [];
  for (const unit of us)
    for (const text of unit.texts)
      for (const w of trainingWindows(text, unit.label))
        out.push({ text: w, label: unit.label, source: unit.source });
  return out;
}

const unitScore = (model: Model, unit: Unit, forModel = false) =>
  Math.max(
    0,
    ...unit.texts.flatMap((t) =>
      trainingWindows(t, unit.label).map((w) => scoreWindow(model, w, forModel)),
    ),
  );

export function buildTrainingSet(
  input: TrainingInput,
  options: Omit<TrainOptions, "seed"> = {},
  seed = 31,
) {
  const all = units(input);
  const isVal = (u: Unit) => hash(`val:${u.key}`) % 100 < 20;
  const fit = all.filter((u) => !isVal(u));
  const val = all.filter(isVal);
  const probe = loadModel(packModel(trainWeights(examplesOf(fit), { ...options, seed }), 0.5, {}));
  // Threshold: the lowest that keeps validation false positives on clean units at or under 1 %,
  // never below 0.5; recall on validation payloads is reported, not optimised.
  // Long prose (a README) has hundreds of windows: the threshold is set on relay-sized texts.
  const negScores = val
    .filter((u) => u.label === 0 && u.source !== "repo-docs")
    .map((u) => unitScore(probe, u))
    .sort((a, b) => a - b);
  const posScores = val.filter((u) => u.label === 1).map((u) => unitScore(probe, u));
  const q = negScores[Math.min(negScores.length - 1, Math.floor(negScores.length * 0.99))] ?? 0.5;
  const threshold = Number(Math.max(0.5, q + 1e-3).toFixed(3));
  // Text written for the model on purpose (a tool's description) is all instructions to it: its
  // threshold is the lowest, never below the one above, that keeps held-back tool descriptions
  // (InjecAgent's tools.json) flagged at or under 1 %.
  const toolScores = val
    .filter((u) => u.source === "toolemu-tools")
    .map((u) => unitScore(probe, u, true))
    .sort((a, b) => a - b);
  const tq = toolScores[Math.min(toolScores.length - 1, Math.floor(toolScores.length * 0.99))] ?? 0;
  const forModelThreshold = Number(Math.max(threshold, tq + 1e-3).toFixed(3));
  // What the same payloads score when scanned as text written for the model (the recall given up there).
  const forModelScores = val.filter((u) => u.label === 1).map((u) => unitScore(probe, u, true));
  const validation = {
    clean: negScores.length,
    payloads: posScores.length,
    falsePositives: negScores.filter((s) => s >= threshold).length,
    recall: Number(
      (posScores.filter((s) => s >= threshold).length / Math.max(1, posScores.length)).toFixed(3),
    ),
    toolDescriptions: toolScores.length,
    forModelRecall: Number(
      (
        forModelScores.filter((s) => s >= forModelThreshold).length /
        Math.max(1, forModelScores.length)
      ).toFixed(3),
    ),
  };
  return { examples: examplesOf(all), threshold, forModelThreshold, validation };
}
