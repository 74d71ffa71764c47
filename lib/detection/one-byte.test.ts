import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ADDRESSED_ELSEWHERE, ROLE_ELSEWHERE } from "./multilingual";
import { OneByte, STAND_IN, atomsOf } from "./one-byte";
import { visibleText } from "./text";

// Issue 31: the patterns addressed to an AI read a one-byte copy of a text whose only characters
// beyond U+00FF they cannot tell from the stand-in. These tests hold the copy to that: the same
// matches, at the same places, as on the text itself.

describe("what a pattern reads a character with", () => {
  it("finds literals, escapes, classes and properties, lookarounds included", () => {
    const { literals, atoms } = atomsOf(
      String.raw`(?<![\p{L}\p{N}_])ки\s+(?:a\.b|\x60c)(?=[:：])\p{Ll}.(?<name>é)\u2014{1,2}`,
    );
    expect([...literals].map((cp) => String.fromCodePoint(cp)).sort()).toEqual(
      ["a", ".", "b", "`", "c", "é", "к", "и", "\u2014"].sort(),
    );
    expect(atoms.sort()).toEqual(
      [String.raw`[\p{L}\p{N}_]`, String.raw`\s`, "[:：]", String.raw`\p{Ll}`, "."].sort(),
    );
  });

  it("refuses a backreference and a pattern without the u flag or with i", () => {
    expect(() => atomsOf(String.raw`(a)\1`)).toThrow(/backreference/);
    expect(() => new OneByte([/a/])).toThrow();
    expect(() => new OneByte([/a/iu])).toThrow();
    // A pattern that names the stand-in is refused when a text first needs the patterns read.
    expect(() => new OneByte([/\u00a4/u]).of("a — b")).toThrow(/stand-in/);
  });
});

describe("a one-byte copy of a text", () => {
  const ob = new OneByte([/x\s+y/u, /\p{L}+/u]);

  it("replaces a dash, an arrow and typographic quotes, and nothing else", () => {
    expect(ob.of("a — b → „c“ d")).toBe(`a ${STAND_IN} b ${STAND_IN} ${STAND_IN}c${STAND_IN} d`);
  });

  it("is the text itself when it has nothing beyond U+00FF, or a character a pattern reads", () => {
    expect(ob.of("déjà vu")).toBe("déjà vu");
    // A letter beyond U+00FF is a letter to `\p{L}`, which the stand-in is not.
    expect(ob.of("a — привет")).toBe("a — привет");
    // Half a code point is never replaced: the copy keeps the text's code points.
    expect(ob.of("a — 😀")).toBe("a — 😀");
    // A character a pattern names, or a class that holds it, keeps the text as it is.
    expect(new OneByte([/—/u]).of("a — b")).toBe("a — b");
    expect(new OneByte([/[→]/u]).of("a → b")).toBe("a → b");
    expect(new OneByte([/\p{Sm}/u]).of("a → b")).toBe("a → b");
    expect(new OneByte([/\p{Sm}/u]).of("a — b")).toBe(`a ${STAND_IN} b`);
    // White space beyond U+00FF (an em space) is white space to `\s`, which the stand-in is not.
    expect(ob.of("x\u2003y")).toBe("x\u2003y");
  });

  it("reads every character beyond U+00FF, however many there are", () => {
    // More than the first scan takes (64): the rest are read one by one, and a letter at the end
    // still keeps the text as it is.
    const dashes = Array.from({ length: 100 }, (_, i) => `w${i} —`).join(" ");
    expect(ob.of(dashes)).toBe(dashes.replaceAll("—", STAND_IN));
    expect(ob.of(`${dashes} привет`)).toBe(`${dashes} привет`);
    expect(ob.of(`${dashes} 😀`)).toBe(`${dashes} 😀`);
    // A letter among the first few is found by the scan.
    expect(ob.of("— привет —")).toBe("— привет —");
  });

  it("gives the patterns beyond English the same matches as the text, on the relay texts", () => {
    const patterns = [
      ...ADDRESSED_ELSEWHERE.map(([re]) => re),
      ...ROLE_ELSEWHERE.map(([re]) => re),
    ];
    const copy = new OneByte(patterns);
    const dir = path.join(__dirname, "../../tests/detection/relay-dev");
    const texts = readdirSync(dir)
      .filter((f) => f.endsWith(".jsonl"))
      .flatMap((f) =>
        readFileSync(path.join(dir, f), "utf8")
          .split("\n")
          .filter((l) => l.trim())
          .map((l) => (JSON.parse(l) as { text: string }).text),
      );
    let replaced = 0;
    for (const raw of texts)
      for (const extra of ["", " — ", "\n→ ", "„", "“"]) {
        // Each text as it is, and with an inert character put in at its middle.
        const at = Math.floor(raw.length / 2);
        const lower = visibleText(raw.slice(0, at) + extra + raw.slice(at)).toLowerCase();
        const one = copy.of(lower);
        expect(one.length).toBe(lower.length);
        if (one !== lower) replaced++;
        for (const re of patterns) {
          const a = re.exec(lower);
          const b = re.exec(one);
          expect(b?.index, `${re.source.slice(0, 40)} on ${lower.slice(0, 60)}`).toBe(a?.index);
          expect(b?.[0].length).toBe(a?.[0].length);
        }
      }
    expect(replaced).toBeGreaterThan(100);
  });
});
