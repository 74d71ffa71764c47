/**
 * The trained text model: a logistic regression over hashed features (lib/detection/features.ts),
 * its weights quantised to one signed byte each and shipped as base64 in model.json, so it loads
 * with no download and no native code. scripts/train-detector.ts writes that file.
 */
import { DIM, HASH_BITS, featurize } from "./features";

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
  return {
    weights,
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

/** Probability that one window is a payload aimed at a model. */
export function scoreWindow(model: Model, window: string, forModel = false): number {
  const features = featurize(window, forModel);
  // Too few words to ask for anything (a table cell, a header): not scored.
  return features.length === 0 ? 0 : sigmoid(margin(model.weights, model.bias, features));
}
