/**
 * Counts that say how much they know (issue 31 item 4): "k flagged of n scanned" with a 95 %
 * interval, and the share of texts that truly carry a payload implied by that count and the
 * detector's measured recall and false-positive rate (Rogan–Gladen), with an interval that carries
 * the uncertainty of all three. Pure: the Summary, the share view, SARIF and `relay-review check`
 * display these.
 */

export type Interval = { low: number; high: number };
export type Proportion = { k: number; n: number; share: number } & Interval;

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/** Wilson score interval for k of n (well behaved at 0 and n, unlike the normal approximation). */
export function wilson(k: number, n: number, z = Z95): Proportion {
  if (!Number.isInteger(k) || !Number.isInteger(n) || k < 0 || n < 0 || k > n)
    throw new RangeError(`wilson: need 0 ≤ k ≤ n integers, got k=${k}, n=${n}`);
  if (n === 0) return { k, n, share: 0, low: 0, high: 1 };
  const p = k / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { k, n, share: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The detector's measured figures: recall on payloads (k of n) and false positives on clean text. */
export type DetectorRates = {
  recall: { k: number; n: number };
  falsePositive: { k: number; n: number };
};

export type TrueShare = {
  /** Point estimate of the share of texts carrying a payload, clamped to [0, 1]. */
  estimate: number;
  /** 95 % interval, conservative: the extremes over the intervals of the count, recall and FP rate. */
  low: number;
  high: number;
  /** False when recall ≤ FP rate: the count says nothing about the true share. */
  informative: boolean;
};

const clamp = (x: number) => Math.min(1, Math.max(0, x));

/** Rogan–Gladen: true share = (observed + specificity − 1) / (recall + specificity − 1). */
export function roganGladen(observed: number, recall: number, fpr: number): number {
  const denom = recall - fpr;
  return denom <= 0 ? NaN : (observed - fpr) / denom;
}

/**
 * The true share implied by "k flagged of n scanned". The interval takes the corners of the three
 * Wilson intervals (observed share, recall, false-positive rate): wider than a delta-method
 * interval, never narrower than what the data supports.
 */
export function trueShare(k: number, n: number, rates: DetectorRates): TrueShare {
  const obs = wilson(k, n);
  const rec = wilson(rates.recall.k, rates.recall.n);
  const fp = wilson(rates.falsePositive.k, rates.falsePositive.n);
  const point = roganGladen(obs.share, rec.share, fp.share);
  if (!(rec.low > fp.high) || Number.isNaN(point))
    return { estimate: clamp(obs.share), low: 0, high: 1, informative: false };
  const corners: number[] = [];
  for (const o of [obs.low, obs.high])
    for (const r of [rec.low, rec.high])
      for (const f of [fp.low, fp.high]) corners.push(roganGladen(o, r, f));
  return {
    estimate: clamp(point),
    low: clamp(Math.min(...corners)),
    high: clamp(Math.max(...corners)),
    informative: true,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(x < 0.01 && x > 0 ? 2 : 1)} %`;

/** "3 flagged of 1,204 scanned (0.2 %, 95 % CI 0.1–0.7 %)" */
export function describeCount(k: number, n: number): string {
  const w = wilson(k, n);
  return `${k} flagged of ${n.toLocaleString("en-US")} scanned (${pct(w.share)}, 95 % CI ${pct(w.low)}–${pct(w.high)})`;
}

/** "estimated true share 0.1 % (95 % CI 0–0.6 %) at recall 0.91, FP rate 0.4 %" */
export function describeTrueShare(k: number, n: number, rates: DetectorRates): string {
  const t = trueShare(k, n, rates);
  const r = rates.recall.k / Math.max(1, rates.recall.n);
  const f = rates.falsePositive.k / Math.max(1, rates.falsePositive.n);
  if (!t.informative)
    return `no estimate of the true share: recall ${r.toFixed(2)} does not exceed the FP rate ${pct(f)}`;
  return `estimated true share ${pct(t.estimate)} (95 % CI ${pct(t.low)}–${pct(t.high)}) at recall ${r.toFixed(2)}, FP rate ${pct(f)}`;
}
