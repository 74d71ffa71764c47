/**
 * The detector: text a server returned in, a verdict out. Pure and bounded (no network, no state):
 * at most `budget` characters are read (the head and the last 8 kB of a longer text, where a
 * payload is most often appended), every loop has a cap, and the model's work is a fixed number of
 * hashed features per window. Detection is not a control: it never cuts a path and never makes a
 * decision current; it counts and reports what arrived.
 */
import modelFile from "./model.json";
import {
  asksNothing,
  describesTheAttack,
  fencedBlocks,
  inBlocks,
  introducesInertCode,
  speaksOfAnAssistant,
  toolSummary,
  writersOwnRequest,
} from "./context";
import { partsIn, preparePair, prepareWindow, type PreparedWindow } from "./features";
import {
  loadModel,
  scorePair,
  scorePrepared,
  type Head,
  type Model,
  type ModelFile,
} from "./model";
import { peopleTalk } from "./multilingual";
import {
  addressedSignal,
  egressSignal,
  encodedRuns,
  hiddenSignal,
  offTopicRequestSignal,
  roleSignal,
  toolSignal,
  type Hit,
  type Reason,
} from "./signals";
import {
  DEFAULT_BUDGET,
  decodeTags,
  excerpt,
  lineStartOf,
  mayHide,
  pairWindow,
  segments,
  visibleText,
  visibleTextMapped,
} from "./text";

export type { Reason, SignalName } from "./signals";

export type Verdict = { flagged: boolean; score: number; reasons: Reason[] };

export type DetectOptions = {
  /** Names of the tools the agent holds: a payload naming one with arguments is a strong sign. */
  tools?: readonly string[];
  /** The egress control's answer for a host; without it links are not judged. */
  admitHost?: (host: string) => boolean;
  /** Characters read at most (default 64 Ki). */
  budget?: number;
  /**
   * The text is written for the model on purpose by whoever serves it: a tool's description, not a
   * result. Speaking to the model is then no finding (the salutations and "your response…" phrases
   * and the off-topic request are not looked for, and the model flags at its `forModelThreshold`,
   * chosen on held-back tool descriptions); hidden characters, role tags, overrides, keeping
   * something from the user, encoded text, tool calls and links are judged as in any text.
   */
  forModel?: boolean;
  /**
   * Judge the model's windows by the text around them (code blocks, sentences that ask nothing,
   * the writer's own request to a person: lib/detection/context.ts). On by default; off only to
   * measure what those rules change (tests/detection/relay-dev).
   */
  context?: boolean;
  /** Another model (tests train small ones); the shipped one by default. */
  model?: Model;
};

/** A verdict with where the strongest signal sits, for an excerpt (the gate's event shows one). */
export type Detailed = Verdict & {
  at: number;
  scanned: number;
  truncated: boolean;
  excerpt: string;
};

const TAIL = 8 * 1024;
/** A neighbour pair is scored when either sentence alone scores at least this. */
const PAIR_FLOOR = 0.1;
/** A text is flagged when its combined score reaches this. */
export const FLAG_AT = 0.5;

let shipped: Model | undefined;
export function shippedModel(): Model {
  shipped ??= loadModel(modelFile as ModelFile);
  return shipped;
}

/** What is read of a text within the budget: the head, and the tail of a longer one. */
export function budgeted(
  text: string,
  budget = DEFAULT_BUDGET,
): { text: string; truncated: boolean } {
  if (text.length <= budget) return { text, truncated: false };
  const tail = Math.min(TAIL, Math.floor(budget / 4));
  return {
    text: `${text.slice(0, budget - tail)}\n${text.slice(text.length - tail)}`,
    truncated: true,
  };
}

type Scan = { hits: Hit[]; modelTop: { p: number; at: number } };

/**
 * A mail header naming a sender or recipient ("From: PayPal service@paypal.com", "EMAIL_TO: Dana
 * <dana@x.org>"): an address with at most four words of name asks for nothing, and the model read
 * "from … @" as a request to send. A header carrying a sentence is still scored.
 */
