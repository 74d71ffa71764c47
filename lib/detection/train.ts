/**
 * Training of the text model: logistic regression by AdaGrad with L2, over hashed features, with a
 * seeded shuffle, so the same examples and seed give the same bytes (tested). Pure: the script
 * scripts/train-detector.ts reads the data and writes the file.
 */
import { DIM, HASH_BITS, featurize } from "./features";
import { margin, sigmoid, type ModelFile } from "./model";

export type Example = { text: string; label: 0 | 1; source: string };

/** mulberry32: a small seeded generator (Math.random cannot be seeded). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle<T>(items: T[], next: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export type TrainOptions = {
  seed: number;
  epochs?: number;
  rate?: number;
  l2?: number;
  positiveWeight?: number;
};

export type Trained = { weights: Float64Array; bias: number };

export function trainWeights(all: Example[], options: TrainOptions): Trained {
  const { seed, epochs = 12, rate = 0.5, l2 = 1e-6 } = options;
  // Windows too short to score are never scored, so they teach nothing.
  const examples = all.filter((e) => featurize(e.text).length > 0);
  const next = rng(seed);
  const feats = examples.map((e) => featurize(e.text));
  const pos = examples.filter((e) => e.label === 1).length;
  const neg = examples.length - pos;
  // Payload windows weigh `positiveWeight` of what their share would give them in a balanced loss:
  // less than balanced keeps text the model has never seen (a table cell, a product name) on the
  // clean side, which is where nearly all of a relay's text is.
  const balance = options.positiveWeight ?? 1;
  const wPos = (examples.length / (2 * Math.max(1, pos))) * balance;
  const wNeg = examples.length / (2 * Math.max(1, neg));
  const weights = new Float64Array(DIM);
  const g2 = new Float64Array(DIM);
  let bias = 0;
  let gb2 = 0;
  const order = examples.map((_, i) => i);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const i of shuffle(order, next)) {
      const f = feats[i]!;
      const y = examples[i]!.label;
      const p = sigmoid(margin(weights, bias, f));
      const g = (p - y) * (y === 1 ? wPos : wNeg);
      const scale = 1 / Math.sqrt(f.length);
      for (const k of f) {
        const gk = g * scale + l2 * weights[k]!;
        g2[k]! += gk * gk;
        weights[k]! -= (rate * gk) / Math.sqrt(g2[k]! + 1e-8);
      }
      gb2 += g * g;
      bias -= (rate * g) / Math.sqrt(gb2 + 1e-8);
    }
  }
  return { weights, bias };
}

/** Quantises to one signed byte a weight and packs the file (byte-identical for identical input). */
export function packModel(
  trained: Trained,
  threshold: number,
  provenance: Record<string, unknown>,
  forModelThreshold?: number,
): ModelFile {
  let max = 0;
  for (const w of trained.weights) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = Buffer.alloc(DIM);
  for (let i = 0; i < DIM; i++) bytes.writeInt8(Math.round(trained.weights[i]! / scale), i);
  return {
    format: "relay-review-detector/1",
    hashBits: HASH_BITS,
    scale: Number(scale.toPrecision(8)),
    bias: Number(trained.bias.toPrecision(8)),
    threshold,
    ...(forModelThreshold === undefined ? {} : { forModelThreshold }),
    weights: bytes.toString("base64"),
    provenance,
  };
}
