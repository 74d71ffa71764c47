/**
 * The trained text model: a logistic regression over hashed features (lib/detection/features.ts),
 * its weights quantised to one signed byte each and shipped as base64 in model.json, so it loads
 * with no download and no native code. scripts/train-detector.ts writes that file.
 */
import {
  DIM,
  HASH_BITS,
  emitPrepared,
  prepareWindow,
  type FeatureSink,
  type PreparedWindow,
} from "./features";

export type ModelFile = {
  format: "relay-review-detector/1";
  hashBits: number;
  /** Weight = byte × scale. */
  scale: number;
  bias: number;
  /** A window at or above this probability flags the text. */
  threshold: number;
  /**
   * The same for text written for the model on purpose (a tool's description): chosen on held-back
   * tool descriptions as `threshold` is on held-back relay text. Absent: `threshold`.
   */
  forModelThreshold?: number;
  /** DIM signed bytes, base64. */
  weights: string;
  /** What it was trained on (file hashes, counts, seed): shown by docs and `detect eval`. */
  provenance: Record<string, unknown>;
};

export type Model = {
  weights: Float32Array;
  /**
   * The same weights as loaded from the file: a byte per feature, and the weight each byte stands
   * for (`weights[f] === values[codes[f] + 128]`). Scoring reads these: a window's features land
   * all over the table, and 128 KiB of bytes miss a core's cache less often than 512 KiB of
   * floats (about 5 % less CPU per window, measured side by side on relay text).
   */
  quantised?: { codes: Int8Array; values: Float64Array };
  bias: number;
  threshold: number;
  forModelThreshold: number;
  provenance: Record<string, unknown>;
};

export function loadModel(file: ModelFile): Model {
  if (file.format !== "relay-review-detector/1" || file.hashBits !== HASH_BITS)
    throw new Error(`unsupported detector model (${file.format}, ${file.hashBits} bits)`);
  const bytes = Buffer.from(file.weights, "base64");
  if (bytes.length !== DIM)
    throw new Error(`detector model has ${bytes.length} weights, not ${DIM}`);
  const weights = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) weights[i] = ((bytes[i]! << 24) >> 24) * file.scale;
  const codes = new Int8Array(bytes.buffer, bytes.byteOffset, DIM).slice();
  // Each byte's weight as the Float32Array holds it (rounded to single precision), so a sum over
  // either is the same to the last bit.
  const values = new Float64Array(256);
  for (let b = -128; b < 128; b++) values[b + 128] = Math.fround(b * file.scale);
  return {
    weights,
    quantised: { codes, values },
    bias: file.bias,
    threshold: file.threshold,
    forModelThreshold: Math.max(file.threshold, file.forModelThreshold ?? file.threshold),
    provenance: file.provenance,
  };
}

/** The margin of a feature list: each present feature weighs in, scaled by 1/√n so long windows do not win by length. */
export function margin(weights: ArrayLike<number>, bias: number, features: number[]): number {
  let s = 0;
  for (const f of features) s += weights[f]!;
  return bias + s / Math.sqrt(features.length);
}

export const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/**
 * A window's margin summed as its features are found, in `featurize`'s order (so the sum, and the
 * probability, are the same to the last bit as `margin` over the list), with no list built. It may
 * start from a sum already made (`Head`) and note the sum at `mark`.
 */
class MarginSum implements FeatureSink {
  head: Head | null = null;
  constructor(
    private readonly weights: Float32Array,
    public sum = 0,
    public count = 0,
  ) {}
  add(feature: number): void {
    this.sum += this.weights[feature]!;
    this.count++;
  }
  mark(): void {
    this.head = { sum: this.sum, count: this.count };
  }
}

/** `MarginSum` over the quantised weights. */
class QuantisedMarginSum implements FeatureSink {
  head: Head | null = null;
  constructor(
    private readonly codes: Int8Array,
    private readonly values: Float64Array,
    public sum = 0,
    public count = 0,
  ) {}
  add(feature: number): void {
    this.sum += this.values[this.codes[feature]! + 128]!;
    this.count++;
  }
  mark(): void {
    this.head = { sum: this.sum, count: this.count };
  }
}

/**
 * The running sum of a window's features up to and including its last word's own bucket: where a
 * pair of neighbours that opens with the window goes on (`scorePair`). Valid for the same model.
 */
export type Head = { sum: number; count: number };

/** Probability that one window is a payload aimed at a model. */
export function scoreWindow(model: Model, window: string, forModel = false): number {
  return scorePrepared(model, prepareWindow(window), forModel).p;
}

/** `scoreWindow` of a window already prepared, and its `Head` (null when it has too few words). */
export function scorePrepared(
  model: Model,
  window: PreparedWindow,
  forModel = false,
): { p: number; head: Head | null } {
  const m = model.quantised
    ? new QuantisedMarginSum(model.quantised.codes, model.quantised.values)
    : new MarginSum(model.weights);
  emitPrepared(window, forModel, m);
  // Too few words to ask for anything (a table cell, a header): not scored.
  return { p: m.count === 0 ? 0 : sigmoid(model.bias + m.sum / Math.sqrt(m.count)), head: m.head };
}

/**
 * `scoreWindow` of the pair `${a} ${b}` (prepared: features.ts `preparePair`), going on from the
 * first segment's `Head` when it has one: the same additions in the same order, so the same
 * probability to the last bit, without summing the first segment's words again.
 */
export function scorePair(
  model: Model,
  pair: PreparedWindow,
  first: { tokens: number; head: Head | null },
  forModel = false,
): number {
  const resume = first.head === null ? 0 : first.tokens;
  const sum = first.head?.sum ?? 0;
  const count = first.head?.count ?? 0;
  const m = model.quantised
    ? new QuantisedMarginSum(model.quantised.codes, model.quantised.values, sum, count)
    : new MarginSum(model.weights, sum, count);
  emitPrepared(pair, forModel, m, resume);
  return m.count === 0 ? 0 : sigmoid(model.bias + m.sum / Math.sqrt(m.count));
}
