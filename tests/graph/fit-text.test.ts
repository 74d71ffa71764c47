import { describe, expect, it } from "vitest";
import { fitText } from "@/components/graph/fit-text";

/** A deterministic pseudo-random sequence, so every run checks the same cases. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WIDTHS: Record<string, number> = { i: 3, l: 3, " ": 4, m: 11, w: 11, W: 13, "…": 8 };
const variableWidth = (t: string) => [...t].reduce((w, c) => w + (WIDTHS[c] ?? 7), 0);
const monospace = (t: string) => [...t].length * 7;

/** The answer by exhaustive search: the longest prefix (at least one character) that fits with the ellipsis. */
function oracle(text: string, px: number, measure: (t: string) => number): string {
  if (measure(text) <= px || text.length <= 1) return text;
  let n = 1;
  for (let k = 1; k < text.length; k++) if (measure(`${text.slice(0, k)}…`) <= px) n = k;
  return `${text.slice(0, n).trimEnd()}…`;
}

describe("fitting a graph label into its box", () => {
  it("keeps a label that fits, and otherwise cuts it to the longest prefix that fits with an ellipsis", () => {
    expect(fitText("search", 100, monospace)).toBe("search");
    expect(fitText("unmapped text returned by search_tickets", 100, monospace)).toBe(
      "unmapped text…",
    );
    expect(monospace("unmapped text…")).toBeLessThanOrEqual(100);
    expect(fitText("wide", 5, monospace)).toBe("w…"); // nothing fits: one character is kept
  });

  it("agrees with an exhaustive search for every width, on texts of even and uneven character widths", () => {
    const rand = lcg(7);
    const alphabet = "iilmwW abcdefgh_-.…";
    for (let c = 0; c < 300; c++) {
      const length = 1 + Math.floor(rand() * 60);
      const text = Array.from(
        { length },
        () => alphabet[Math.floor(rand() * alphabet.length)]!,
      ).join("");
      for (const measure of [monospace, variableWidth]) {
        for (let px = 0; px <= measure(text) + 10; px += 1 + Math.floor(rand() * 9)) {
          expect(fitText(text, px, measure), `${JSON.stringify(text)} in ${px}px`).toBe(
            oracle(text, px, measure),
          );
        }
      }
    }
  });

  it("measures a long label a few times, not once per character", () => {
    const text = "x".repeat(5_000);
    let calls = 0;
    const out = fitText(text, 500, (t) => {
      calls++;
      return variableWidth(t);
    });
    expect(out).toBe(oracle(text, 500, variableWidth));
    expect(calls).toBeLessThanOrEqual(30);
  });
});
