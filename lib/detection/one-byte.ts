/**
 * A text for a set of patterns as a one-byte string, when it can be one without changing what they
 * match (issue 31). V8 compiles a pattern apart for one-byte strings (every code unit below U+0100)
 * and for two-byte ones; for one-byte text it drops every branch that needs a character beyond
 * U+00FF (the Cyrillic, Japanese and Chinese words of multilingual.ts) and the rest of `\p{L}`, so
 * it scans faster and runs far less code. Relay prose in English is two-byte for a dash, an arrow
 * or a typographic quote ("—", "→", "“"): one such character made the patterns addressed to an AI
 * read the whole text the slow way.
 *
 * A character beyond U+00FF is replaced by STAND_IN when the patterns cannot tell the two apart:
 * neither is written in any of them as a literal, and every class, escape and `.` in them (each
 * atom that reads a character, lookarounds included) takes both or neither. A pattern sees
 * characters only through those atoms (`\b` through `\w`; `^` and `$` through line breaks, also
 * asked of both), so it matches the copy exactly where it matches the text: at the same
 * positions, the same length (one code unit for one, so code points are kept too). A match's text
 * is then cut from the text itself. Patterns with the i flag (literals of other cases) or a
 * backreference are refused.
 */

/** The character put in place of each inert one: the currency sign, which no pattern here names. */
export const STAND_IN = "\u00a4";

