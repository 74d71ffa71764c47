/**
 * Text handling shared by every detection signal and the trained model: the budget on what is
 * scanned, the characters a reader cannot see, and the split into short windows the model scores.
 * Everything here is pure and bounded: a server's text is attacker-controlled, so every loop is
 * capped by the character budget, never by what the text contains.
 */

import { IMPERATIVE } from "./features";
import { isSpace } from "./space";

/** Characters scanned per text by default: a 10 kB ticket is read whole, a 1 MB dump is not. */
export const DEFAULT_BUDGET = 64 * 1024;

/** Zero-width and invisible formatting characters (a payload's way to hide words from a reviewer). */
// eslint-disable-next-line no-misleading-character-class -- each invisible character is matched on its own, on purpose
const ZERO_WIDTH = /[\u200B\u200C\u200D\u2060-\u2064\uFEFF\u00AD\u180E]/gu;
/** Bidirectional controls: reorder what a reader sees against what a model reads ("Trojan Source"). */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/gu;
/** Unicode tag characters (U+E0000–E007F): invisible, and each maps to an ASCII character. */
const TAGS = /[\u{E0000}-\u{E007F}]/gu;
/** ANSI escape sequences (CSI and OSC) and the bare ESC: they rewrite a terminal a reviewer reads. */
const ANSI =
  // eslint-disable-next-line no-control-regex -- ANSI escapes start with ESC: that is what this finds
  /\u001B(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001B]{0,512}(?:\u0007|\u001B\\)?|[@-Z\\-_])?/gu;
/** Other C0/C1 controls a text has no reason to carry (tab, LF and CR are text). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001A\u001C-\u001F\u007F-\u009F]/gu;

export type HiddenCounts = {
  zeroWidth: number;
  bidi: number;
  tags: number;
  ansi: number;
  controls: number;
};

function count(re: RegExp, text: string): number {
  re.lastIndex = 0;
  let n = 0;
  for (const _ of text.matchAll(re)) n++;
  return n;
}

export function countHidden(text: string): HiddenCounts {
  return {
    zeroWidth: count(ZERO_WIDTH, text),
    bidi: count(BIDI, text),
    tags: count(TAGS, text),
    ansi: count(ANSI, text),
    controls: count(CONTROLS, text),
  };
}

/** The ASCII text that tag characters spell (U+E0020–E007E ↦ U+0020–007E). */
export function decodeTags(text: string): string {
  let out = "";
  // Every tag character's first code unit is U+DB40 (one cheap search for most texts).
  if (!text.includes("\uDB40")) return out;
  for (const m of text.matchAll(TAGS)) {
    const cp = m[0].codePointAt(0)! - 0xe0000;
    if (cp >= 0x20 && cp <= 0x7e) out += String.fromCharCode(cp);
  }
  return out;
}

/** Every character `visibleText` removes or turns into a space, in one pass (ANSI first, as `visibleText` replaces them). */
const HIDDEN_ANY = new RegExp(
  [ANSI, TAGS, ZERO_WIDTH, BIDI, CONTROLS].map((re) => re.source).join("|"),
  "gu",
);
const HIDDEN_TEST = new RegExp(HIDDEN_ANY.source, "u");

/**
 * Whether the text has any character `countHidden` counts (one pass; most results have none).
 * `mayHold`: `mayHide(text)`, when the caller has it (the detector asks it once per text).
 */
export const hasHidden = (text: string, mayHold = mayHide(text)) =>
  mayHold && HIDDEN_TEST.test(text);

/**
 * A code unit that every hidden character begins with: the controls (ESC among them), the soft
 * hyphen, the zero-width and bidirectional characters, and U+DB40, the high surrogate of every
 * tag character (U+E0000–E007F). Without the u flag this class is one cheap scan; the hidden
 * patterns, with it, decode every position as a code point (three scans of every result).
 */
