/**
 * The rule signals: each looks for one thing a payload does, and says what it found in words a
 * reviewer can check against the excerpt. Each returns a strength in [0, 1]; detect.ts combines
 * them with the model's score. Rules that could fire on text written for people (a quoted attack
 * in a bug report, "System:" in a log) are weakened when the match sits inside a quote.
 */
import { fencedBlocks, inBlocks } from "./context";
import { ADDRESSED_ELSEWHERE, ROLE_ELSEWHERE, mentioned, transcriptSpeaker } from "./multilingual";
import { OneByte } from "./one-byte";
import { isSpace } from "./space";
import { countHidden, decodeTags, hasHidden, isLetter, lineStartOf } from "./text";

export type Reason = { signal: SignalName; detail: string };
export type SignalName =
  | "hidden-characters"
  | "addressed-to-ai"
  | "tool-call"
  | "egress-link"
  | "role-marker"
  | "encoded"
  | "model";

/** `quoted`: found inside a quotation or a code line, where it is shown rather than said. */
export type Hit = Reason & { strength: number; at: number; quoted?: boolean };

/**
 * Quotation marks, each with the mark that closes it, by UTF-16 code unit (each is one): built
 * once, and read by `charCodeAt` rather than a one-character string and a property lookup per
 * character.
 */
const QUOTE_CLOSE = new Map(
  [
    ['"', '"'],
    ["`", "`"],
    ["“", "”"],
    ["«", "»"],
    ["„", "“"],
    ["'", "'"],
    // Japanese and Chinese quotation brackets.
    ["「", "」"],
    ["『", "』"],
  ].map(([open, close]) => [open!.charCodeAt(0), close!.charCodeAt(0)]),
);
const APOSTROPHE = 0x27;
/** QUOTE_CLOSE as a table by code unit (0: no quotation mark), read once per character of `quoted`'s scan. */
const CLOSE_OF = new Uint16Array(0x10000);
for (const [open, close] of QUOTE_CLOSE) CLOSE_OF[open] = close;

/**
 * Is the match at `at` inside a quotation (quotation marks or backticks opened in prose, or a
 * "> " quoted line)? A quote that opens a data value (after `:`, `,`, `[`, `{`, `=`) is a JSON or
 * form field, where payloads live, not a quotation.
 */
