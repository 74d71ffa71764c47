/**
 * The trained text model: a logistic regression over hashed features (lib/detection/features.ts),
 * its weights quantised to one signed byte each and shipped as base64 in model.json, so it loads
 * with no download and no native code. scripts/train-detector.ts writes that file.
 */
import {
  DIM,
  HASH_BITS,
  MAX_WINDOW_FEATURES,
  emitPrepared,
  prepareWindow,
  type FeatureSink,
  type PreparedWindow,
  type WordHashes,
  type WordsMark,
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
  quantised?: {
    codes: Int8Array;
    values: Float64Array;
    /**
     * Sums of at most this many of these weights are exact in a double, in any order (0: not
     * shown for these values). `scorePair` adds a segment's words as one sum only then.
     */
    exactUpTo: number;
  };
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
  // Every weight is a single-precision number, so a whole multiple of the smallest one's last
  // place (a power of two, `quantum`). A sum of such numbers, each partial sum below 2^53 quanta,
  // is a whole number of quanta held exactly in a double: every addition is exact, so the sum is
  // the same in any order and a difference of two running sums is exact too. That holds for
  // windows of at most `exactUpTo` features (about 8 million with the shipped scale; a window has
  // a few thousand at most).
  let quantum = Infinity;
  let largest = 0;
  for (const v of values)
    if (v !== 0) {
      quantum = Math.min(quantum, 2 ** (Math.floor(Math.log2(Math.abs(v))) - 23));
      largest = Math.max(largest, Math.abs(v));
    }
  const whole = values.every((v) => Number.isInteger(v / quantum));
  const exactUpTo = whole && largest > 0 ? Math.floor(2 ** 53 / (largest / quantum)) : 0;
  return {
    weights,
    quantised: { codes, values, exactUpTo },
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
 * start from a sum already made (`Head`) and note the sum at `mark`. The two kinds differ only in
 * where a feature's weight is read.
 */
abstract class RunningMargin implements FeatureSink {
  /** The sums at each mark, once passed (fields, not a record keyed by the mark: one per window). */
  wordsStart: Sum | null = null;
  lastWord: Sum | null = null;
  wordsEnd: Sum | null = null;
  constructor(
    public sum = 0,
    public count = 0,
  ) {}
  abstract add(feature: number): void;
  mark(at: WordsMark): void {
    const here = { sum: this.sum, count: this.count };
    if (at === "words-start") this.wordsStart = here;
    else if (at === "last-word") this.lastWord = here;
    else this.wordsEnd = here;
  }
  /** The window's probability (`sigmoid(margin(…))`); at least one feature must have been added. */
  probability(bias: number): number {
    return sigmoid(bias + this.sum / Math.sqrt(this.count));
  }
}

/** Over the float weights (a model built in code, without the file's bytes). */
class MarginSum extends RunningMargin {
  constructor(
    private readonly weights: Float32Array,
    sum = 0,
    count = 0,
  ) {
    super(sum, count);
  }
  add(feature: number): void {
    this.sum += this.weights[feature]!;
    this.count++;
  }
}

/**
 * Over the quantised weights. When their sums are exact (`exactUpTo` covers any window), a word's
 * bucket and 4-grams are added as one sum (`FeatureSink.addWord`), kept on the word for the next
 * window that holds it: the same sum to the last bit, since every partial sum is exact and so does
 * not depend on the order.
 */
class QuantisedMarginSum extends RunningMargin {
  protected readonly codes: Int8Array;
  protected readonly values: Float64Array;
  constructor(
    protected readonly q: NonNullable<Model["quantised"]>,
    sum = 0,
    count = 0,
  ) {
    super(sum, count);
    this.codes = q.codes;
    this.values = q.values;
  }
  add(feature: number): void {
    this.sum += this.values[this.codes[feature]! + 128]!;
    this.count++;
  }
}

/**
 * The same, adding a word's bucket and 4-grams as one sum: for weights whose sums are exact
 * (`exactUpTo` covers any window; `quantisedSum` picks it). A method of its own class rather than
 * a closure made per window.
 */
class QuantisedWordSum extends QuantisedMarginSum {
  addWord(word: WordHashes): void {
    const key = this.q;
    if (word.sumOf !== key) {
      let s = this.values[this.codes[word.word]! + 128]!;
      for (let j = 0; j < word.grams.length; j++)
        s += this.values[this.codes[word.grams[j]!]! + 128]!;
      word.sum = s;
      word.sumOf = key;
    }
    this.sum += word.sum;
    this.count += 1 + word.grams.length;
  }
}

/** A running sum over the quantised weights, by words where their sums are exact. */
const quantisedSum = (q: NonNullable<Model["quantised"]>, sum = 0, count = 0) =>
  q.exactUpTo >= MAX_WINDOW_FEATURES
    ? new QuantisedWordSum(q, sum, count)
    : new QuantisedMarginSum(q, sum, count);

type Sum = { sum: number; count: number };

/**
 * A scored window's running sums, for the pairs of neighbours it is part of (`scorePair`): up to
 * and including its last word's own bucket (a pair opening with it goes on from there), and at the
 * start and end of its words (a pair ending with it adds its words as one sum when sums are exact).
 * Valid for the same model.
 */
export type Head = { lastWord: Sum; wordsStart: Sum; wordsEnd: Sum };

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
  const m = model.quantised ? quantisedSum(model.quantised) : new MarginSum(model.weights);
  emitPrepared(window, forModel, m);
  const { lastWord, wordsStart, wordsEnd } = m;
  return {
    // Too few words to ask for anything (a table cell, a header): not scored.
    p: m.count === 0 ? 0 : m.probability(model.bias),
    head: lastWord && wordsStart && wordsEnd ? { lastWord, wordsStart, wordsEnd } : null,
  };
}

/**
 * `scoreWindow` of the pair `${a} ${b}` (prepared: features.ts `preparePair`), the same
 * probability to the last bit. It goes on from a's running sum at its last word (the same
 * additions in the same order as the pair's own); with the quantised weights, whose sums are exact
 * (`exactUpTo`), b's words join as the one sum they made when b was scored, since every word of b
 * brings the same features in the pair (its bucket, its bigrams with the words after it, its
 * 4-grams) and an exact sum does not depend on the order.
 */
export function scorePair(
  model: Model,
  pair: PreparedWindow,
  a: { tokens: number; head: Head | null },
  b: { tokens: number; head: Head | null },
  forModel = false,
): number {
  const q = model.quantised;
  if (a.head === null) return scorePrepared(model, pair, forModel).p;
  const { sum, count } = a.head.lastWord;
  // b's words all in the pair (the pair is not cut at MAX_TOKENS words) and summed when b was scored.
  if (q && q.exactUpTo > 0 && b.head !== null && pair.tokens.length === a.tokens + b.tokens) {
    const words = {
      sum: b.head.wordsEnd.sum - b.head.wordsStart.sum,
      count: b.head.wordsEnd.count - b.head.wordsStart.count,
    };
    const m = quantisedSum(q, sum + words.sum, count + words.count);
    emitPrepared(pair, forModel, m, a.tokens, a.tokens);
    if (m.count <= q.exactUpTo) return m.probability(model.bias);
  }
  const m = q ? quantisedSum(q, sum, count) : new MarginSum(model.weights, sum, count);
  emitPrepared(pair, forModel, m, a.tokens);
  return m.probability(model.bias);
}