const MAY_HIDE =
  // eslint-disable-next-line no-control-regex -- control characters are among what this finds
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\uDB40]/;

/** Whether the text may hold a hidden character (false: it holds none; see MAY_HIDE). */
export const mayHide = (text: string) => MAY_HIDE.test(text);

/**
 * What a hidden match leaves in the visible text: a space for an ANSI sequence (it starts with ESC)
 * or a C0/C1 control (CONTROLS, a single character), nothing for the invisible characters.
 */
const shownAs = (hidden: string) => {
  const c = hidden.charCodeAt(0);
  return c <= 0x1f || (c >= 0x7f && c <= 0x9f) ? " " : "";
};

/**
 * The visible text with where each of its positions sits in the raw text, built in one pass.
 * `rawOffset` lets an excerpt of a payload found in the visible text be cut from the raw text and
 * show the hidden characters around it (a reviewer must see the U+202E inside a flagged sentence,
 * not a cleaned copy). NFKC's rare length changes are not mapped, which moves an excerpt by a few
 * characters at most.
 */
export type VisibleText = { text: string; rawOffset: (visibleAt: number) => number };

/** `visibleText` and its map back to the raw text, from the same single pass (`mayHold`: as for `hasHidden`). */
export function visibleTextMapped(raw: string, mayHold = mayHide(raw)): VisibleText {
  // Nothing hidden: what the pass below gives when it finds no match.
  if (!mayHold)
    return {
      text: raw.normalize("NFKC"),
      rawOffset: (visibleAt) => Math.min(raw.length, Math.max(0, visibleAt)),
    };
  // For each hidden match: its raw index and the visible length before it (non-decreasing).
  const rawAt: number[] = [];
  const visibleBefore: number[] = [];
  let out = "";
  let last = 0;
  for (const m of raw.matchAll(HIDDEN_ANY)) {
    out += raw.slice(last, m.index);
    rawAt.push(m.index);
    visibleBefore.push(out.length);
    out += shownAs(m[0]);
    last = m.index + m[0].length;
  }
  out += raw.slice(last);
  const tailRaw = last;
  const tailVisible = out.length - (raw.length - last);
  return {
    text: out.normalize("NFKC"),
    rawOffset(visibleAt) {
      // The first hidden match the position is not past: the position sits in the text before it.
      let lo = 0;
      let hi = rawAt.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (visibleBefore[mid]! >= visibleAt) hi = mid;
        else lo = mid + 1;
      }
      if (lo < rawAt.length) return rawAt[lo]! - (visibleBefore[lo]! - visibleAt);
      return Math.min(raw.length, tailRaw + Math.max(0, visibleAt - tailVisible));
    },
  };
}

/** What the model and the phrase signals read: no invisible characters, no escapes, NFKC. */
export function visibleText(text: string): string {
  return text
    .replace(ANSI, " ")
    .replace(TAGS, "")
    .replace(ZERO_WIDTH, "")
    .replace(BIDI, "")
    .replace(CONTROLS, " ")
    .normalize("NFKC");
}

/**
 * Shows every character a reader would not see as a visible marker, for an excerpt a reviewer
 * reads: `⟨U+202E⟩`, `⟨ESC⟩`. Tag characters are shown with the ASCII they spell.
 */
export function revealHidden(text: string): string {
  return text
    .replace(ANSI, (m) => `⟨ESC${JSON.stringify(m.slice(1)).slice(1, -1)}⟩`)
    .replace(TAGS, (m) => {
      const cp = m.codePointAt(0)! - 0xe0000;
      return cp >= 0x20 && cp <= 0x7e ? `⟨tag:${String.fromCharCode(cp)}⟩` : "⟨tag⟩";
    })
    .replace(
      // eslint-disable-next-line no-misleading-character-class -- each invisible character is matched on its own, on purpose
      new RegExp(`${ZERO_WIDTH.source}|${BIDI.source}|${CONTROLS.source}`, "gu"),
      (m) => `⟨U+${m.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`,
    );
}

