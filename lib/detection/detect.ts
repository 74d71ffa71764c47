/**
 * The detector: text a server returned in, a verdict out. Pure and bounded (no network, no state):
 * at most `budget` characters are read (the head and the last 8 kB of a longer text, where a
 * payload is most often appended), every loop has a cap, and the model's work is a fixed number of
 * hashed features per window. Detection is not a control: it never cuts a path and never makes a
 * decision current; it counts and reports what arrived.
 */
import modelFile from "./model.json";
import { loadModel, scoreWindow, type Model, type ModelFile } from "./model";
import {
  addressedSignal,
  egressSignal,
  encodedRuns,
  hiddenSignal,
  quoted,
  roleSignal,
  toolSignal,
  type Hit,
  type Reason,
} from "./signals";
import { DEFAULT_BUDGET, decodeTags, excerpt, segments, visibleText, windows } from "./text";

export type { Reason, SignalName } from "./signals";

export type Verdict = { flagged: boolean; score: number; reasons: Reason[] };

export type DetectOptions = {
  /** Names of the tools the agent holds: a payload naming one with arguments is a strong sign. */
  tools?: readonly string[];
  /** The egress control's answer for a host; without it links are not judged. */
  admitHost?: (host: string) => boolean;
  /** Characters read at most (default 64 Ki). */
  budget?: number;
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

function modelHit(model: Model, visible: string): { hit: Hit | null; p: number; at: number } {
  let best = 0;
  let bestWindow = "";
  const segs = segments(visible);
  const single = segs.map((w) => scoreWindow(model, w));
  single.forEach((p, i) => {
    if (p > best) {
      best = p;
      bestWindow = segs[i]!;
    }
  });
  // A pair of neighbours is scored only when one of them already leans towards a payload: a
  // payload split over two sentences shows in at least one, and clean text skips the second pass.
  const pairs = windows(segs, (i) => Math.max(single[i]!, single[i + 1]!) >= PAIR_FLOOR).slice(
    segs.length,
  );
  for (const w of pairs) {
    const p = scoreWindow(model, w);
    if (p > best) {
      best = p;
      bestWindow = w;
    }
  }
  if (best === 0) return { hit: null, p: 0, at: 0 };
  const at = Math.max(0, visible.indexOf(bestWindow.slice(0, 40)));
  // Quoted when the middle of the window sits inside a quotation (a bug report quoting a payload).
  const inQuote = quoted(visible, at + Math.floor(bestWindow.length / 2));
  const t = model.threshold;
  // Map the model's probability so its threshold lands on FLAG_AT; a quoted sentence counts for less.
  // Below its threshold the model only supports other signals (at most 0.3), it never tips a text alone.
  let strength =
    best >= t ? FLAG_AT + (1 - FLAG_AT) * ((best - t) / (1 - t)) : 0.3 * (best / t) ** 2;
  if (inQuote) strength *= 0.4;
  return {
    hit: {
      signal: "model",
      detail: `trained model: ${best.toFixed(2)} (flags at ${t})${inQuote ? ", inside a quotation" : ""} on ${JSON.stringify(bestWindow.slice(0, 100))}`,
      strength,
      at,
    },
    p: best,
    at,
  };
}

function scanVisible(visible: string, options: DetectOptions, model: Model): Scan {
  const hits: Hit[] = [
    ...addressedSignal(visible),
    ...roleSignal(visible),
    ...toolSignal(visible, options.tools ?? []),
    ...egressSignal(visible, options.admitHost),
  ];
  const m = modelHit(model, visible);
  if (m.hit) hits.push(m.hit);
  return { hits, modelTop: { p: m.p, at: m.at } };
}

const combine = (hits: Hit[]) => 1 - hits.reduce((keep, h) => keep * (1 - h.strength), 1);

export function detectDetailed(text: string, options: DetectOptions = {}): Detailed {
  const model = options.model ?? shippedModel();
  const { text: raw, truncated } = budgeted(text, options.budget);
  const hits: Hit[] = hiddenSignal(raw);
  const visible = visibleText(raw);
  hits.push(...scanVisible(visible, options, model).hits);

  // Encoded text is decoded once (never recursively) and scanned like the rest.
  const decodedRuns: { kind: string; decoded: string; at: number }[] = encodedRuns(visible);
  const tags = decodeTags(raw);
  if (tags.length >= 4) decodedRuns.push({ kind: "Unicode tag characters", decoded: tags, at: 0 });
  for (const run of decodedRuns.slice(0, 8)) {
    const inner = scanVisible(visibleText(run.decoded.slice(0, 4096)), { ...options }, model).hits;
    const s = combine(inner);
    if (s >= 0.4)
      hits.push({
        signal: "encoded",
        detail: `${run.kind} that decodes to ${JSON.stringify(run.decoded.slice(0, 80))} (${[...new Set(inner.filter((h) => h.strength >= 0.25).map((h) => h.signal))].join(", ")})`,
        strength: Math.max(0.6, s),
        at: run.at,
      });
  }

  const score = combine(hits);
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
    excerpt: excerpt(top && top.signal === "hidden-characters" ? raw : visible, at),
  };
}

/** Text in, verdict out: `{ flagged, score, reasons }`. */
export function detect(text: string, options: DetectOptions = {}): Verdict {
  const { flagged, score, reasons } = detectDetailed(text, options);
  return { flagged, score, reasons };
}
