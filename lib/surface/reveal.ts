/**
 * Hidden characters made visible: invisible and bidi code points, Unicode tag runs and ANSI escape
 * sequences, each named (`⟦U+200B ZERO WIDTH SPACE⟧`). Everything the workbench shows or prints of
 * a server's text goes through this, so it is its own small module: the browser's sections that
 * only display names do not load the surface scanner (lib/surface/suspicious.ts). Pure.
 */

export type HiddenClass =
  | "zero_width"
  | "bidi_control"
  | "tag_block"
  | "variation_selector"
  | "control"
  | "other_invisible";

const NAMES: Record<number, string> = {
  0x00ad: "SOFT HYPHEN",
  0x034f: "COMBINING GRAPHEME JOINER",
  0x061c: "ARABIC LETTER MARK",
  0x115f: "HANGUL CHOSEONG FILLER",
  0x1160: "HANGUL JUNGSEONG FILLER",
  0x17b4: "KHMER VOWEL INHERENT AQ",
  0x17b5: "KHMER VOWEL INHERENT AA",
  0x180e: "MONGOLIAN VOWEL SEPARATOR",
  0x200b: "ZERO WIDTH SPACE",
  0x200c: "ZERO WIDTH NON-JOINER",
  0x200d: "ZERO WIDTH JOINER",
  0x200e: "LEFT-TO-RIGHT MARK",
  0x200f: "RIGHT-TO-LEFT MARK",
  0x202a: "LEFT-TO-RIGHT EMBEDDING",
  0x202b: "RIGHT-TO-LEFT EMBEDDING",
  0x202c: "POP DIRECTIONAL FORMATTING",
  0x202d: "LEFT-TO-RIGHT OVERRIDE",
  0x202e: "RIGHT-TO-LEFT OVERRIDE",
  0x2060: "WORD JOINER",
  0x2061: "FUNCTION APPLICATION",
  0x2062: "INVISIBLE TIMES",
  0x2063: "INVISIBLE SEPARATOR",
  0x2064: "INVISIBLE PLUS",
  0x2066: "LEFT-TO-RIGHT ISOLATE",
  0x2067: "RIGHT-TO-LEFT ISOLATE",
  0x2068: "FIRST STRONG ISOLATE",
  0x2069: "POP DIRECTIONAL ISOLATE",
  0x3164: "HANGUL FILLER",
  0xfeff: "ZERO WIDTH NO-BREAK SPACE",
  0xffa0: "HALFWIDTH HANGUL FILLER",
  0xfff9: "INTERLINEAR ANNOTATION ANCHOR",
  0xfffa: "INTERLINEAR ANNOTATION SEPARATOR",
  0xfffb: "INTERLINEAR ANNOTATION TERMINATOR",
  0xe0001: "LANGUAGE TAG",
  0xe007f: "CANCEL TAG",
};

function classify(cp: number): HiddenClass | null {
  if (cp === 0x09 || cp === 0x0a || cp === 0x0d) return null;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f)) return "control";
  if (
    cp === 0x200b ||
    cp === 0x200c ||
    cp === 0x200d ||
    cp === 0x2060 ||
    cp === 0xfeff ||
    cp === 0x180e
  )
    return "zero_width";
  if (
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0x200e ||
    cp === 0x200f ||
    cp === 0x061c
  )
    return "bidi_control";
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag_block";
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef))
    return "variation_selector";
  if (
    cp === 0x00ad ||
    cp === 0x034f ||
    cp === 0x115f ||
    cp === 0x1160 ||
    cp === 0x17b4 ||
    cp === 0x17b5 ||
    cp === 0x3164 ||
    cp === 0xffa0 ||
    (cp >= 0x2061 && cp <= 0x2064) ||
    (cp >= 0x206a && cp <= 0x206f) ||
    (cp >= 0xfff9 && cp <= 0xfffb) ||
    (cp >= 0x1d173 && cp <= 0x1d17a)
  )
    return "other_invisible";
  return null;
}