/** What reads a character in a pattern's source: its literal code points, and its other atoms. */
export function atomsOf(source: string): { literals: Set<number>; atoms: string[] } {
  const literals = new Set<number>();
  const atoms: string[] = [];
  const fail = (why: string, at: number): never => {
    throw new Error(`one-byte: ${why} at ${at} in /${source.slice(0, 120)}/`);
  };
  const literal = (ch: string) => literals.add(ch.codePointAt(0)!);
  // A code point written as an escape (`\n`, `\x60`, `\u00e9`, `\u{1F600}`), from `at` (after
  // the backslash and its letter); null for an escape that is not one. Returns where it ends.
  const escaped = (e: string, at: number): [string, number] | null => {
    const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v" };
    if (e in simple) return [simple[e]!, at];
    if (e === "0" && !/[0-9]/u.test(source[at] ?? "")) return ["\0", at];
    if (e === "x") return [String.fromCodePoint(parseInt(source.slice(at, at + 2), 16)), at + 2];
    if (e === "u") {
      if (source[at] === "{") {
        const end = source.indexOf("}", at);
        return [String.fromCodePoint(parseInt(source.slice(at + 1, end), 16)), end + 1];
      }
      return [String.fromCodePoint(parseInt(source.slice(at, at + 4), 16)), at + 4];
    }
    if (e === "c") fail("a control escape", at);
    if (/[1-9]/u.test(e) || e === "k") fail("a backreference", at);
    return null;
  };
  for (let i = 0; i < source.length;) {
    const ch = source[i]!;
    if (ch === "\\") {
      const e = source[i + 1]!;
      if (e === "p" || e === "P") {
        const end = source.indexOf("}", i);
        atoms.push(source.slice(i, end + 1));
        i = end + 1;
      } else if ("sSdDwW".includes(e)) {
        atoms.push(`\\${e}`);
        i += 2;
      } else if (e === "b" || e === "B") i += 2;
      else {
        const esc = escaped(e, i + 2);
        if (esc !== null) {
          literal(esc[0]);
          i = esc[1];
        } else {
          // An escaped syntax character (`\.`, `\[`, `\/`): itself.
          if (/[A-Za-z0-9]/u.test(e)) fail(`the escape \\${e}`, i);
          literal(e);
          i += 2;
        }
      }
    } else if (ch === "[") {
      // A class (with the u flag no class nests): up to its unescaped "]", tested whole.
      let j = i + 1;
      if (source[j] === "^") j++;
      for (; source[j] !== "]"; j++) {
        if (j >= source.length) fail("an open class", i);
        if (source[j] === "\\") j++;
      }
      atoms.push(source.slice(i, j + 1));
      i = j + 1;
    } else if (ch === ".") {
      atoms.push(".");
      i++;
    } else if (ch === "(") {
      // A group's opening syntax is not literal text: "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<name>".
      if (source[i + 1] !== "?") i++;
      else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!")
        i = source.indexOf(">", i) + 1;
      else i += source[i + 2] === "<" ? 4 : 3;
    } else if (ch === "{") {
      // With the u flag a brace is always a quantifier ("{2}", "{0,40}").
      const end = source.indexOf("}", i);
      if (end < 0 || !/^\{\d+(?:,\d*)?\}$/u.test(source.slice(i, end + 1))) fail("a stray {", i);
      i = end + 1;
    } else if (")|^$*+?".includes(ch)) i++;
    else {
      const cp = source.codePointAt(i)!;
      literals.add(cp);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return { literals, atoms };
}

export class OneByte {
  /** The patterns' literal code points and atoms: read when a text first has a unit beyond U+00FF. */
  private read: { literals: Set<number>; tests: RegExp[] } | null = null;
  /** By code unit: 0 not asked yet, 1 inert (replaced by STAND_IN), 2 not. */
  private readonly inert = new Uint8Array(0x10000);

  constructor(private readonly patterns: readonly RegExp[]) {
    for (const re of patterns)
      if (!re.flags.includes("u") || /[iv]/u.test(re.flags))
        throw new Error(`one-byte: /${re.source.slice(0, 60)}/ is not a u-flag pattern without i`);
    // Code units beyond U+00FF that are never inert: surrogates (half a code point).
    this.inert.fill(2, 0xd800, 0xe000);
  }

  private readPatterns(): { literals: Set<number>; tests: RegExp[] } {
    const literals = new Set<number>();
    const atoms = new Set<string>([
      // What `\b`, `^`/`$` (with or without the m flag) and `.` read, whether or not written.
      String.raw`\w`,
      String.raw`[\n\r\u2028\u2029]`,
      ".",
      String.raw`\s`,
    ]);
    for (const re of this.patterns) {
      const found = atomsOf(re.source);
      for (const cp of found.literals) literals.add(cp);
      for (const a of found.atoms) atoms.add(a);
    }
    if (literals.has(STAND_IN.charCodeAt(0)))
      throw new Error("one-byte: a pattern names the stand-in character");
    return { literals, tests: [...atoms].map((a) => new RegExp(`^(?:${a})$`, "u")) };
  }

  /** Whether the patterns take `unit` (beyond U+00FF, not a surrogate) as they take STAND_IN. */
  private isInert(unit: number): boolean {
    let known = this.inert[unit]!;
    if (known === 0) {
      const { literals, tests } = (this.read ??= this.readPatterns());
      const ch = String.fromCharCode(unit);
      const same = !literals.has(unit) && tests.every((t) => t.test(ch) === t.test(STAND_IN));
      this.inert[unit] = known = same ? 1 : 2;
    }
    return known === 1;
  }

  /**
   * `text` as a one-byte string the patterns read as they read `text` (same positions, same
   * lengths), or `text` itself: when it has no code unit beyond U+00FF, or one that is not inert.
   */
  of(text: string): string {
    // Without the u flag: a code unit, not a code point, is tested (V8 scans it far faster).
    if (!WIDE.test(text)) return text;
    // Every code unit's low byte, copied by Node in one call; the few beyond U+00FF are then put
    // right (the stand-in, or the text kept when one is not inert). Found by a regex scan rather
    // than a loop over every code unit: on 10 kB of relay prose with five such characters the two
    // loops this replaces took about 50 µs, this about 10 µs. A text with many of them finishes
    // by a loop from the 64th on, so no text costs more than it did.
    const bytes = Buffer.from(text, "latin1");
    WIDE_EACH.lastIndex = 0;
    for (let n = 0; n < 64 && WIDE_EACH.test(text); n++) {
      const at = WIDE_EACH.lastIndex - 1;
      if (!this.isInert(text.charCodeAt(at))) return text;
      bytes[at] = STAND_IN_UNIT;
    }
    // Past the 64th (0 when the scan found them all: nothing left to read).
    const from = WIDE_EACH.lastIndex;
    if (from > 0)
      for (let i = from; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c <= 0xff) continue;
        if (!this.isInert(c)) return text;
        bytes[i] = STAND_IN_UNIT;
      }
    return bytes.toString("latin1");
  }
}

const WIDE = /[\u0100-\uffff]/;
/** The same, global: each such code unit in turn (`test` leaves `lastIndex` just after it). */
const WIDE_EACH = /[\u0100-\uffff]/g;
const STAND_IN_UNIT = STAND_IN.charCodeAt(0);