/** A bounded excerpt around a position, hidden characters revealed. */
export function excerpt(text: string, at = 0, max = 240): string {
  const start = Math.max(0, Math.min(at - 40, text.length - max));
  const slice = text.slice(start, start + max);
  return (start > 0 ? "…" : "") + revealHidden(slice) + (start + max < text.length ? "…" : "");
}

/** The last text `lineStartOf` was asked about, and where its line breaks are (one text kept: the memo never grows). */
let lineBreaks: { text: string; at: number[] } | null = null;

/**
 * Where the line holding position `at` starts: `text.lastIndexOf("\n", at) + 1`. V8 reads a string
 * backwards one code unit at a time (about 3 µs over a 10 kB result of one line, a JSON array,
 * each time a rule asks whether a match there is quoted), and forwards some fifteen times faster:
 * the breaks are found forwards once per text and looked up by bisection.
 */
export function lineStartOf(text: string, at: number): number {
  if (lineBreaks === null || lineBreaks.text !== text) {
    const breaks: number[] = [];
    for (let j = text.indexOf("\n"); j >= 0; j = text.indexOf("\n", j + 1)) breaks.push(j);
    lineBreaks = { text, at: breaks };
  }
  const breaks = lineBreaks.at;
  // lastIndexOf reads from `at` rounded down into the text, and finds a break at `at` itself.
  const from = Math.min(Math.max(Math.floor(at), 0), text.length);
  // The first break after `from`: the line's own break precedes it.
  let lo = 0;
  let hi = breaks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (breaks[mid]! <= from) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : breaks[lo - 1]! + 1;
}

/** Caps on the windows a text is split into (the model's work per text is bounded by these). */
export const MAX_SEGMENT_CHARS = 400;
export const MAX_SEGMENTS = 2000;

/**
 * A capitalised imperative after a comma that follows a lower-case word ("…our new flavor, Please
 * unlock my front door."): a sentence spliced into another one, as a payload appended to a field
 * is; a list of names ("Paris, France") or a salutation ("Hi Anna, please…") is not split.
 */
const SPLICED = [...IMPERATIVE]
  .filter((w) => /^\p{Ll}{3,}$/u.test(w))
  .map((w) => w[0]!.toUpperCase() + w.slice(1))
  .join("|");
// The sentence break is written white space first, its lookbehinds then reaching over that first
// space (`(?<=[.!?])\s+` is `\s(?<=[.!?]\s)\s*`, and nothing follows the run to backtrack into),
// and the brackets' `\s*[{}[\]|]+\s*` as `\s+[{}[\]|]+\s*|[{}[\]|]+\s*` (at any one place only
// one of the two can start): the same matches, but every alternative now opens with a character
// V8 can test first, rather than lookbehinds or an empty run tried at every character (the split
// took 0.10 ms on 10 kB of relay prose, 0.05 ms written so).
export const SEGMENT_BREAK = new RegExp(
  `\\s(?<=[.!?。！？]\\s)(?<!\\b(?:e\\.g|i\\.e|vs|cf|approx|Mr|Mrs|Ms|Dr|St|Nr|z\\.B|bzw|ca)\\.\\s)\\s*|\\r?\\n+|\\s+[{}[\\]|]+\\s*|[{}[\\]|]+\\s*|['"]\\s*[,:]\\s*['"]|\\\\n|\\s{3,}|,(?<=\\p{Ll}{2},)\\s+(?=(?:${SPLICED})\\s)`,
  "u",
);

/** Quotes, backticks and asterisks a unit does not start or end with. */
const isQuoteMark = (c: number) => c === 0x27 || c === 0x22 || c === 0x60 || c === 0x2a;

/**
 * A unit without what leads it (white space, quotes, `*`, `>`, `#`, dashes, bullets) and what
 * trails it (white space, quotes, `*`): `/^[\s'"\`*>#\-–—•]+|[\s'"\`*]+$/gu` replaced by nothing,
 * by two loops (the regex tried its trailing half at every position of every unit).
 */
