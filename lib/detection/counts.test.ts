import { describe, expect, it } from "vitest";
import { describeCount, roganGladen, trueShare, wilson } from "./counts";

describe("counts with intervals", () => {
  it("gives the Wilson interval (checked against a published table: 0 of 10, 5 of 10, 81 of 263)", () => {
    const zero = wilson(0, 10);
    expect(zero.low).toBe(0);
    expect(zero.high).toBeCloseTo(0.2775, 3);
    const half = wilson(5, 10);
    expect(half.low).toBeCloseTo(0.2366, 3);
    expect(half.high).toBeCloseTo(0.7634, 3);
    const w = wilson(81, 263);
    expect(w.low).toBeCloseTo(0.2553, 3);
    expect(w.high).toBeCloseTo(0.3662, 3);
  });

  it("refuses impossible counts and says nothing is known of an empty sample", () => {
    expect(() => wilson(3, 2)).toThrow(RangeError);
    expect(wilson(0, 0)).toMatchObject({ low: 0, high: 1 });
  });

  it("corrects the observed share for recall and false positives (Rogan–Gladen)", () => {
    // 10 % truly positive, recall 0.9, FP 2 %: observed = 0.09 + 0.018 = 0.108.
    expect(roganGladen(0.108, 0.9, 0.02)).toBeCloseTo(0.1, 10);
    const t = trueShare(108, 1000, {
      recall: { k: 900, n: 1000 },
      falsePositive: { k: 20, n: 1000 },
    });
    expect(t.informative).toBe(true);
    expect(t.estimate).toBeCloseTo(0.1, 3);
    expect(t.low).toBeLessThan(0.1);
    expect(t.high).toBeGreaterThan(0.1);
    // Fewer flags than the false-positive rate predicts: the estimate clamps at zero.
    expect(
      trueShare(1, 1000, { recall: { k: 90, n: 100 }, falsePositive: { k: 2, n: 100 } }).estimate,
    ).toBe(0);
  });

  it("gives no estimate when recall does not exceed the false-positive rate", () => {
    const t = trueShare(50, 100, { recall: { k: 5, n: 10 }, falsePositive: { k: 5, n: 10 } });
    expect(t).toMatchObject({ informative: false, low: 0, high: 1 });
  });

  it("reads as a sentence", () => {
    expect(describeCount(3, 1204)).toBe(
      "3 flagged of 1,204 scanned (0.25 %, 95 % CI 0.08 %–0.73 %)",
    );
  });
});
