import { describe, expect, it } from "vitest";
import { rewrite, trieAlternations } from "./alternation";
import { CUES } from "./features";
import { ROLE_ELSEWHERE } from "./multilingual";
import { ADDRESSED_PATTERNS } from "./signals";
import { visibleText } from "./text";
import { relayDevTexts } from "@/tests/detection/relay-dev/texts";

// Issue 31: the patterns addressed to an AI run with their lists of words as prefix trees. These
// tests hold the rewritten patterns to the written ones: the same match, at the same place, of the
// same length, on every relay text and on text made of the patterns' own words.

describe("a group of literal alternatives as a prefix tree", () => {
  it("joins alternatives by their shared opening, in the order they are tried", () => {
    expect(rewrite("(?:note|notice|nota|message)")).toBe("(?:not(?:e|ice|a)|message)");
    // A shorter word before a longer one stays before it ("instruction" is tried first).
    expect(rewrite(String.raw`\b(?:instruction|instructions)\s`)).toBe(
      String.raw`\b(?:instruction(?:|s))\s`,
    );
    expect(rewrite("(?:instructions|instruction)")).toBe("(?:instruction(?:s|))");
  });

  it("keeps in place what may match where others do: an empty alternative, or white space", () => {
    // "a.i." and "ai" join under "a", but "ab" is tried after the bare "a", as written.
    expect(rewrite(String.raw`(?:a\.i\.|ai|a|ab|x|ac)`)).toBe(String.raw`(?:a(?:\.i\.|i||b|c)|x)`);
    expect(rewrite(String.raw`(?:a\s+b|a\s+c|ab)`)).toBe(String.raw`(?:a(?:\s+b|\s+c|b))`);
    expect(rewrite(String.raw`(?:\s+a|\s+b)`)).toBe(String.raw`(?:\s+a|\s+b)`);
  });

  it("leaves a group with anything but literal text as written, and rewrites the groups inside it", () => {
    expect(rewrite("(?:ai|[a-z]|ab)")).toBe("(?:ai|[a-z]|ab)");
    expect(rewrite("(?:ab?|ac)")).toBe("(?:ab?|ac)");
    expect(rewrite(String.raw`(?:\bab|ac)`)).toBe(String.raw`(?:\bab|ac)`);
    expect(rewrite("(?:x|(?:bar|baz))")).toBe("(?:x|(?:ba(?:r|z)))");
    expect(rewrite("(?<![a(])(?=ab|ac)[(?:a|b)]")).toBe("(?<![a(])(?=ab|ac)[(?:a|b)]");
    expect(() => trieAlternations(/(?:a|b)/iu)).toThrow();
  });
});

describe("the patterns addressed to an AI and the model's cues, rewritten", () => {
  const patterns = [
    ...ADDRESSED_PATTERNS,
    ...ROLE_ELSEWHERE.map(([re]) => re),
    // The model's cues with the u flag and not i (features.ts runs those rewritten too).
    ...CUES.map(([, re]) => re).filter((re) => re.flags.includes("u") && !re.flags.includes("i")),
  ];
  const same = (re: RegExp, tree: RegExp, text: string) => {
    const a = re.exec(text);
    const b = tree.exec(text);
    expect(b?.index, `${re.source.slice(0, 50)} on ${JSON.stringify(text.slice(0, 80))}`).toBe(
      a?.index,
    );
    expect(b?.[0]).toBe(a?.[0]);
    return a !== null;
  };

  it("find what the written ones find, on every relay text", () => {
    const texts = relayDevTexts().map((t) => visibleText(t).toLowerCase());
    let found = 0;
    for (const re of patterns) {
      const tree = trieAlternations(re);
      expect(tree.source).not.toBe("");
      for (const text of texts) if (same(re, tree, text)) found++;
    }
    expect(found).toBeGreaterThan(100);
  });

  it("find what the written ones find, on text made of their own words", () => {
    // A seeded generator (mulberry32): the same strings on every run.
    let seed = 0x7e1e;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const between = [" ", "  ", ", ", ": ", "\n", ". ", "", "-", "'", "：", "、"];
    let found = 0;
    for (const re of patterns) {
      const tree = trieAlternations(re);
      // The pattern's words and pieces of them ("instruction", "instructions", "instr").
      const words = [...new Set(re.source.match(/[\p{L}'@-]+/gu) ?? [])];
      const pieces = [...words, ...words.map((w) => w.slice(0, Math.ceil(w.length / 2)))];
      for (let n = 0; n < 400; n++) {
        let text = "";
        for (let k = 0; k < 8; k++)
          text +=
            pieces[Math.floor(random() * pieces.length)]! +
            between[Math.floor(random() * between.length)]!;
        if (same(re, tree, text)) found++;
      }
    }
    expect(found).toBeGreaterThan(100);
  });
});