function trimUnit(s: string): string {
  let i = 0;
  let j = s.length;
  for (; i < j; i++) {
    const c = s.charCodeAt(i);
    if (!(
      isSpace(c) ||
      isQuoteMark(c) ||
      c === 0x3e ||
      c === 0x23 ||
      c === 0x2d ||
      c === 0x2013 ||
      c === 0x2014 ||
      c === 0x2022
    ))
      break;
  }
  while (j > i && (isSpace(s.charCodeAt(j - 1)) || isQuoteMark(s.charCodeAt(j - 1)))) j--;
  return i === 0 && j === s.length ? s : s.slice(i, j);
}

/** Letters beyond ASCII, by UTF-16 code unit: 0 not looked up yet, 1 a letter, 2 not (64 KiB, fixed). */
const LETTER_BMP = new Uint8Array(0x10000);
const LETTER = /^\p{L}$/u;

/** Whether a code point is a letter (`\p{L}`), ASCII answered without a regex. */
export function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  if (cp > 0xffff) return LETTER.test(String.fromCodePoint(cp));
  let known = LETTER_BMP[cp]!;
  if (known === 0) LETTER_BMP[cp] = known = LETTER.test(String.fromCharCode(cp)) ? 1 : 2;
  return known === 1;
}

/**
 * Whether a unit has two words of two letters or more in a row: what
 * `/\p{L}{2,}[^\p{L}]+\p{L}{2,}/u` finds, by one pass over the code points. That regex must see
 * two neighbouring runs of letters (nothing but non-letters between them) of two or more each;
 * run on every unit of every text it cost about half a microsecond a unit (its Unicode class).
 * A lone surrogate is a non-letter, as it is to the regex. (text.test.ts compares the two.)
 */
export function hasTwoWords(s: string): boolean {
  // Letters in the run now open, and in the run before it (0: none yet, or shorter than two).
  let run = 0;
  let before = 0;
  for (let i = 0; i < s.length;) {
    const cp = s.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (isLetter(cp)) {
      if (++run === 2 && before >= 2) return true;
    } else if (run > 0) {
      before = run;
      run = 0;
    }
  }
  return false;
}

/**
 * Splits text into short units a payload would occupy: sentences, lines, table cells and JSON
 * string values. An abbreviation's full stop ("e.g. user@x.org", "z.B.") does not end a sentence. A payload is a sentence or three inside a much longer ticket, so the model scores
 * each unit (and each pair of neighbours) and the text takes its highest score, rather than
 * averaging a paragraph aimed at a model into the ticket around it.
 */
export function segments(text: string): string[] {
  const units = text
    .split(SEGMENT_BREAK)
    .map(trimUnit)
    // A unit of one word (a JSON key, an id, a status) asks for nothing and is not scored.
    .filter(hasTwoWords);
  const out: string[] = [];
  for (const unit of units) {
    // A unit with no sentence break (a minified blob) is cut into fixed pieces.
    for (let i = 0; i < unit.length && out.length < MAX_SEGMENTS; i += MAX_SEGMENT_CHARS)
      out.push(unit.slice(i, i + MAX_SEGMENT_CHARS));
    if (out.length >= MAX_SEGMENTS) break;
  }
  return out;
}

/** Two neighbouring segments as one window, or null when together they are too long to score as one. */
export function pairWindow(a: string, b: string): string | null {
  return a.length + b.length <= MAX_SEGMENT_CHARS ? `${a} ${b}` : null;
}

/** Windows the model scores: every segment, and every pair of short neighbours. */
export function windows(segs: string[]): string[] {
  const out = [...segs];
  for (let i = 0; i + 1 < segs.length; i++) {
    const pair = pairWindow(segs[i]!, segs[i + 1]!);
    if (pair !== null) out.push(pair);
  }
  return out;
}
