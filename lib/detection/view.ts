/**
 * What every place that shows detection counts shows (issue 31 item 4): per source and per agent,
 * "k flagged of n scanned" with its 95 % interval, and beside it the detector's measured recall and
 * false-positive rate and the true share of payloads they imply, with its interval. Pure; the
 * Summary, the share view, SARIF and `relay-review check` all read this shape.
 */
import { z } from "zod";
import { trueShare, wilson } from "./counts";
import { DETECTOR_FIGURES, type DetectorFigures } from "./figures";

const ProportionSchema = z.object({
  k: z.number().int().min(0),
  n: z.number().int().min(0),
  share: z.number(),
  low: z.number(),
  high: z.number(),
});
const TrueShareSchema = z.object({
  estimate: z.number(),
  low: z.number(),
  high: z.number(),
  informative: z.boolean(),
});
export const DetectionCountSchema = z.object({
  /** The server (source) or agent name; "" in the total. */
  name: z.string(),
  flagged: ProportionSchema,
  trueShare: TrueShareSchema,
});
export type DetectionCount = z.infer<typeof DetectionCountSchema>;

export const DetectionViewSchema = z.object({
  /** Always false: detection is not a control; it never cuts a path or makes a decision current. */
  isControl: z.literal(false),
  detector: z.object({
    recall: ProportionSchema,
    falsePositive: ProportionSchema,
    modelSha256: z.string(),
    measuredAt: z.string(),
  }),
  perSource: z.array(DetectionCountSchema),
  perAgent: z.array(DetectionCountSchema),
  total: DetectionCountSchema.nullable(),
});
export type DetectionView = z.infer<typeof DetectionViewSchema>;

export type CountInput = { source: string; agent: string; scanned: number; flagged: number };

export function detectionViewOf(
  rows: readonly CountInput[],
  figures: DetectorFigures = DETECTOR_FIGURES,
): DetectionView {
  const count = (name: string, k: number, n: number): DetectionCount => ({
    name,
    flagged: wilson(k, n),
    trueShare: trueShare(k, n, figures),
  });
  const group = (key: (r: CountInput) => string, of = rows) => {
    const m = new Map<string, { k: number; n: number }>();
    for (const r of of) {
      const g = m.get(key(r)) ?? { k: 0, n: 0 };
      g.k += r.flagged;
      g.n += r.scanned;
      m.set(key(r), g);
    }
    return [...m.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, g]) => count(name, g.k, g.n));
  };
  let k = 0;
  let n = 0;
  for (const r of rows) {
    k += r.flagged;
    n += r.scanned;
  }
  return {
    isControl: false,
    detector: {
      recall: wilson(figures.recall.k, figures.recall.n),
      falsePositive: wilson(figures.falsePositive.k, figures.falsePositive.n),
      modelSha256: figures.modelSha256,
      measuredAt: figures.measuredAt,
    },
    perSource: group((r) => r.source),
    // A reviewer's sample from the workbench is no agent's traffic (agent ""): per source only.
    perAgent: group(
      (r) => r.agent,
      rows.filter((r) => r.agent !== ""),
    ),
    total: rows.length ? count("", k, n) : null,
  };
}

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.01 ? 2 : 1)} %`;

/** One line: "2 flagged of 23 scanned (8.7 %, 95 % CI 2.4–26.8 %); recall 0.73, FP 1.7 %: true share …". */
export function describeDetectionCount(c: DetectionCount, d: DetectionView["detector"]): string {
  const f = c.flagged;
  const t = c.trueShare;
  const share = t.informative
    ? `estimated true share ${pct(t.estimate)} (95 % CI ${pct(t.low)}–${pct(t.high)})`
    : "no estimate of the true share (recall does not exceed the FP rate)";
  return `${f.k} flagged of ${f.n.toLocaleString("en-US")} scanned (${pct(f.share)}, 95 % CI ${pct(f.low)}–${pct(f.high)}); detector recall ${d.recall.share.toFixed(2)}, false positives ${pct(d.falsePositive.share)}: ${share}`;
}