const MAIL_HEADER =
  /^(?:e-?mail[_ ]?)?(?:from|to|cc|bcc|reply-to|sender)\s*:\s*(?:[\p{L}\p{N}'’.-]+\s+){0,4}<?[\w.+-]+@[\w-]+(?:\.[\w-]+)+>?[,;]?$/iu;

const QUOTES: Record<string, string> = {
  '"': '"',
  "`": "`",
  "“": "”",
  "«": "»",
  "„": "“",
  "'": "'",
};
const LETTER = /\p{L}/u;

/**
 * Whether the quote at `j` opens a data value rather than a quotation: after `:` `[` `{` `=` `(`
 * (a JSON or config field), or after `,` on a line that has opened a JSON array or object. A comma
 * in prose ("Use for \"show my inbox\", \"what did I get?\"") separates quoted examples, which
 * are quotations.
 */
function opensDataValue(text: string, j: number): boolean {
  const before = text.slice(Math.max(0, j - 3), j).trimEnd();
  if (/[:[{=(]$/.test(before)) return true;
  if (!before.endsWith(",")) return false;
  return /[[{]/.test(text.slice(lineStartOf(text, j), j));
}

/**
 * The share of a window's letters inside quotations of three words or more (a quoted sentence; an
 * id, a date or a name in quotes is part of the sentence around it). The window starts inside one
 * when a quote opens just before it, unless that quote opens a data value (after `:` `,` `[` `{`
 * `=`, a JSON field, where InjecAgent's payloads live). An apostrophe inside a word is not a quote.
 */
export function quotedShare(text: string, start: number, end: number): number {
  let j = start - 1;
  // Only a quote on the same line opens before the window (a fence or a closing quote at the end
  // of the previous line does not).
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  let open: string | null = null;
  if (j >= 0 && text[j]! in QUOTES && !opensDataValue(text, j)) open = text[j]!;
  let inside = 0;
  let letters = 0;
  // Letters and word breaks of the quotation now open.
  let run = 0;
  let words = 1;
  const close = () => {
    if (words >= 3) inside += run;
    run = 0;
    words = 1;
  };
  for (let i = start; i < Math.min(end, text.length); i++) {
    const ch = text[i]!;
    if (open !== null && QUOTES[open] === ch && (ch !== "'" || !LETTER.test(text[i + 1] ?? ""))) {
      open = null;
      close();
    } else if (open === null && ch in QUOTES && (ch !== "'" || !LETTER.test(text[i - 1] ?? ""))) {
      open = ch;
    } else if (LETTER.test(ch)) {
      letters++;
      if (open !== null) run++;
    } else if (open !== null && ch === " ") words++;
  }
  if (open !== null) close();
  return letters === 0 ? 0 : inside / letters;
}

/** Where each segment sits in the text (segments are trimmed substrings, found in order). */
function segmentStarts(visible: string, segs: string[]): number[] {
  const starts: number[] = [];
  let from = 0;
  for (const seg of segs) {
    const at = visible.indexOf(seg.slice(0, 40), from);
    starts.push(at < 0 ? from : at);
    if (at >= 0) from = at + 1;
  }
  return starts;
}

/** Whether a segment at `start` is quoted: on a `> ` line, or one of its sentences two fifths inside quotations. */
function segmentQuoted(visible: string, start: number, length: number): boolean {
  if (/^\s*>/.test(visible.slice(lineStartOf(visible, start), start))) return true;
  for (let s = start, n = 0; s < start + length && n < 4; n++) {
    const stop = visible.slice(s, start + length).search(/(?<=[.!?])\s/u);
    const e = stop < 0 ? start + length : s + stop;
    if (quotedShare(visible, s, e) >= 0.4) return true;
    s = e + 1;
  }
  return false;
}

/** Whether a window is the text's first segment alone. */
const c0 = (idx: number[]) => idx.length === 1 && idx[0] === 0;

/** Model strength of a window's probability: its threshold lands on FLAG_AT; below it, support only (at most 0.3). */
const strengthOf = (p: number, t: number) =>
  p >= t ? FLAG_AT + (1 - FLAG_AT) * ((p - t) / (1 - t)) : 0.3 * (p / t) ** 2;

/**
 * Why a window the model leans on is not a request to an assistant, judged on the text around it
 * (lib/detection/context.ts), and the strength left. A window inside a quotation or a code block,
 * or the writer's own request to a person, counts for two fifths; a window that asks nothing of
 * anyone only supports other signals.
 */
function judgeWindow(
  visible: string,
  segs: string[],
  starts: number[],
  idx: number[],
  window: string,
  p: number,
  t: number,
  blocks: { code: [number, number][]; quoted: [number, number][] },
  context: boolean,
  forModel: boolean,
): { strength: number; why: string[] } {
  let strength = strengthOf(p, t);
  const why: string[] = [];
  // Quoted when a segment sits on a `> ` line, or two fifths of a sentence's letters are inside a
  // quotation (a bug report quoting a payload). Measured from each segment's own start: a quote
  // test started 300 characters back inside a JSON blob lost track of which quote opened, and an id
  // or a date a payload quotes itself ("…with id 'abc123' in my home…") is a small share of it. A
  // pair of neighbours is judged by its more quoted segment (the quoted one may be the payload).
  if (
    idx.some(
      (i) =>
        segmentQuoted(visible, starts[i]!, segs[i]!.length) ||
        (blocks.quoted.length > 0 && inBlocks(blocks.quoted, starts[i]!)),
    )
  ) {
    strength *= 0.4;
    why.push("inside a quotation");
  } else if (!context) {
    // Quotation only, as before the context rules.
  } else if (blocks.code.length > 0 && idx.some((i) => inBlocks(blocks.code, starts[i]!))) {
    // Code and configuration (a string literal naming a model, a prompt template in a code answer)
    // are shown, not said to the reader. A pair is judged by its segment in code, as a quoted pair
    // is: the sentence beside the block is judged alone too.
    strength *= 0.4;
    why.push("inside a code block");
  } else if (
    p >= t &&
    introducesInertCode(visible, starts[idx[idx.length - 1]!]! + segs[idx[idx.length - 1]!]!.length)
  ) {
    // A sentence that hands over a block of code which reaches nothing outside the program (a fix
    // to the asker's code) is the answerer's, not a planted snippet's.
    strength *= 0.4;
    why.push("introduces code that reaches nothing outside the program");
  } else if (forModel && p >= t && c0(idx) && toolSummary(segs[0]!)) {
    // A tool's description opens by saying what the tool does; the model reads "in your account"
    // or "using an AI model" there as a payload's talk.
    strength *= 0.4;
    why.push("the description's opening summary of what the tool does");
  } else if (p >= t && describesTheAttack(window)) {
    strength *= 0.4;
    why.push("describes an injection rather than making one");
  } else if (p >= t && speaksOfAnAssistant(window)) {
    strength *= 0.4;
    why.push("tells a person how to use an assistant");
  } else if (p >= t && writersOwnRequest(window, visible)) {
    strength *= 0.4;
    why.push("the writer's own request to a person");
  } else {
    // People talking (lib/detection/multilingual.ts): a question in a chat, a statement about an AI.
    const people = peopleTalk(visible, window);
    if (people) {
      strength *= 0.5;
      why.push(people);
    }
  }
  if (context && p >= t && idx.every((i) => asksNothing(segs[i]!))) {
    strength = Math.min(strength, strengthOf(t * 0.99, t));
    why.push("asks nothing of its reader");
  }
  return { strength, why };
}

/**
 * The items one at a time in the order `[...items].sort(compare)` puts them (a stable sort: `compare`
 * first, then the items' order in the list), by a binary heap: building it reads each item once, and
 * each item taken costs a few comparisons, so taking the first few of many is far cheaper than
 * sorting them all. `compare` must be consistent, as a sort's must. Undefined when none are left.
 */
export function inOrder<T>(
  items: readonly T[],
  compare: (a: T, b: T) => number,
): () => T | undefined {
  const heap = items.map((_, i) => i);
  const first = (i: number, j: number) => {
    const c = compare(items[i]!, items[j]!);
    return c < 0 || (c === 0 && i < j);
  };
  const down = (at: number) => {
    for (let k = at; ;) {
      const l = 2 * k + 1;
      let m = k;
      if (l < heap.length && first(heap[l]!, heap[m]!)) m = l;
      if (l + 1 < heap.length && first(heap[l + 1]!, heap[m]!)) m = l + 1;
      if (m === k) return;
      const swap = heap[k]!;
      heap[k] = heap[m]!;
      heap[m] = swap;
      k = m;
    }
  };
  for (let k = (heap.length >> 1) - 1; k >= 0; k--) down(k);
  return () => {
    if (heap.length === 0) return undefined;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      down(0);
    }
    return items[top];
  };
}

function modelHit(
  model: Model,
  visible: string,
  lower: string,
  forModel: boolean,
  context: boolean,
): { hit: Hit | null; p: number; at: number } {
  const t = forModel ? model.forModelThreshold : model.threshold;
  const segs = segments(visible).filter((s) => !MAIL_HEADER.test(s));
  const starts = segmentStarts(visible, segs);
  // A result repeats its windows (the same status line, a template's sentence in every record):
  // each distinct segment, and each distinct pair of them, is scored once. A segment is known by
  // the number of its first occurrence, so a pair is looked up by two numbers and its text is only
  // read when it is scored. Bounded by the windows of one text.
  const ids = new Map<string, number>();
  // Each distinct segment lower-cased, with its words and their hashes, its score, and the running
  // sum of its words' weights: a pair is prepared from its two segments' (features.ts
  // `preparePair`) and its sum goes on from its first segment's (model.ts `scorePair`), not read
  // and summed again.
  const distinct: { prepared: PreparedWindow; p: number; head: Head | null }[] = [];
  // The cues' gate parts ("@", "http", "$"…) in the whole text: most are in none of its windows.
  const within = partsIn(lower);
  const idOf = segs.map((w) => {
    let id = ids.get(w);
    if (id === undefined) {
      id = distinct.length;
      ids.set(w, id);
      const prepared = prepareWindow(w, within);
      distinct.push({ prepared, ...scorePrepared(model, prepared, forModel) });
    }
    return id;
  });
  const single = idOf.map((id) => distinct[id]!.p);
  const pairScores = new Map<number, number>();
  // Every window worth judging: each segment, and a pair of neighbours when one of them already
  // leans towards a payload (a payload split over two sentences shows in at least one, and clean
  // text skips the second pass).
  const candidates: { p: number; idx: number[]; window: string }[] = [];
  single.forEach((p, i) => {
    if (p > 0) candidates.push({ p, idx: [i], window: segs[i]! });
  });
  for (let i = 0; i + 1 < segs.length; i++) {
    if (Math.max(single[i]!, single[i + 1]!) < PAIR_FLOOR) continue;
    const pair = pairWindow(segs[i]!, segs[i + 1]!);
    if (pair === null) continue;
    const key = idOf[i]! * segs.length + idOf[i + 1]!;
    let p = pairScores.get(key);
    if (p === undefined) {
      const [a, b] = [distinct[idOf[i]!]!, distinct[idOf[i + 1]!]!];
      const prepared = preparePair(a.prepared, b.prepared);
      const first = { tokens: a.prepared.tokens.length, head: a.head };
      const second = { tokens: b.prepared.tokens.length, head: b.head };
      pairScores.set(key, (p = scorePair(model, prepared, first, second, forModel)));
    }
    candidates.push({ p, idx: [i, i + 1], window: pair });
  }
  if (candidates.length === 0) return { hit: null, p: 0, at: 0 };
  // Highest probability first; the context rules only lower a window's strength, so the search
  // stops once no remaining window could beat the best judged one. Taken from a heap in the order
  // a stable sort gives: most texts judge one or two windows of a few hundred, and sorting them
  // all was most of this function's own time.
  const next = inOrder(candidates, (a, b) => b.p - a.p || a.idx[0]! - b.idx[0]!);
  // Found only when a window is judged, and only in a text with a fence (most texts have none).
  let blocks: ReturnType<typeof fencedBlocks> | null = null;
  const fenced = () =>
    (blocks ??=
      context && /```|~~~/.test(visible) ? fencedBlocks(visible) : { code: [], quoted: [] });
  let best: { c: (typeof candidates)[number]; strength: number; why: string[] } | null = null;
  for (let n = 0, c = next(); n < 200 && c !== undefined; n++, c = next()) {
    if (best !== null && strengthOf(c.p, t) <= best.strength) break;
    const judged = judgeWindow(
      visible,
      segs,
      starts,
      c.idx,
      c.window,
      c.p,
      t,
      fenced(),
      context,
      forModel,
    );
    if (best === null || judged.strength > best.strength) best = { c, ...judged };
  }
  const { c, strength, why } = best!;
  const at = starts[c.idx[0]!]!;
  const bestWindow = c.idx.map((i) => segs[i]!).join(" ");
  return {
    hit: {
      signal: "model",
      detail: `trained model: ${c.p.toFixed(2)} (flags at ${t})${why.map((w) => `, ${w}`).join("")} on ${JSON.stringify(bestWindow.slice(0, 100))}`,
      strength,
      at,
      quoted: why.includes("inside a quotation") || why.includes("inside a code block"),
    },
    p: c.p,
    at,
  };
}

function scanVisible(visible: string, options: DetectOptions, model: Model): Scan {
  // Lower-cased once for the four signals that read it so (10 kB is lower-cased in ~10 µs).
  const lower = visible.toLowerCase();
  const hits: Hit[] = [
    ...addressedSignal(visible, options.forModel, lower),
    ...(options.forModel ? [] : offTopicRequestSignal(visible, lower)),
    ...roleSignal(visible, lower),
    ...toolSignal(visible, options.tools ?? [], lower),
    ...egressSignal(visible, options.admitHost),
  ];
  const m = modelHit(model, visible, lower, options.forModel ?? false, options.context ?? true);
  if (m.hit) hits.push(m.hit);
  return { hits, modelTop: { p: m.p, at: m.at } };
}

/**
 * Noisy-OR over the signals; the signals found inside quotations (or code) count once, by the
 * strongest: a bug report quoting one payload sets off the override phrase, the salutation and the
 * model on the same quoted line, and three discounted readings of one quotation are not three
 * pieces of evidence.
 */
const combine = (hits: Hit[], context = true) => {
  let keep = 1;
  let quoted = 0;
  for (const h of hits)
    if (context && h.quoted) quoted = Math.max(quoted, h.strength);
    else keep *= 1 - h.strength;
  return 1 - keep * (1 - quoted);
};

export function detectDetailed(text: string, options: DetectOptions = {}): Detailed {
  const model = options.model ?? shippedModel();
  const { text: raw, truncated } = budgeted(text, options.budget);
  // One scan for a character that may be hidden, for both (10 kB of relay prose: about 14 µs each).
  const mayHold = mayHide(raw);
  const hits: Hit[] = hiddenSignal(raw, mayHold);
  const mapped = visibleTextMapped(raw, mayHold);
  const visible = mapped.text;
  hits.push(...scanVisible(visible, options, model).hits);

  // Encoded text is decoded once (never recursively) and scanned like the rest.
  const decodedRuns: { kind: string; decoded: string; at: number }[] = encodedRuns(visible);
  const tags = decodeTags(raw);
  if (tags.length >= 4) decodedRuns.push({ kind: "Unicode tag characters", decoded: tags, at: 0 });
  for (const run of decodedRuns.slice(0, 8)) {
    const inner = scanVisible(visibleText(run.decoded.slice(0, 4096)), { ...options }, model).hits;
    const s = combine(inner, options.context);
    if (s >= 0.4)
      hits.push({
        signal: "encoded",
        detail: `${run.kind} that decodes to ${JSON.stringify(run.decoded.slice(0, 80))} (${[...new Set(inner.filter((h) => h.strength >= 0.25).map((h) => h.signal))].join(", ")})`,
        strength: Math.max(0.6, s),
        at: run.at,
      });
  }

  const score = combine(hits, options.context);
  const shown = hits.filter(
    (h) => h.strength >= 0.25 || (h.signal === "hidden-characters" && h.strength >= 0.1),
  );
  shown.sort((a, b) => b.strength - a.strength);
  const top = shown[0] ?? hits.sort((a, b) => b.strength - a.strength)[0];
  const at = top?.at ?? 0;
  return {
    flagged: score >= FLAG_AT,
    score: Number(score.toFixed(3)),
    reasons: shown.map(({ signal, detail }) => ({ signal, detail })),
    at,
    scanned: raw.length,
    truncated,
    // Cut from the raw text whatever fired, so the hidden characters inside a flagged sentence
    // are revealed in the excerpt rather than silently dropped with the visible text's cleaning.
    excerpt: excerpt(raw, top && top.signal === "hidden-characters" ? at : mapped.rawOffset(at)),
  };
}

/** Text in, verdict out: `{ flagged, score, reasons }`. */
export function detect(text: string, options: DetectOptions = {}): Verdict {
  const { flagged, score, reasons } = detectDetailed(text, options);
  return { flagged, score, reasons };
}