const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, "0");

function charName(cp: number): string {
  const known = NAMES[cp];
  if (known) return known;
  if (cp >= 0xe0020 && cp <= 0xe007e) return `TAG ${String.fromCharCode(cp - 0xe0000)}`;
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp <= 0x9f)) return "CONTROL";
  return "INVISIBLE";
}

/** `⟦U+200B ZERO WIDTH SPACE⟧` */
export function revealCodePoint(cp: number): string {
  return `⟦U+${hex(cp)} ${charName(cp)}⟧`;
}

// CSI, OSC (BEL or ST terminated), two-character escapes, and the 8-bit CSI.
const ANSI =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]|\u009b[0-?]*[ -/]*[@-~]/g;

function revealAnsi(seq: string): string {
  /* eslint-disable no-control-regex -- ESC, BEL and the 8-bit CSI are what this names */
  return `⟦ANSI ${seq
    .replace(/\u001b/g, "ESC")
    .replace(/\u0007/g, "BEL")
    .replace(/\u009b/g, "CSI")}⟧`;
  /* eslint-enable no-control-regex */
}

/** A run of text, hidden or not, for a UI that styles revealed characters (no HTML involved). */
export type RevealSegment =
  | { kind: "text"; text: string; start: number; end: number }
  | {
      kind: "hidden";
      text: string;
      start: number;
      end: number;
      cls: HiddenClass | "ansi";
      revealed: string;
    };

/** Split text into visible runs and hidden runs (hidden chars, tag runs, ANSI sequences). */
export function revealSegments(text: string): RevealSegment[] {
  const out: RevealSegment[] = [];
  const ansi: [number, number][] = [];
  for (const m of text.matchAll(ANSI)) ansi.push([m.index, m.index + m[0].length]);
  let visibleStart = 0;
  let a = 0;
  const flushVisible = (until: number) => {
    if (until > visibleStart)
      out.push({
        kind: "text",
        text: text.slice(visibleStart, until),
        start: visibleStart,
        end: until,
      });
  };
  let i = 0;
  while (i < text.length) {
    const next = ansi[a];
    if (next && next[0] === i) {
      flushVisible(i);
      const seq = text.slice(next[0], next[1]);
      out.push({
        kind: "hidden",
        text: seq,
        start: next[0],
        end: next[1],
        cls: "ansi",
        revealed: revealAnsi(seq),
      });
      i = next[1];
      visibleStart = i;
      a++;
      continue;
    }
    const cp = text.codePointAt(i)!;
    const cls = classify(cp);
    if (cls === null) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    flushVisible(i);
    const start = i;
    const cps: number[] = [];
    while (i < text.length) {
      if (ansi[a] && ansi[a]![0] === i) break;
      const c = text.codePointAt(i)!;
      if (classify(c) !== cls) break;
      cps.push(c);
      i += c > 0xffff ? 2 : 1;
    }
    let revealed: string;
    if (cls === "tag_block") {
      const ascii = cps
        .filter((c) => c >= 0xe0020 && c <= 0xe007e)
        .map((c) => String.fromCharCode(c - 0xe0000))
        .join("");
      const extras = cps
        .filter((c) => c < 0xe0020 || c > 0xe007e)
        .map(revealCodePoint)
        .join("");
      revealed = `⟦TAG ${JSON.stringify(ascii)}⟧${extras}`;
    } else {
      revealed = cps.map(revealCodePoint).join("");
    }
    out.push({ kind: "hidden", text: text.slice(start, i), start, end: i, cls, revealed });
    visibleStart = i;
  }
  flushVisible(text.length);
  return out;
}

/** The text with every hidden character, tag run and ANSI sequence made visible. */
export function revealHidden(text: string): string {
  let out = "";
  for (const s of revealSegments(text)) out += s.kind === "text" ? s.text : s.revealed;
  return out;
}