export function quoted(text: string, at: number): boolean {
  const lineStart = lineStartOf(text, at);
  // A "> " quoted line: `/^\s*>/` on the line up to `at`, read in place (no slice of a long line).
  const lineEnd = Math.min(Math.floor(at), text.length);
  let k = lineStart;
  while (k < lineEnd && isSpace(text.charCodeAt(k))) k++;
  if (k < lineEnd && text.charCodeAt(k) === 0x3e) return true;
  // A fenced block shows its text: a code line (a YAML key `model:`, a prompt template's string),
  // or a block of prose shown verbatim (a bug report showing the ticket that fooled a bot).
  if (text.includes("```") || text.includes("~~~")) {
    const { code, quoted: shown } = fencedBlocks(text);
    if (inBlocks(code, at) || inBlocks(shown, at)) return true;
  }
  // Callers pass the middle of a match, which is a half for a match of odd length: counted from
  // there, every `text.charCodeAt(i)` would read no character and no quotation would be found.
  const end = Math.floor(at);
  const from = Math.max(lineStart, end - 300);
  const open: number[] = [];
  let stack: number[] = [];
  // Whether the code unit at `j` is a letter (`/\p{L}/u` on that one code unit: a lone surrogate
  // is none), by isLetter's table rather than a regex per apostrophe.
  const letterAt = (j: number) => j >= 0 && j < text.length && isLetter(text.charCodeAt(j));
  for (let i = from; i < end; i++) {
    const ch = text.charCodeAt(i);
    // Not `stack[-1]` on an empty stack: a negative index is a named property, looked up the
    // slow way on every character (most of the loop's time).
    const top = stack.length > 0 ? stack[stack.length - 1] : undefined;
    if (top !== undefined && CLOSE_OF[top] === ch && (ch !== APOSTROPHE || !letterAt(i + 1))) {
      stack.pop();
      open.pop();
    } else if (CLOSE_OF[ch] !== 0 && (ch !== APOSTROPHE || !letterAt(i - 1))) {
      stack.push(ch);
      open.push(i);
    }
    if (stack.length > 8) stack = stack.slice(-8);
  }
  const start = open[open.length - 1];
  if (start === undefined) return false;
  const before = text.slice(Math.max(0, start - 3), start).trimEnd();
  return !/[:,[{=(]$/.test(before);
}

/**
 * ANSI sequences that only set a foreground colour, bold, italic or underline, or reset them
 * (`ESC[31m`, `ESC[1;93m`, `ESC[38;5;208m`, `ESC[0m`): what a CI log or a pasted traceback carries.
 * They change no text a reader sees. Cursor moves, erasing, concealing (8), dim (2), reverse (7)
 * and background colours (which can match the text's colour) are not counted here.
 */
// eslint-disable-next-line no-control-regex -- ANSI escapes start with ESC: that is what this finds
const COLOUR_CODE = /\u001B\[((?:\d{1,3};?)*)m/gu;
const FOREGROUND = /^(?:0|1|3|4|2[2-4]|3[0-79]|9[0-7]|38;5;\d{1,3}|38;2;\d{1,3};\d{1,3};\d{1,3})$/u;

function countColourCodes(raw: string): number {
  let n = 0;
  for (const m of raw.matchAll(COLOUR_CODE)) {
    const params = m[1]!.replace(/;$/u, "");
    // Each ;-separated attribute (38;5;n and 38;2;r;g;b taken whole) must be a foreground one.
    const parts = params === "" ? [] : (params.match(/38;5;\d+|38;2;\d+;\d+;\d+|\d+/gu) ?? []);
    if (parts.every((p) => FOREGROUND.test(p))) n++;
  }
  return n;
}

/** `mayHold`: `mayHide(raw)`, when the caller has it (text.ts `hasHidden`). */
export function hiddenSignal(raw: string, mayHold?: boolean): Hit[] {
  // One pass for any hidden character: most results have none, and the five counts are five passes.
  if (!hasHidden(raw, mayHold)) return [];
  const c = countHidden(raw);
  const hits: Hit[] = [];
  if (c.tags > 0) {
    const spelled = decodeTags(raw);
    hits.push({
      signal: "hidden-characters",
      detail: `${c.tags} Unicode tag characters (invisible)${spelled ? ` spelling ${JSON.stringify(spelled.slice(0, 80))}` : ""}`,
      strength: 0.9,
      at: raw.search(/[\u{E0000}-\u{E007F}]/u),
    });
  }
  if (c.bidi > 0)
    hits.push({
      signal: "hidden-characters",
      detail: `${c.bidi} bidirectional control characters (what is shown differs from what is read)`,
      strength: 0.7,
      at: raw.search(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u),
    });
  if (c.ansi > 0) {
    const colourOnly = c.ansi === countColourCodes(raw);
    hits.push({
      signal: "hidden-characters",
      detail: colourOnly
        ? `${c.ansi} ANSI colour codes (a terminal log's foreground colours; they hide nothing)`
        : `${c.ansi} ANSI escape sequences (rewrite what a terminal shows)`,
      strength: colourOnly ? 0.2 : 0.7,
      at: raw.indexOf("\u001B"),
    });
  }
  // Zero-width characters are common in mail (preheader padding) and emoji (ZWJ): a reason, not a flag alone.
  if (c.zeroWidth > 0)
    hits.push({
      signal: "hidden-characters",
      detail: `${c.zeroWidth} zero-width characters`,
      strength: c.zeroWidth >= 3 && /\p{L}[\u200B\u200C\u2060\uFEFF]\p{L}/u.test(raw) ? 0.3 : 0.1,
      // eslint-disable-next-line no-misleading-character-class -- each invisible character is matched on its own, on purpose
      at: raw.search(/[\u200B\u200C\u200D\u2060-\u2064\uFEFF\u00AD\u180E]/u),
    });
  if (c.controls > 0)
    hits.push({
      signal: "hidden-characters",
      detail: `${c.controls} control characters`,
      strength: 0.2,
      // eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
      at: raw.search(/[\u0000-\u0008\u000B\u000C\u000E-\u001A\u001C-\u001F\u007F-\u009F]/u),
    });
  return hits;
}

const AI = String.raw`(?:ai|a\.i\.|assistant|ai agent|agent|chatbot|llm|language model|model|gpt|chatgpt|claude|gemini|copilot|ki|ki-assistent|ia|assistente|asistente|modèle|modelo|sprachmodell|modello)`;

/**
 * Phrases that speak to an AI. The third element says the phrase only *addresses* the reader as an
 * AI (a salutation, "your response must…"): text a server writes for the model on purpose (a tool's
 * description) does that by design. The others (drop your instructions, keep it from the user, you
 * are now…) have no business in any text.
 */
const ADDRESSED: [
  RegExp,
  string,
  boolean,
  (number | undefined)?,
  { test(text: string): boolean }?,
][] = [
  [
    new RegExp(
      String.raw`\b(?:if|when|whenever)\s+(?:you\s+are|you're|you\s+read\s+this\s+as)\s+(?:an?\s+)?(?:ai|llm|language model|assistant|agent|chatbot|bot|automated|model)`,
      "u",
    ),
    'speaks to the reader as an AI ("if you are an AI…")',
    true,
  ],
  [
    new RegExp(
      String.raw`(?:^|[\n.!?:]\s*|\b(?:dear|hey|hi|hello|attention|note to|message to|instructions? (?:for|to))\s+)(?:the\s+|an?\s+)?(?:ai\s+)?(?:${AI})(?:s)?\s*(?:,(?=\s)|:)`,
      "u",
    ),
    'a sentence addressed to an AI ("Assistant: …", "Dear AI, …")',
    true,
  ],
  [
    new RegExp(
      String.raw`\b(?:to|for)\s+(?:the|any|all)\s+(?:${AI})s?\s+(?:reading|processing|summari[sz]ing|handling|parsing)\b`,
      "u",
    ),
    "text for the AI that reads or summarises it",
    true,
  ],
  [
    /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+|the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|original|system)\s+(?:instructions?|prompts?|rules|directions|guidelines)/u,
    "tells the reader to drop its instructions",
    false,
  ],
  [
    /\b(?:in|to|at the end of|at the start of)\s+your\s+(?:response|reply|answer|output|summary|next message)\b|\byour\s+(?:response|reply|answer|output)\s+(?:must|should)\b/u,
    "instructs how the reader should write its reply",
    true,
  ],
  [
    /\b(?:do not|don't|never)\s+(?:tell|mention|inform|reveal\s+this\s+to|alert)\s+(?:the\s+)?user\b/u,
    "asks to keep something from the user",
    false,
  ],
  [
    /\byou\s+are\s+now\s+(?:in\s+)?(?:a|an|the|dan|developer mode|jailbroken)\b|\bnew\s+(?:system\s+)?instructions?\s*:/u,
    "claims to change who the reader is or what it was told",
    false,
  ],
  // The same beyond English (German, French, Spanish, Portuguese, Italian, Dutch, Japanese,
  // Chinese, Russian), with word boundaries that know every script: lib/detection/multilingual.ts.
  ...ADDRESSED_ELSEWHERE,
];

/**
 * The text as the patterns of ADDRESSED may read it: one-byte when its only characters beyond
 * U+00FF are ones they cannot tell from another (a dash, an arrow, a typographic quote:
 * lib/detection/one-byte.ts), where V8 runs them on code compiled for one-byte text.
 */
const ADDRESSED_ONE_BYTE = new OneByte(ADDRESSED.map(([re]) => re));

/** `forModel`: the text is written for the model on purpose (a tool's description); addressing it is no finding. */
export function addressedSignal(text: string, forModel = false, lower = text.toLowerCase()): Hit[] {
  const hits: Hit[] = [];
  // Lower-cased once (by the caller, for all the signals): case-insensitive Unicode regexes are
  // several times slower in V8.
  // A gate (a word its pattern cannot match without) is tested once per text, for all that share it.
  const gates = new Map<{ test(text: string): boolean }, boolean>();
  // The same matches at the same places; a match's text is cut from `lower`.
  let oneByte: string | undefined;
  for (const [re, detail, addressing, strength = 0.75, gate] of ADDRESSED) {
    if (forModel && addressing) continue;
    if (gate) {
      if (!gates.has(gate)) gates.set(gate, gate.test(lower));
      if (!gates.get(gate)) continue;
    }
    const found = re.exec((oneByte ??= ADDRESSED_ONE_BYTE.of(lower)));
    const m =
      found === null
        ? null
        : { index: found.index, 0: lower.slice(found.index, found.index + found[0].length) };
    // The same words found by the English pattern and its counterpart in multilingual.ts count once.
    if (!m || hits.some((h) => h.at === m.index)) continue;
    // Quoted, or introduced as an example ("Sätze wie: Ignoriere…", "the string Ignore previous…").
    const inQuote = quoted(text, m.index + m[0].length / 2) || mentioned(lower, m.index);
    // "Agent: Sorry to hear that!" in a support chat's transcript is a person speaking.
    const speaker = addressing && !inQuote && transcriptSpeaker(lower, m.index + m[0].length);
    hits.push({
      signal: "addressed-to-ai",
      detail: `${detail}${inQuote ? " (inside a quotation)" : speaker ? " (a speaker's label in a transcript)" : ""}: ${JSON.stringify(m[0].trim().slice(0, 80))}`,
      strength: inQuote ? strength / 5 : speaker ? Math.min(strength, 0.1) : strength,
      quoted: inQuote,
      at: m.index,
    });
  }
  return hits;
}

const ROLE: [RegExp, string, number][] = [
  [
    /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id)\|>|\[\/?INST\]|<<\/?SYS>>|<\/?(?:system|system_prompt|instructions?|important|admin)>/iu,
    "a chat-template token or role tag",
    0.8,
  ],
  [
    /^\s*(?:#{1,4}\s*)?(?:system|assistant|developer)\s*(?:prompt|message|instruction|override)?\s*:\s*(?=\S)(?=.{0,80}\b(?:you|ignore|must|always|never|from now)\b)/imu,
    "a line posing as a system or assistant message",
    0.6,
  ],
  [
    /^\s*(?:\[|\(|\{)\s*(?:system|admin|assistant)\s*(?:message|note|override)?\s*(?:\]|\)|\})/imu,
    "a bracketed role marker",
    0.5,
  ],
  [
    /\b(?:begin|end)\s+(?:system|admin)\s+(?:prompt|message|instructions?)\b|\bSYSTEM\s+(?:OVERRIDE|PROMPT|NOTICE)\b/u,
    "a fake system block",
    0.6,
  ],
  [/^\s*(?:human|user)\s*:.{0,400}\n\s*assistant\s*:/imu, "a made-up conversation turn", 0.6],
];

/** A pattern's alternatives at its top level (outside groups and classes), as source. */
export function topLevelAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/**
 * For a pattern whose every match opens a line (each alternative at its top level starts with `^`,
 * which with the m flag also holds after a line break, or with `(?:^|\n)`), a sticky copy: in a
 * text with no line break such a match can only start at 0, where the copy tries once what `exec`
 * would try first, instead of a scan of the whole text (a JSON result is one line). Null for any
 * other pattern.
 */
export function lineStartCopy(re: RegExp): RegExp | null {
  const opensLine = topLevelAlternatives(re.source).every(
    (alt) => alt.startsWith("^") || alt.startsWith(String.raw`(?:^|\n)`),
  );
  return opensLine ? new RegExp(re.source, `${re.flags.replace(/[gy]/gu, "")}y`) : null;
}
/** A line break as `^` with the m flag knows one. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Every role marker, with whether it is matched on lower-cased text: the markers beyond English
 * are (case-insensitive Unicode regexes are slow in V8), and its copy for a text of one line
 * (`lineStartCopy`). Built once, not per result.
 */
export const ROLE_ALL = [
  ...ROLE.map(([r, d, st]) => [r, d, st, false, lineStartCopy(r)] as const),
  ...ROLE_ELSEWHERE.map(([r, d, st]) => [r, d, st, true, lineStartCopy(r)] as const),
];

export function roleSignal(text: string, lower = text.toLowerCase()): Hit[] {
  const hits: Hit[] = [];
  // Lower-casing keeps line breaks where they are: one answer for both texts.
  const oneLine = !LINE_BREAK.test(text);
  for (const [re, detail, strength, folded, atStart] of ROLE_ALL) {
    const subject = folded ? lower : text;
    let m: RegExpExecArray | null;
    if (oneLine && atStart !== null) {
      atStart.lastIndex = 0;
      m = atStart.exec(subject);
    } else m = re.exec(subject);
    if (!m) continue;
    const inQuote = quoted(text, m.index + m[0].length / 2);
    hits.push({
      signal: "role-marker",
      detail: `${detail}${inQuote ? " (inside a quotation)" : ""}: ${JSON.stringify(m[0].trim().slice(0, 60))}`,
      strength: inQuote ? strength / 4 : strength,
      quoted: inQuote,
      at: m.index,
    });
  }
  return hits;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Call verbs beyond English ("rufe … auf", "utilise", "usa", "gebruik", "вызови", "调用"), then an
 * optional article: "Verwende das Werkzeug create_payment", "usa la herramienta transfer_funds".
 */
const CALL_ELSEWHERE = String.raw`(?<![\p{L}\p{N}_])(?:rufe|verwende|nutze|benutze|führe|starte|utilise|utilisez|appelle|appelez|exécute|exécutez|lance|lancez|usa|use|utiliza|utilice|llama|ejecuta|invoca|utilize|chame|execute|utilizza|chiama|esegui|gebruik|roep|voer|вызови|вызовите|используй|используйте|запусти|запустите|выполни|выполните)(?:\s+(?:das|den|die|dem|l'|le|la|el|o|a|lo|il|de|het)\b)?\s*|(?:调用|使用|执行|用)\s*`;
/** "Tool" in each language: "the tool send_email" names a call as plainly as "send_email(". */
const TOOL_WORD = String.raw`(?<![\p{L}\p{N}_])(?:tool|werkzeug|outil|l'outil|herramienta|ferramenta|strumento|инструмент|ツール|工具)`;

/** Compiled tool-name patterns, kept across calls (bounded: a gate holds a few hundred tools). */
const TOOL_PATTERNS = new Map<string, RegExp>();
const MAX_TOOL_PATTERNS = 2000;

/**
 * A tool the agent holds, named with arguments or a call verb. A tool name that is an ordinary
 * word (`search`) counts only beside a call verb and the word "tool", so a ticket saying "search"
 * is not a tool call.
 */
function toolPattern(tool: string): RegExp {
  let re = TOOL_PATTERNS.get(tool);
  if (re) return re;
  const plain = /^[a-z]+$/.test(tool);
  const name = escapeRe(tool);
  re = plain
    ? new RegExp(
        String.raw`(?:\b(?:call|use|run|invoke|execute)\s+(?:the\s+)?\x60?${name}\x60?\s+tool\b|${CALL_ELSEWHERE}\s+${TOOL_WORD}\s+\x60?${name}\b|\b${name}\x60?\s*(?:ツール|工具))`,
        "iu",
      )
    : new RegExp(
        String.raw`(?:\b(?:call|use|run|invoke|execute|trigger)\s+(?:the\s+)?\x60?${name}\b|\b${name}\x60?\s*(?:\(|\{|with\b|using\b|passing\b|to\s+(?:send|set|create|delete|add)|tool\b)|${CALL_ELSEWHERE}\s+(?:${TOOL_WORD}\s+)?\x60?${name}\b|${TOOL_WORD}\s+\x60?${name}\b|\b${name}\x60?\s*(?:ツール|工具))`,
        "iu",
      );
  if (TOOL_PATTERNS.size >= MAX_TOOL_PATTERNS) TOOL_PATTERNS.clear();
  TOOL_PATTERNS.set(tool, re);
  return re;
}

export function toolSignal(
  text: string,
  tools: readonly string[],
  lower = text.toLowerCase(),
): Hit[] {
  const hits: Hit[] = [];
  if (tools.length === 0) return hits;
  // Every pattern needs the tool's name in the text: one substring search rules most tools out
  // before any regex runs (a 10 kB result and three tools cost three `includes`).
  for (const tool of tools.slice(0, 500)) {
    if (tool.length < 3 || !lower.includes(tool.toLowerCase())) continue;
    const m = toolPattern(tool).exec(text);
    if (!m) continue;
    const inQuote = quoted(text, m.index) && !/\(|\{/.test(m[0]);
    hits.push({
      signal: "tool-call",
      detail: `names the agent's tool ${JSON.stringify(tool)} with a call: ${JSON.stringify(m[0].slice(0, 80))}`,
      strength: inQuote ? 0.3 : 0.7,
      quoted: inQuote,
      at: m.index,
    });
    if (hits.length >= 5) break;
  }
  return hits;
}

const LINK =
  /!?\[[^\]\n]{0,200}\]\(\s*<?(https?:\/\/[^\s)>]{1,2000})|<(?:img|a|iframe|script|link|source|video|audio)\b[^>]{0,400}?\b(?:src|href)\s*=\s*["']?(https?:\/\/[^\s"'>]{1,2000})/giu;

/**
 * Markdown or HTML links and images to a host the egress control does not admit. An image is
 * fetched by the client without a click, so its query string is a channel out; a link is one click.
 */
export function egressSignal(text: string, admit?: (host: string) => boolean): Hit[] {
  if (!admit) return [];
  const hits: Hit[] = [];
  LINK.lastIndex = 0;
  let n = 0;
  for (const m of text.matchAll(LINK)) {
    if (++n > 200) break;
    const url = m[1] ?? m[2] ?? "";
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      continue;
    }
    if (admit(host)) continue;
    const image =
      m[0].startsWith("!") || /^<(?:img|iframe|script|link|source|video|audio)/i.test(m[0]);
    const carries = /[?#].{8,}|\{|\$|%7B/i.test(url.slice(url.indexOf(host) + host.length));
    hits.push({
      signal: "egress-link",
      detail: `${image ? "an image or embed" : "a link"} to ${host}, which the egress control does not admit${carries ? ", with data in the URL" : ""}`,
      strength: image ? (carries ? 0.85 : 0.6) : carries ? 0.5 : 0.3,
      at: m.index,
    });
    if (hits.length >= 5) break;
  }
  return hits;
}

/**
 * ASCII characters by what they can be in an encoded run: bit 1 base64's alphabet
 * (`[A-Za-z0-9+/_-]`, the standard one and the URL-safe one), 2 an upper-case and 4 a lower-case
 * letter of it, 8 a hex run's (hex digits, `:` and white space). One table read per character
 * instead of a chain of comparisons.
 */
const ENCODED_ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9+/_-]/.test(ch)) ENCODED_ASCII[c]! |= 1;
  if (/[A-Z]/.test(ch)) ENCODED_ASCII[c]! |= 2;
  if (/[a-z]/.test(ch)) ENCODED_ASCII[c]! |= 4;
  if (/[0-9a-fA-F:\s]/.test(ch)) ENCODED_ASCII[c]! |= 8;
}

/** A code unit's kind for an encoded run (`ENCODED_ASCII`'s bits; beyond ASCII only white space, of a hex run). */
const encodedKind = (c: number) => (c < 128 ? ENCODED_ASCII[c]! : isSpace(c) ? 8 : 0);

/**
 * Whether the text has a maximal run of at least `least` code units of kind `bit`, holding both an
 * upper-case and a lower-case letter when `cases`. Such a run holds one of the positions
 * `least - 1`, `2 * least - 1`, …: only those are read first, and a run is measured from the one
 * it holds. After a run ending at `end` (a unit of another kind), the next run starts at
 * `end + 1` or later, so the next position read is `end + least`. Prose, whose words are shorter
 * than either bound, is read a fraction of a time instead of at every unit.
 */
function hasRun(text: string, bit: number, least: number, cases: boolean): boolean {
  const n = text.length;
  for (let p = least - 1; p < n;) {
    if ((encodedKind(text.charCodeAt(p)) & bit) === 0) {
      p += least;
      continue;
    }
    let start = p;
    while (start > 0 && (encodedKind(text.charCodeAt(start - 1)) & bit) !== 0) start--;
    let end = p + 1;
    while (end < n && (encodedKind(text.charCodeAt(end)) & bit) !== 0) end++;
    if (end - start >= least) {
      if (!cases) return true;
      let seen = 0;
      for (let k = start; k < end && seen !== 6; k++) seen |= encodedKind(text.charCodeAt(k)) & 6;
      if (seen === 6) return true;
    }
    p = end + least;
  }
  return false;
}

/**
 * Whether the text has a run that could give `encodedRuns` something. A base64 match is a whole
 * run of base64's alphabet (its lookarounds keep it from starting or ending inside one), 24
 * characters or more, and is decoded only when it has an upper-case and a lower-case letter: so
 * such a run must be there. A hex match is 32 or more hex digits with at most a space or a colon
 * between pairs: a run of 32 or more of hex digits, white space (`\s`) and colons. Prose has
 * neither (its words are shorter, a snake_case name has no capital), and each pattern scanned the
 * whole text to find nothing.
 */
export function mayHoldEncoded(text: string): { base64: boolean; hex: boolean } {
  return { base64: hasRun(text, 1, 24, true), hex: hasRun(text, 8, 32, false) };
}

/** Encoded runs worth decoding: base64 (24+ characters), hex (32+ digits). At most 8 of each. */
export function encodedRuns(
  text: string,
): { kind: "base64" | "hex"; decoded: string; at: number }[] {
  const out: { kind: "base64" | "hex"; decoded: string; at: number }[] = [];
  const may = mayHoldEncoded(text);
  let n = 0;
  if (may.base64)
    for (const m of text.matchAll(
      /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,8192}={0,2}(?![A-Za-z0-9+/=_-])/g,
    )) {
      if (n++ >= 8) break;
      const run = m[0];
      if (/^[0-9a-fA-F]+$/.test(run)) continue; // hex below
      if (!/[A-Z]/.test(run) || !/[a-z]/.test(run)) continue; // an identifier, not base64
      const decoded = Buffer.from(run.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString(
        "utf8",
      );
      if (printable(decoded)) out.push({ kind: "base64", decoded, at: m.index });
    }
  n = 0;
  if (may.hex)
    for (const m of text.matchAll(
      /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[\s:]?){16,4096}(?![0-9a-fA-F])/g,
    )) {
      if (n++ >= 8) break;
      const digits = m[0].replace(/[\s:]/g, "");
      const decoded = Buffer.from(digits.length % 2 ? digits.slice(0, -1) : digits, "hex").toString(
        "utf8",
      );
      if (printable(decoded)) out.push({ kind: "hex", decoded, at: m.index });
    }
  return out;
}

/** Mostly letters and spaces: decoded text, not a hash or an image. */
function printable(s: string): boolean {
  if (s.length < 12 || s.includes("\uFFFD")) return false;
  const letters = (s.match(/[\p{L}\s]/gu) ?? []).length;
  return letters / s.length > 0.8 && /\s/.test(s);
}

/**
 * Verbs that ask for an assistant's kind of work (analyse, summarise, recommend, translate…), in
 * English, German, French, Spanish, Portuguese, Italian and Dutch. Not the verbs mail and tickets
 * use on their reader ("click", "reply", "create an account", "follow us"): those are for people.
 */
const TASK_VERBS = new Set(
  (
    "analyze analyse summarize summarise recommend suggest describe explain translate write compose " +
    "draft generate outline compare evaluate assess calculate classify determine identify predict " +
    "brainstorm list provide research investigate estimate propose " +
    "analysiere fasse empfiehl beschreibe erkläre übersetze schreibe verfasse vergleiche bewerte " +
    "berechne nenne liste schlage " +
    "analyse analysez résume résumez recommande recommandez décris décrivez explique expliquez " +
    "traduis traduisez écris écrivez rédige rédigez compare comparez calcule calculez propose proposez " +
    "analiza resume resuma recomienda recomiende describe explica traduce escribe redacta compara " +
    "calcula sugiere enumera " +
    "analise recomende descreva explique traduza escreva compare calcule sugira liste " +
    "analizza riassumi raccomanda consiglia descrivi spiega traduci scrivi confronta calcola suggerisci elenca " +
    "analyseer vat beveel beschrijf leg vertaal schrijf vergelijk bereken noem"
  ).split(/\s+/),
);
/** Openings of a request to whoever reads the text ("can you…", "help me…"). */
const REQUEST_OPEN =
  /^(?:(?:please|kindly|bitte|svp|por favor|per favore)\s+)?(?:(?:can|could|would|will)\s+you|help\s+me|show\s+me|tell\s+me|give\s+me|find\s+me|kannst\s+du|können\s+sie|pouvez-vous|peux-tu|puedes|podrías|você\s+pode|puoi|potresti)\b/u;
/** A question that asks for knowledge rather than about the text ("what are…", "how does…"). */
const QUESTION_OPEN =
  /^(?:what|how|why|which|who|is|are|does|do|was|wie|was|warum|welche|quel|quelle|quels|quelles|comment|pourquoi|qué|que|cómo|como|cuál|cuáles|por qué|o que|quais|qual|cosa|come|perché|quali|wat|hoe|waarom)\b/u;
/** The writer and the reader as people: "we", "our", "you": a mail or a ticket talking to its reader. */
const PEOPLE =
  /\b(?:we|our|us|you|your|yours|wir|unser|unsere|nous|notre|nos|vous|votre|nosotros|nuestro|nuestra|nós|nosso|nossa|noi|nostro|nostra|wij|ons|onze)\b/u;
const CONTENT_WORD = /\p{L}{4,}/gu;
const STOP = new Set(
  (
    "that this with from have what which when where there their about would could should these those " +
    "your they them then than into over also just more most some such only very been were will does " +
    "like make made much many other each every here dass eine einer einen nicht oder sind auch wenn " +
    "dans pour avec sont plus mais nous vous leur cette para como pero más esta este todo sobre " +
    "mais isso essa esse pela pelo sono della delle degli anche come questo questa voor door maar deze"
  ).split(" "),
);
/** A content word without a plural ending, cut to six letters: "trails"/"trail", "analyse"/"analysis" meet. */
const stem = (w: string) => w.replace(/(?:es|s)$/u, "").slice(0, 6);
/** A numbered or bulleted list item. */
const ITEM = /^\s*(?:\d{1,3}[.)]|[-*•])\s/u;

/**
 * A request for an assistant's kind of work that has nothing to do with the text around it: a
 * line that opens with a task verb ("Analyze the trend of…"), a request to the reader ("Can you…",
 * "Help me…") or a knowledge question ("What are the major risks of…?"), shares no content word
 * with the rest of the text, and does not speak to people ("we", "our", "you"). This is how a
 * payload reads when it asks for something other than what the text is about (BIPIA's attacks in a
 * mail): the reader's assistant is the only one it could be meant for. A ticket that asks support
 * a question about its own subject shares its words, so it does not fire; neither does a short text
 * (fewer than 15 to 25 content words around the line), where nothing shows what the text is about.
 */
export function offTopicRequestSignal(text: string, lower = text.toLowerCase()): Hit[] {
  const lines: { s: string; at: number }[] = [];
  let at = 0;
  for (const line of lower.split("\n")) {
    if (lines.length >= 2000) break;
    lines.push({ s: line, at });
    at += line.length + 1;
  }
  // The document's words are counted only once a line looks like a request (most texts have none).
  let doc: Map<string, number> | null = null;
  let total = 0;
  const countDocument = () => {
    const counts = new Map<string, number>();
    for (const m of lower.matchAll(CONTENT_WORD)) {
      if (STOP.has(m[0])) continue;
      const k = stem(m[0]);
      counts.set(k, (counts.get(k) ?? 0) + 1);
      total++;
    }
    return counts;
  };
  for (let i = 0; i < lines.length; i++) {
    const { s, at: lineAt } = lines[i]!;
    // A step among steps (a runbook, a checklist) is an instruction to people, whatever it asks.
    if (ITEM.test(s) && (ITEM.test(lines[i - 1]?.s ?? "") || ITEM.test(lines[i + 1]?.s ?? "")))
      continue;
    const line = s.trim().replace(/^[-*•>#\d.)\s]+/u, "");
    // A table row or a record is not a sentence anyone asks.
    if (line.length < 15 || line.length > 300 || /\|.*\|/u.test(line)) continue;
    const words = line.match(/[\p{L}'’-]+/gu) ?? [];
    if (words.length < 4 || words.length > 40) continue;
    const first = words[0] === "please" || words[0] === "bitte" ? words[1] : words[0];
    const task =
      (first !== undefined && TASK_VERBS.has(first) && !/^\S+\s+(?:of|from|to)\b/u.test(line)) ||
      REQUEST_OPEN.test(line);
    const question = !task && QUESTION_OPEN.test(line) && line.includes("?");
    if (!task && !question) continue;
    // "Can you…" is a request to the reader even with "you"; any other "we/our/you" is people talking.
    if (PEOPLE.test(line.replace(REQUEST_OPEN, ""))) continue;
    doc ??= countDocument();
    const own = new Map<string, number>();
    for (const m of line.matchAll(CONTENT_WORD)) {
      if (STOP.has(m[0])) continue;
      const k = stem(m[0]);
      own.set(k, (own.get(k) ?? 0) + 1);
    }
    let ownTotal = 0;
    let shared = 0;
    for (const [k, n] of own) {
      ownTotal += n;
      if ((doc.get(k) ?? 0) > n) shared++;
    }
    // No word shared, or one in a long request: a word like "weekend" or "sales" can sit anywhere in a mail.
    // Enough text around to say what it is about: a bare task verb needs 15 content words around it;
    // a question or "can you…" 25, since people ask each other those in a short chat.
    if (own.size < 2 || total - ownTotal < (task && !REQUEST_OPEN.test(line) ? 15 : 25)) continue;
    if (shared > 1 || (shared === 1 && own.size < 6)) continue;
    return [
      {
        signal: "addressed-to-ai",
        detail: `a request for an assistant's work that shares no word with the text around it: ${JSON.stringify(
          text
            .slice(lineAt, lineAt + s.length)
            .trim()
            .slice(0, 100),
        )}`,
        strength: 0.55,
        at: lineAt,
      },
    ];
  }
  return [];
}
