/**
 * Features of one window of text for the trained model: hashed word unigrams and bigrams, hashed
 * character 4-grams inside words (spelling variants and other languages), and "cue" features that
 * name what a payload does rather than how a benchmark phrased it: speaking to an AI, an imperative
 * at the start, asking for a reply or an action, money, credentials, addresses to send things to.
 * The cues are what lets the model carry over to tickets, wiki pages and chat it never saw.
 */
import { isSpace } from "./space";

export const HASH_BITS = 17;
export const DIM = 1 << HASH_BITS;

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over UTF-16 code units, continued from state `h` (streaming: no string is built per n-gram). */
function fnv(h: number, s: string, start = 0, end = s.length): number {
  for (let i = start; i < end; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** The feature bucket of a string: FNV-1a, stable across platforms, no dependency. */
export function hash(s: string): number {
  return (fnv(FNV_OFFSET, s) >>> 0) & (DIM - 1);
}

const bucket = (h: number) => (h >>> 0) & (DIM - 1);
const W = fnv(FNV_OFFSET, "w:");
const B = fnv(FNV_OFFSET, "b:");
const C = fnv(FNV_OFFSET, "c:");
const SPACE = 0x20;
const step = (h: number, code: number) => Math.imul(h ^ code, 0x01000193);

/** Words a window needs before the model scores it: a payload asks for something in a sentence, a table cell does not. */
export const MIN_WORDS = 3;

/**
 * A leading "Label:" (a mail header, a form field, a speaker) is not the sentence's first word. Its
 * colon is the text's first (nothing before it can be one), after the leading white space and at
 * most 24 characters: a text whose first colon is further on is not tried.
 */
const LABEL = /^\s*[\p{L}_][\p{L}_ .-]{0,23}:\s+/u;
const LEADING_SPACE = /^\s*/u;

// Imperatives a payload opens with, in English, German, French, Spanish, Portuguese and Italian.
export const IMPERATIVE = new Set(
  (
    "send forward email mail transfer pay wire grant give share post upload download delete remove " +
    "erase unlock open disable enable turn change update reset set add create make write generate " +
    "compose draft reply respond answer tell say include insert append output print show display " +
    "list find search retrieve get fetch read access export copy move run execute call invoke use " +
    "install schedule book order buy purchase cancel approve invite follow sign click visit navigate " +
    "summarize translate explain describe recommend suggest provide ignore disregard forget stop " +
    "start encrypt encode decode convert reverse rewrite replace ensure incorporate integrate embed " +
    "please kindly never instead " +
    "sende schicke leite überweise zahle gib teile lösche entferne öffne ändere erstelle schreibe " +
    "antworte ignoriere vergiss führe rufe füge bitte " +
    "envoie envoyez transfère transférez partage partagez supprime supprimez ouvre ouvrez ignore " +
    "ignorez oublie oubliez écris écrivez réponds répondez exécute exécutez ajoute ajoutez " +
    "envía envia reenvía transfiere comparte borra elimina abre ignora olvida escribe responde " +
    "ejecuta añade agrega por " +
    "envie encaminhe transfira compartilhe apague exclua abra esqueça escreva responda execute " +
    "invia inoltra trasferisci condividi cancella elimina apri ignora dimentica scrivi rispondi esegui"
  ).split(/\s+/),
);

/**
 * When a cue's regex is worth running: when one of its words is among the window's words, or one of
 * its substrings is in the text (most windows skip most cues), or always (null).
 */
type Gate = { words?: Set<string>; parts?: string[] } | null;
const w = (list: string): Gate => ({ words: new Set(list.split(" ")), parts: undefined });
const c = (...parts: string[]): Gate => ({ words: undefined, parts });

/** The cues: a name, the pattern (run on the window lower-cased) and its gate. */
export const CUES: [string, RegExp, Gate][] = [
  [
    "ai",
    /\b(?:ai|a\.i\.|assistant|agent|chatbot|bot|llm|language model|model|gpt|chatgpt|claude|gemini|copilot|ki|ia|assistente|asistente|assistenten|modèle|modelo|modell)\b/u,
    w(
      "ai a assistant agent chatbot bot llm language model gpt chatgpt claude gemini copilot ki ia assistente asistente assistenten modèle modelo modell",
    ),
  ],
  [
    "you",
    /\b(?:you|your|yours|du|dich|dir|dein|deine|sie|ihr|vous|votre|tu|ton|ta|tes|usted|su|você|seu|sua)\b/u,
    w(
      "you your yours du dich dir dein deine sie ihr vous votre tu ton ta tes usted su você seu sua",
    ),
  ],
  [
    "my",
    /\b(?:my|mine|me|mein|meine|mon|ma|mes|mi|mis|meu|minha|mio|mia)\b/u,
    w("my mine me mein meine mon ma mes mi mis meu minha mio mia"),
  ],
  [
    "please",
    /\b(?:please|kindly|bitte|s'il vous plaît|svp|por favor|per favore)\b/u,
    w("please kindly bitte s'il svp por per"),
  ],
  [
    "response",
    /\b(?:your (?:response|reply|answer|output|summary)|in (?:your|the) (?:response|reply|answer))\b/u,
    w("your in"),
  ],
  [
    "override",
    // Not the writer's own earlier message ("please ignore my previous email"): that withdraws a
    // mail, it does not override the reader's instructions.
    /\b(?:ignore|disregard|forget|override|bypass)\b(?!\s+(?:my|our)\s+(?:\w+\s+)?(?:e-?mail|message|mail|note|reply|comment|post|request|ticket|invoice|attachment)s?\b).{0,40}\b(?:instruction|instructions|prompt|rules|guidelines|above|previous|prior)\b/u,
    w("ignore disregard forget override bypass"),
  ],
  [
    "instead",
    /\b(?:instead|immediately|right now|without (?:asking|telling|confirm\w*)|do not (?:tell|mention|inform)|don't (?:tell|mention))\b/u,
    w("instead immediately right without do don't"),
  ],
  [
    "cred",
    /\b(?:password|passcode|api[ _-]?key|token|secret|credential|credentials|ssh|private key|2fa|otp|pin|cvv|card number|account number|routing number|ssn|social security)\b/u,
    w(
      "password passcode api token secret credential credentials ssh private 2fa otp pin cvv card account routing ssn social",
    ),
  ],
  [
    "exfil",
    /\b(?:send|forward|email|e-mail|upload|post|transfer|share|leak|exfiltrate|copy)\b.{0,60}\b(?:to|at|with)\b/u,
    w("send forward email e upload post transfer share leak exfiltrate copy"),
  ],
  ["addr", /[\w.+-]+@[\w-]+\.[\w.-]+/u, c("@")],
  ["url", /\bhttps?:\/\/|\bwww\./u, c("http", "www.")],
  [
    "money",
    /(?:[$€£]\s?\d|\d\s?(?:usd|eur|dollars|euros|btc|bitcoin))/u,
    c("$", "€", "£", "usd", "eur", "dollar", "btc", "bitcoin"),
  ],
  [
    "access",
    /\b(?:grant|give|add)\b.{0,40}\b(?:access|permission|admin|owner|guest|role)\b/u,
    w("grant give add"),
  ],
  [
    "destroy",
    /\b(?:delete|erase|wipe|remove|drop|destroy|disable|turn off|shut down|unlock)\b/u,
    w("delete erase wipe remove drop destroy disable turn shut unlock"),
  ],
  ["question", /\?\s*$/u, c("?")],
  // A particular thing named: a number, a time, an id or a quoted value ("with id 'spk12'", "at 3
  // AM", "account 555-0100"). Paired with an imperative it is an order about someone's particular
  // thing; a reference's imperative speaks of a kind of thing ("Delete a file by its ID").
  // Without the u flag: every character here is in the BMP, and V8 scans such a regex faster.
  ["particular", /\d|['"‘“][^'"’”\s]{1,40}['"’”](?:[\s.,;:)]|$)/, null],
  // A sender speaking of itself ("reply to this email", "contact us"): service mail, not a payload.
  [
    "sender",
    /\b(?:this (?:email|message|mail|link|page|receipt|notification)|contact us|our (?:team|app|website|site|blog|store|terms|privacy)|us at)\b/u,
    w("this contact our us"),
  ],
  [
    "code",
    /[;{}=]\s*$|^\s*(?:import|from|def|class|return|if|for|while|const|let|var|function)\b/u,
    null,
  ],
];

const MAX_TOKENS = 120;
/** 4-grams of a word at most (`hashesOf`: none past 22 letters). */
const MAX_GRAMS = 21;

/**
 * What a pair's cue says given its two segments' (`${a} ${b}`, joined by one space; features.ts
 * `preparePair`), so that a pair of neighbours is not searched again for a cue either segment has
 * settled:
 * - "either": found in the pair exactly when found in a or in b. No match of these can hold a
 *   space (their words have none; the quoted value's closing `[\s.,;:)]|$` takes the joining space
 *   only where `$` took a's end), none looks beyond its match but `\b`, and `\b` reads the space
 *   as it reads the end or the start of the text.
 * - "grows": found in the pair when found in a or in b (a match in a part is one in the pair, for
 *   the same reasons); when found in neither, a match across the join ("language" + "model", "send
 *   … to") is still searched for.
 * - "last": anchored at the end of the text (`\?\s*$`): the pair's end is b's, b having words.
 * - null: searched for in the pair ("override" looks ahead past its verb, into b; "code" is
 *   anchored at both ends).
 */
type CueJoin = "either" | "grows" | "last" | null;
export const CUE_JOIN: Record<string, CueJoin> = {
  ai: "grows",
  you: "either",
  my: "either",
  please: "grows",
  response: "grows",
  override: null,
  instead: "grows",
  cred: "grows",
  exfil: "grows",
  addr: "either",
  url: "either",
  money: "grows",
  access: "grows",
  destroy: "grows",
  question: "last",
  particular: "either",
  sender: "grows",
  code: null,
};
/**
 * The strings a cue's pattern matches, for `joinTails`: its source read as a finite language, white
 * space written as one space (the joining space is one). Enough of the syntax for the cues: literal
 * characters and escapes, classes, `\d` as its ten digits, `\b` (no width), groups, alternation,
 * `?`, and a repeat of a class with no white space in it (`\w*`) as the mark `\u0000` (a word's
 * rest, never before a space here). A class or a dot that matches white space among other
 * characters (`.`, `\W`) makes the language "any": a match may hold a space anywhere. Anything
 * else throws, so a cue written otherwise is looked at rather than judged wrongly.
 */
export function cueLanguage(source: string): string[] | "any" {
  let at = 0;
  let any = false;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${at} in /${source}/`);
  };
  const cross = (a: string[], b: string[]) => a.flatMap((x) => b.map((y) => x + y));
  const SPACE = [" "];
  const DIGITS = [..."0123456789"];
  // One character class's strings: white space as one space; the mark for "other characters".
  const klass = (): string[] => {
    at++; // [
    if (source[at] === "^") fail("a negated class");
    const out = new Set<string>();
    while (source[at] !== "]") {
      if (at >= source.length) fail("an open class");
      let ch = source[at]!;
      if (ch === "\\") {
        ch = source[++at]!;
        if (ch === "s") out.add(" ");
        else if (ch === "d") DIGITS.forEach((d) => out.add(d));
        else if (ch === "w") out.add("\u0000");
        else out.add(ch);
      } else if (source[at + 1] === "-" && source[at + 2] !== "]") fail("a range");
      else out.add(ch);
      at++;
    }
    at++; // ]
    return [...out];
  };
  const atom = (): string[] => {
    const ch = source[at]!;
    if (ch === "(") {
      at++;
      if (source[at] === "?") {
        if (source[at + 1] !== ":") fail("a lookaround");
        at += 2;
      }
      const inner = alternation();
      if (source[at] !== ")") fail("an open group");
      at++;
      return inner;
    }
    if (ch === "[") return klass();
    if (ch === ".") {
      any = true;
      at++;
      return ["\u0000"];
    }
    if (ch === "^" || ch === "$") fail("an anchor");
    if (ch === "\\") {
      const e = source[at + 1]!;
      at += 2;
      if (e === "b") return [""];
      if (e === "s") return SPACE;
      if (e === "d") return DIGITS;
      if (e === "w") return ["\u0000"];
      if (/[A-Za-z0-9]/u.test(e)) fail(`the escape \\${e}`);
      return [e];
    }
    at++;
    return [ch];
  };
  const quantified = (): string[] => {
    const strings = atom();
    const q = source[at];
    if (q === "?") {
      at++;
      return ["", ...strings];
    }
    if (q === "*" || q === "+" || q === "{") {
      const m = /^(?:\*|\+|\{(\d+),(\d*)\})\??/u.exec(source.slice(at))!;
      at += m[0].length;
      // A repeat of what holds no white space is one run of other characters ("\w*", "\w+").
      if (strings.some((x) => x.includes(" "))) {
        any = true;
        return ["\u0000"];
      }
      return q === "*" || m[1] === "0" ? ["", "\u0000"] : ["\u0000"];
    }
    return strings;
  };
  const sequence = (): string[] => {
    let out = [""];
    while (at < source.length && source[at] !== "|" && source[at] !== ")")
      out = cross(out, quantified());
    return out;
  };
  const alternation = (): string[] => {
    const out = sequence();
    while (source[at] === "|") {
      at++;
      out.push(...sequence());
    }
    return out;
  };
  const language = alternation();
  if (at !== source.length) fail("an unmatched )");
  return any ? "any" : [...new Set(language)];
}

/**
 * For a "grows" cue, how the first segment must end for a match to hold the joining space: the
 * word before each space inside one of its phrases ("language" of "language model", "in"/"your"/
 * "the" of "in your response", a currency sign or a digit before a money amount's `\s?`), found
 * from the cue's own pattern (`cueLanguage`), so a phrase added to a cue brings its word here. A
 * segment ending otherwise leaves no match across the join, so a pair whose two segments were
 * searched (both gates open) and lack the cue lacks it too. Undefined: no such word bounds it (a
 * match may hold any character, `.{0,60}`: "exfil", "access"), and the pair is searched.
 */
export function joinTails(name: string, re: RegExp): string[] | undefined {
  const language = cueLanguage(re.source);
  if (language === "any") return undefined;
  const tails = new Set<string>();
  for (const phrase of language)
    for (let j = phrase.indexOf(" "); j >= 0; j = phrase.indexOf(" ", j + 1)) {
      const before = phrase.slice(0, j);
      const tail = before.slice(before.lastIndexOf(" ") + 1);
      // A match opening with white space, or a word of any letters before one, bounds nothing.
      if (tail === "" || tail.includes("\u0000"))
        throw new Error(
          `cue ${name}: no word before a space in its pattern bounds a match across a join`,
        );
      tails.add(tail);
    }
  return [...tails];
}
const TAILS = CUES.map(([name, re]) =>
  CUE_JOIN[name] === "grows" ? joinTails(name, re) : undefined,
);

/** `\w` (ASCII letters, digits and `_`: what `\b` reads without the i flag, with or without u). */
const isAsciiWordUnit = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;

/**
 * A cue of the shape `\b(?:VERBS)\b.{0,N}\b(?:OBJECTS)\b` ("exfil": "send … to", "access": "grant
 * … access") without the regex's backtracking, which tried every length of `.{0,N}` after every
 * verb and the verbs at every position of the window. The same answer: the first object word
 * starting at or after a verb's end is the one a match can end with if any can (a shorter run of
 * `.` crosses no line break the longer one does not), and `.` with the u flag takes a surrogate
 * pair as one character and no line terminator. Undefined for a pattern of another shape.
 */
export function verbThenObject(re: RegExp): ((text: string) => boolean) | undefined {
  const shape = /^\\b\(\?:([a-z|-]+)\)\\b\.\{0,(\d+)\}\\b\(\?:([a-z|-]+)\)\\b$/u.exec(re.source);
  if (shape === null || re.flags !== "u") return undefined;
  // Without the u flag: the words are ASCII and `\b` reads ASCII word characters either way.
  const verbs = new RegExp(String.raw`\b(?:${shape[1]!})\b`, "g");
  const objects = new RegExp(String.raw`\b(?:${shape[3]!})\b`, "g");
  const most = Number(shape[2]);
  /** Whether `.{0,most}` matches text[from, to) whole (u flag: a surrogate pair is one character). */
  const spans = (text: string, from: number, to: number) => {
    if (to - from > 2 * most) return false;
    for (let k = from, n = 0; k < to; n++) {
      if (n >= most) return false;
      const c = text.charCodeAt(k);
      if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return false;
      const next = k + 1 < to ? text.charCodeAt(k + 1) : 0;
      k += c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    }
    return true;
  };
  return (text) => {
    verbs.lastIndex = 0;
    // The first object starting at or after `after` (-1: none there).
    let object = -1;
    let after = Infinity;
    for (let v = verbs.exec(text); v !== null; v = verbs.exec(text)) {
      const end = v.index + v[0].length;
      // Every verb, even one starting inside another's match ("e-mail" holds no verb, but a word
      // added to the list might).
      verbs.lastIndex = v.index + 1;
      if (object < end || end < after) {
        objects.lastIndex = end;
        const o = objects.exec(text);
        if (o === null) return false;
        object = o.index;
        after = end;
      }
      if (spans(text, end, object)) return true;
    }
    return false;
  };
}

/**
 * The "code" cue, `[;{}=]\s*$|^\s*(?:KEYWORDS)\b` (no m flag: the text's own ends), without a regex
 * run on every window: the last character before trailing white space is one of the marks, or the
 * first word after leading white space is a keyword followed by no word character. Undefined for
 * a pattern of another shape.
 */
export function codeEnds(re: RegExp): ((text: string) => boolean) | undefined {
  const shape = /^\[([^\]\\^-]+)\]\\s\*\$\|\^\\s\*\(\?:([a-z|]+)\)\\b$/u.exec(re.source);
  if (shape === null || re.flags !== "u") return undefined;
  if ([...shape[1]!].some((ch) => ch.charCodeAt(0) >= 0x80)) return undefined;
  const marks = new Uint8Array(128);
  for (const ch of shape[1]!) marks[ch.charCodeAt(0)] = 1;
  // The keywords by their first character (ASCII: the shape admits only a-z).
  const byFirst: (string[] | undefined)[] = [];
  for (const k of shape[2]!.split("|")) (byFirst[k.charCodeAt(0)] ??= []).push(k);
  return (text) => {
    let end = text.length;
    while (end > 0 && isSpace(text.charCodeAt(end - 1))) end--;
    // White space alone: no mark, no keyword.
    if (end === 0) return false;
    const last = text.charCodeAt(end - 1);
    if (last < 0x80 && marks[last] === 1) return true;
    // Stops before `end`: the character there is not white space.
    let start = 0;
    while (isSpace(text.charCodeAt(start))) start++;
    const keywords = byFirst[text.charCodeAt(start)];
    if (keywords === undefined) return false;
    for (const k of keywords)
      if (text.startsWith(k, start) && !isAsciiWordUnit(text.charCodeAt(start + k.length)))
        return true;
    return false;
  };
}

/** `[\w.+-]`, `[\w-]` and `[\w.-]` (ASCII `\w`), by code unit: bits 1, 2 and 4. */
const ADDR_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const w = isAsciiWordUnit(c);
  const ch = String.fromCharCode(c);
  ADDR_CLASS[c] =
    (w || ".+-".includes(ch) ? 1 : 0) |
    (w || ch === "-" ? 2 : 0) |
    (w || ".-".includes(ch) ? 4 : 0);
}
const addrClass = (c: number) => (c < 0x80 ? ADDR_CLASS[c]! : 0);

/**
 * The "addr" cue, `[\w.+-]+@[\w-]+\.[\w.-]+`, from each "@" rather than from every word
 * character (the regex read a word's whole run for an "@" at each of its letters): a character of
 * the first class before the "@", then a run of `[\w-]` (it holds no "."), a "." right after that
 * run, and a character of the last class. Undefined for another pattern.
 */
export function addressAt(re: RegExp): ((text: string) => boolean) | undefined {
  if (re.source !== String.raw`[\w.+-]+@[\w-]+\.[\w.-]+` || re.flags !== "u") return undefined;
  return (text) => {
    for (let at = text.indexOf("@"); at >= 0; at = text.indexOf("@", at + 1)) {
      if (at === 0 || (addrClass(text.charCodeAt(at - 1)) & 1) === 0) continue;
      let k = at + 1;
      while (k < text.length && (addrClass(text.charCodeAt(k)) & 2) !== 0) k++;
      if (
        k > at + 1 &&
        text.charCodeAt(k) === 0x2e &&
        (addrClass(text.charCodeAt(k + 1)) & 4) !== 0
      )
        return true;
    }
    return false;
  };
}

/** Each cue's test: its pattern's, or a fast path proven to answer the same (features.test.ts). */
const CUE_TEST = CUES.map(([name, re]) => {
  const fast =
    name === "code" ? codeEnds(re) : name === "addr" ? addressAt(re) : verbThenObject(re);
  // Each named here is expected to have its fast path: a pattern edited out of its shape throws.
  if (fast === undefined && ["code", "addr", "exfil", "access"].includes(name))
    throw new Error(`cue ${name}: not of the shape its fast path reads`);
  return fast ?? ((text: string) => re.test(text));
});
const CUE_GATE = CUES.map(([, , gate]) => gate);

const JOIN = CUES.map(([name]) => {
  if (!(name in CUE_JOIN)) throw new Error(`cue ${name} has no CUE_JOIN entry`);
  return CUE_JOIN[name]!;
});
// A gate's substrings must hold no white space: then one is in the pair exactly when it is in a
// part, and the pair's gates are its parts' together.
for (const [name, , gate] of CUES)
  if (gate?.parts?.some((p) => /\s/u.test(p)))
    throw new Error(`cue ${name}: a gate part has a space`);

/** A phrase with a character a plain window lacks: beyond ASCII, an apostrophe, an underscore (not `\u0000`, cueLanguage's mark for a word's rest). */
const lacksInPlain = (phrase: string) =>
  [...phrase].some((ch) => ch > "\u007f" || ch === "'" || ch === "_");

/**
 * Cues answered from a window's words, without their regex, when the window is plain: every code
 * unit ASCII, no apostrophe and no underscore, and every word of it read (`PreparedWindow.read`).
 * There the words (`words`: runs of letters and digits) are exactly the runs of `\w`, so for a cue
 * written `\b(?:…)\b`, read as its phrases (`cueLanguage`):
 * - `sure`: a phrase that is one word. The window holds it as a word: the cue matches there.
 * - `ends`: each phrase's last run of letters and digits, which ends the phrase. A match ends
 *   with one as a whole word, so a window holding none of them as a word has no match. Null when
 *   a phrase ends otherwise ("a.i.", `confirm\w*`). Phrases with a character a plain window lacks
 *   (beyond ASCII, an apostrophe, an underscore) cannot match there and are left out of both.
 * Undefined for a cue of another shape. (features.test.ts holds each answer to the regex's.)
 */
export function cueWordsDecide(
  re: RegExp,
): { sure: Set<string>; ends: Set<string> | null } | undefined {
  const source = re.source;
  if (
    re.flags !== "u" ||
    !source.startsWith(String.raw`\b(?:`) ||
    !source.endsWith(String.raw`)\b`)
  )
    return undefined;
  // The group opened after the first `\b` must be the one closed before the last.
  let depth = 0;
  for (let i = 2; i < source.length - 2; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (c === "[") while (source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0 && i !== source.length - 3) return undefined;
  }
  const language = cueLanguage(source);
  if (language === "any") return undefined;
  const sure = new Set<string>();
  let ends: Set<string> | null = new Set<string>();
  for (const phrase of language) {
    if (lacksInPlain(phrase)) continue;
    if (/^[a-z0-9]+$/u.test(phrase)) sure.add(phrase);
    const last = /[a-z0-9]+$/u.exec(phrase);
    if (last === null || phrase.includes("\u0000")) ends = null;
    else ends?.add(last[0]);
  }
  return { sure, ends };
}
const CUE_DECIDE = CUES.map(([, re]) => cueWordsDecide(re));
/** Bit i: the word is one of cue i's `sure` words; of its `ends` words. */
const CUE_SURE_WORDS = new Map<string, number>();
const CUE_END_WORDS = new Map<string, number>();
/** Bit i: cue i is answered from the words of a plain window when none of its `ends` is there. */
let CUE_ENDS_KNOWN = 0;
CUE_DECIDE.forEach((decide, i) => {
  if (decide === undefined) return;
  for (const w of decide.sure) CUE_SURE_WORDS.set(w, (CUE_SURE_WORDS.get(w) ?? 0) | (1 << i));
  if (decide.ends === null) return;
  CUE_ENDS_KNOWN |= 1 << i;
  for (const w of decide.ends) CUE_END_WORDS.set(w, (CUE_END_WORDS.get(w) ?? 0) | (1 << i));
});

/**
 * A window's cues as `emitPrepared` found them, for a pair that opens or ends with it. Bit i of
 * `known`: cue i was looked for (not when skipped for text written for the model); of `open`: its
 * gate let the regex run; of `present`: it was found.
 */
type CueBits = { known: number; open: number; present: number };

/** Letters and digits beyond ASCII, by UTF-16 code unit: 0 not looked up yet, 1 a word character, 2 not. */
const WORD_CHAR_BMP = new Uint8Array(0x10000);
const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/** Whether a code point is a letter or a digit (`[\p{L}\p{N}]`), ASCII answered without a regex. */
function isWordChar(cp: number): boolean {
  if (cp < 0x80)
    return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a);
  if (cp > 0xffff) return WORD_CHAR.test(String.fromCodePoint(cp));
  let known = WORD_CHAR_BMP[cp]!;
  if (known === 0) WORD_CHAR_BMP[cp] = known = WORD_CHAR.test(String.fromCharCode(cp)) ? 1 : 2;
  return known === 1;
}

/**
 * The words of a text, at most `max`: what `/[\p{L}\p{N}][\p{L}\p{N}'’]*\/gu` matches (a letter or
 * digit, then letters, digits and apostrophes), found by one pass over the code units. The model
 * runs this on every window of every result; a regex iterator allocated a match object per word.
 */
export function words(text: string, max: number): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n && out.length < max) {
    // codePointAt reads a surrogate pair as one code point, as the `u` flag does, and a lone
    // surrogate as itself (no letter).
    const cp = text.codePointAt(i)!;
    if (!isWordChar(cp)) {
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    i += cp > 0xffff ? 2 : 1;
    while (i < n) {
      const c = text.codePointAt(i)!;
      if (c !== 0x27 && c !== 0x2019 && !isWordChar(c)) break;
      i += c > 0xffff ? 2 : 1;
    }
    out.push(text.slice(start, i));
  }
  return out;
}

// Feature buckets that do not depend on the window, hashed once (the hot path builds no strings).
const BIAS = hash("bias");
const IMPERATIVE_START = hash("cue:imperative-start");
/** Each imperative's own bucket ("cue:imp:" + the word), hashed once rather than per window. */
const IMPERATIVE_HASH = new Map([...IMPERATIVE].map((w) => [w, hash(`cue:imp:${w}`)]));
const IMPERATIVE_EARLY = hash("cue:imperative-early");
const CUE_HASH = CUES.map(([name]) => hash(`cue:${name}`));
/**
 * The cues that say a window speaks to an AI (names it, says "you", "your response"). In text
 * written for the model on purpose (a tool's description) that is by design, not evidence, so they
 * are left out there; the words themselves still count.
 */
const ADDRESSING_CUES = new Set(
  CUES.flatMap(([name], i) => (["ai", "you", "response"].includes(name) ? [i] : [])),
);
const IMP_CUE_HASH = CUES.map(([name]) => hash(`cue:imperative+${name}`));
const PAIR_HASH = CUES.map(([a], i) => CUES.map(([b], j) => (j > i ? hash(`cue:${a}+${b}`) : 0)));
const LEN_HASH = { xs: hash("len:xs"), s: hash("len:s"), m: hash("len:m"), l: hash("len:l") };

/**
 * The hashed feature indices of one window (with repeats: a feature present twice counts twice).
 * Input is already visible text (lib/detection/text.ts `visibleText`).
 */
export function featurize(window: string, forModel = false): number[] {
  const list: number[] = [];
  emitFeatures(window, forModel, { add: (f) => list.push(f) });
  return list;
}

/** The points of a window's words at which a sink may note its state (`FeatureSink.mark`). */
export type WordsMark = "words-start" | "last-word" | "words-end";

/** Where a window's features go, one at a time and in order (a list for training, a sum for scoring). */
export type FeatureSink = {
  add(feature: number): void;
  /**
   * Called once at each point of the window's words: "words-start" (after the bias), "last-word"
   * (after the last word's own bucket: `emitPrepared`'s `resume`) and "words-end" (after the last
   * word's 4-grams).
   */
  mark?(at: WordsMark): void;
  /**
   * A word's own bucket and its 4-grams (`WordHashes.word`, `.grams`) at once, in place of an
   * `add` for each: for a sink whose sum does not depend on the order of its additions (model.ts,
   * the quantised weights when their sums are exact), which may then keep the word's sum on the
   * word (`WordHashes.sum`) rather than read its weights again. With it, "last-word" comes after the
   * last word's 4-grams too, and a pair resuming there adds only the bigram at its join.
   */
  addWord?(word: WordHashes): void;
};

/**
 * The features `featurize` lists, handed to `sink` in the same order, so the model's scorer sums
 * their weights as they come rather than build a list per window and walk it again.
 */
export function emitFeatures(window: string, forModel: boolean, out: FeatureSink): void {
  emitPrepared(prepareWindow(window), forModel, out);
}

/**
 * A window lower-cased, its words and their hashes: what `emitFeatures` reads. Kept per segment so
 * that a pair of neighbours is prepared from its two parts (`preparePair`) instead of read again.
 */
export type PreparedWindow = {
  text: string;
  tokens: string[];
  hashes: WordHashes[];
  /**
   * A pair's two segments, when the pair holds all their words (not cut at MAX_TOKENS): its cues
   * are read from theirs where that is exact (CUE_JOIN). Set by `preparePair` only.
   */
  parts?: [PreparedWindow, PreparedWindow];
  /** Set by `emitPrepared`: the cues found, for the pairs this window is part of. */
  cues?: CueBits;
  /** `prepareWindow`'s `within` (null without): cue i's gate parts that may be in the window. */
  partsWithin?: PartsWithin | null;
  /**
   * What the scan for words saw of the window's code units, when it read them all and every word
   * is in `tokens` (undefined when it stopped at MAX_TOKENS words). `plain`: every code unit ASCII,
   * no apostrophe, no underscore (the cues `cueWordsDecide` reads are answered from the words);
   * `digit`: an ASCII digit; `quote`: a mark the "particular" cue opens a quoted value with
   * (`'"‘“`). Together these answer "particular" (`PARTICULAR`).
   */
  read?: WindowRead;
  /**
   * Its words' cue bits together (`WordHashes.cueWords`, `.cueSure`, `.cueEnds`), gathered as the
   * words are found; a pair's from its parts'. Undefined: gathered from `hashes` when needed.
   */
  wordBits?: WordBits;
  /** Where its first colon is (-1: none), once `emitPrepared` has looked (`colonOf`). */
  colon?: number;
  /** Bucket i: the bigram of words i and i + 1, found with the words (undefined: hashed when emitted). */
  bigrams?: number[];
};

type WordBits = { words: number; sure: number; ends: number };
type WindowRead = { plain: boolean; digit: boolean; quote: boolean; marks: number };

/**
 * The one-character gate parts ("@", "?", "$", "£", "€"), a bit each: `WindowRead.marks` says
 * which the window holds, so a window read whole is not searched for them again.
 */
const PART_MARK = new Map<string, number>();
for (const [, , gate] of CUES)
  for (const part of gate?.parts ?? [])
    if (part.length === 1 && !PART_MARK.has(part)) PART_MARK.set(part, 1 << PART_MARK.size);
if (PART_MARK.size > 31) throw new Error("a one-character gate part's bit must fit in 31 bits");
/** By code unit: the part's bit, or 0. */
const MARK_OF = new Int32Array(0x10000);
for (const [part, mark] of PART_MARK) MARK_OF[part.charCodeAt(0)] = mark;

/**
 * The "particular" cue, `\d|['"‘“]…` without the u flag: a window with an ASCII digit has it, and
 * one with neither a digit nor one of those marks has not (its regex is run only between the two).
 * Checked against the pattern's source, so an edit to it is looked at rather than misread.
 */
const PARTICULAR = CUES.findIndex(([name]) => name === "particular");
if (
  CUES[PARTICULAR]![1].source !== String.raw`\d|['"‘“][^'"’”\s]{1,40}['"’”](?:[\s.,;:)]|$)` ||
  CUES[PARTICULAR]![1].flags !== ""
)
  throw new Error("cue particular: not of the shape its window flags answer");

/**
 * `within`: what `partsIn` says of a lower-cased text the window is cut from. A gate's part not in
 * that text is in none of its windows (the window lower-cased is a piece of the text lower-cased:
 * lower-casing goes character by character but for a final sigma, and no part holds a sigma), so
 * its cue's parts are not looked for in each window.
 */
export function prepareWindow(window: string, within?: PartsWithin): PreparedWindow {
  const text = window.toLowerCase();
  const { tokens, hashes, bigrams, read, wordBits } = hashedWords(text, MAX_TOKENS);
  return {
    text,
    tokens,
    hashes: tokens.length < MIN_WORDS ? [] : hashes,
    partsWithin: within ?? null,
    read,
    wordBits,
    bigrams,
  };
}

/**
 * `words(text, max)` and each word's hashes (`hashesOf`), in one pass: a word already hashed is
 * found in the table by the hash state its own bucket needs anyway (`wordAt`), and its token is the
 * table's copy of the word, so a window of known words cuts no string and hashes none twice (a
 * string key in a Map is hashed again by V8, and a fresh slice has no hash yet: that lookup and
 * the slice were a fifth of the model's work per window).
 */
function hashedWords(
  text: string,
  max: number,
): {
  tokens: string[];
  hashes: WordHashes[];
  bigrams: number[];
  read: WindowRead | undefined;
  wordBits: WordBits;
} {
  const tokens: string[] = [];
  const hashes: WordHashes[] = [];
  const bigrams: number[] = [];
  const n = text.length;
  // `PreparedWindow.read`, off the code units as they pass.
  let plain = true;
  let digit = false;
  let quote = false;
  let marks = 0;
  const wordBits: WordBits = { words: 0, sure: 0, ends: 0 };
  let i = 0;
  while (i < n && tokens.length < max) {
    // As in `words`: a letter or a digit, then letters, digits and apostrophes.
    const cp = text.codePointAt(i)!;
    if (cp >= 0x80 || cp === 0x27 || cp === 0x5f) plain = false;
    if (cp === 0x22 || cp === 0x27 || cp === 0x2018 || cp === 0x201c) quote = true;
    else if (cp >= 0x30 && cp <= 0x39) digit = true;
    if (!isWordChar(cp)) {
      if (cp <= 0xffff) marks |= MARK_OF[cp]!;
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const start = i;
    i += cp > 0xffff ? 2 : 1;
    while (i < n) {
      const c = text.codePointAt(i)!;
      if (c !== 0x27 && c !== 0x2019 && !isWordChar(c)) break;
      if (c >= 0x80 || c === 0x27) plain = false;
      if (c === 0x27) quote = true;
      else if (c >= 0x30 && c <= 0x39) digit = true;
      i += c > 0xffff ? 2 : 1;
    }
    // The word's own hash state and its bigram with the word before, in one pass over its code
    // units (`fnv(W, word)` and `fnv(before.bigramPrefix, word)`, each a pass of its own before).
    const before = hashes[hashes.length - 1];
    let state = W;
    if (before === undefined) state = fnv(W, text, start, i);
    else {
      let bigram = before.bigramPrefix;
      for (let k = start; k < i; k++) {
        const u = text.charCodeAt(k);
        state = step(state, u);
        bigram = step(bigram, u);
      }
      bigrams.push(bucket(bigram));
    }
    const h = wordAt(text, start, i, state);
    tokens.push(h.text);
    hashes.push(h);
    wordBits.words |= h.cueWords;
    wordBits.sure |= h.cueSure;
    wordBits.ends |= h.cueEnds;
  }
  // Stopped at `max` words: the rest is not read.
  return {
    tokens,
    hashes,
    bigrams,
    read: i < n ? undefined : { plain, digit, quote, marks },
    wordBits,
  };
}

/** For each cue, the parts of its gate in a text (`partsIn`); undefined for a cue with none. */
export type PartsWithin = readonly (readonly string[] | undefined)[];

/** Each cue's gate parts that are in `lower` (a whole text, lower-cased), for `prepareWindow`. */
export function partsIn(lower: string): PartsWithin {
  return CUE_GATE.map((gate) => gate?.parts?.filter((p) => lower.includes(p)));
}

/** Two lists as one, copied by a loop (V8's concat, a generic builtin, was a sixth of a pair's work). */
function joined<T>(a: readonly T[], b: readonly T[]): T[] {
  const out = a.slice();
  for (let i = 0; i < b.length; i++) out.push(b[i]!);
  return out;
}

/** Where a window's first colon is (-1: none), kept on it; a pair's from its parts' (`${a} ${b}`). */
function colonOf(w: PreparedWindow): number {
  if (w.colon === undefined) {
    if (w.parts === undefined) w.colon = w.text.indexOf(":");
    else {
      const [a, b] = w.parts;
      const inA = colonOf(a);
      const inB = inA >= 0 ? -1 : colonOf(b);
      w.colon = inA >= 0 ? inA : inB >= 0 ? a.text.length + 1 + inB : -1;
    }
  }
  return w.colon;
}

/**
 * `prepareWindow(\`${a} ${b}\`)` from the two prepared parts, without reading the pair again. The
 * same to the character: lower-casing is per character except for a final sigma, whose context (a
 * cased letter before, none after) a space neither is nor passes through, and the segments are
 * trimmed; the word scanner ends a word at the space and starts the next after it, so the pair's
 * words are a's then b's, the first MAX_TOKENS of them. (features.test.ts compares the two.)
 */
export function preparePair(a: PreparedWindow, b: PreparedWindow): PreparedWindow {
  const text = `${a.text} ${b.text}`;
  // Parts that fit whole (nearly every pair: a window of MAX_TOKENS words is rare) are joined
  // without the copies a cut needs.
  const whole = a.tokens.length + b.tokens.length <= MAX_TOKENS;
  const tokens = whole
    ? joined(a.tokens, b.tokens)
    : a.tokens.length >= MAX_TOKENS
      ? a.tokens
      : a.tokens.concat(b.tokens.slice(0, MAX_TOKENS - a.tokens.length));
  if (tokens.length < MIN_WORDS) return { text, tokens, hashes: [] };
  // A part of fewer than MIN_WORDS words was prepared without its hashes.
  const ha = a.hashes.length === a.tokens.length ? a.hashes : a.tokens.map(hashesOf);
  const hb = b.hashes.length === b.tokens.length ? b.hashes : b.tokens.map(hashesOf);
  const hashes = whole ? joined(ha, hb) : ha.concat(hb).slice(0, tokens.length);
  // Its gate words are then a's and b's together (the cues read from the parts rely on that).
  if (tokens.length === a.tokens.length + b.tokens.length)
    // Joined by a space, which adds nothing to what either part's scan saw.
    return {
      text,
      tokens,
      hashes,
      parts: [a, b],
      wordBits:
        a.wordBits && b.wordBits
          ? {
              words: a.wordBits.words | b.wordBits.words,
              sure: a.wordBits.sure | b.wordBits.sure,
              ends: a.wordBits.ends | b.wordBits.ends,
            }
          : undefined,
      read:
        a.read && b.read
          ? {
              plain: a.read.plain && b.read.plain,
              digit: a.read.digit || b.read.digit,
              quote: a.read.quote || b.read.quote,
              marks: a.read.marks | b.read.marks,
            }
          : undefined,
    };
  return { text, tokens, hashes };
}

/**
 * `emitFeatures` of a prepared window: the features in the same order. `resume` > 0: `out`
 * already holds the features up to and including word `resume - 1`'s own bucket (a pair's first
 * segment, summed when that segment was scored alone: its features come first and in the same
 * order in the pair, where only its last word then gains a bigram), and the rest follow.
 * `skipFrom`: the words from there on (a pair's second segment) bring their own buckets, bigrams
 * among themselves and 4-grams from elsewhere (model.ts `scorePair`, where sums are exact); only
 * the bigram that joins them to the word before is emitted.
 */
export function emitPrepared(
  prepared: PreparedWindow,
  forModel: boolean,
  out: FeatureSink,
  resume = 0,
  skipFrom = prepared.tokens.length,
): void {
  const { text, tokens, hashes, bigrams } = prepared;
  if (tokens.length < MIN_WORDS) return;
  if (resume > tokens.length) throw new Error("resume past the window's words");
  if (resume === 0) out.add(BIAS);
  out.mark?.("words-start");
  // The cues whose words are among the window's words (a bit per cue), gathered from the tokens
  // when the window does not hold them already.
  let wordBits = prepared.wordBits;
  if (wordBits === undefined) {
    wordBits = { words: 0, sure: 0, ends: 0 };
    for (const h of hashes) {
      wordBits.words |= h.cueWords;
      wordBits.sure |= h.cueSure;
      wordBits.ends |= h.cueEnds;
    }
  }
  const { words: cueWords, sure: cueSure, ends: cueEnds } = wordBits;
  // The words whose features come here: from the one before `resume` (it gains the bigram into
  // the next) up to `skipFrom`.
  const to = Math.min(skipFrom, tokens.length);
  for (let i = Math.max(resume - 1, 0); i < to; i++) {
    const h = hashes[i]!;
    if (out.addWord !== undefined) {
      // The same features, the word's bucket and 4-grams as one sum (`FeatureSink.addWord`).
      if (i >= resume) out.addWord(h);
      if (i === tokens.length - 1) out.mark?.("last-word");
      if (i + 1 < tokens.length)
        out.add(bigrams?.[i] ?? bucket(fnv(h.bigramPrefix, tokens[i + 1]!)));
      continue;
    }
    if (i >= resume) out.add(h.word);
    // Where a pair that opens with this window takes over (its last word gains a bigram there).
    if (i === tokens.length - 1) out.mark?.("last-word");
    if (i + 1 < tokens.length) out.add(bigrams?.[i] ?? bucket(fnv(h.bigramPrefix, tokens[i + 1]!)));
    const grams = h.grams;
    for (let j = 0; j < grams.length; j++) out.add(grams[j]!);
  }
  out.mark?.("words-end");
  // The first word after a leading label (`text.replace(LABEL, "")`, without building the copy).
  // LABEL cannot match without a colon, and most windows have none: the regex, slow for its
  // Unicode letter class (about 1 µs a window on relay prose), is run only on those that do.
  const colon = colonOf(prepared);
  const label =
    colon >= 0 && (colon <= 24 || colon <= LEADING_SPACE.exec(text)![0].length + 24)
      ? LABEL.exec(text)
      : null;
  const first =
    label === null ? (tokens[0] ?? "") : (words(text.slice(label[0].length), 1)[0] ?? "");
  // Whether a word is an imperative is kept on its hashes (a Set lookup per window was a string hash each).
  const imperative = label === null ? hashes[0]!.imperative : IMPERATIVE.has(first);
  if (imperative) {
    out.add(IMPERATIVE_START);
    out.add(IMPERATIVE_HASH.get(first)!);
  }
  // An imperative after a salutation or "please": "Hi, please send…", "Assistant: delete…".
  for (let i = 1; i < 4 && i < tokens.length; i++)
    if (hashes[i]!.imperative) {
      out.add(IMPERATIVE_EARLY);
      break;
    }
  const present: number[] = [];
  // A pair's segments' cues, when both were looked for (each scored alone first: detect.ts).
  const a = prepared.parts?.[0].cues;
  const b = prepared.parts?.[1].cues;
  const bits: CueBits = { known: 0, open: 0, present: 0 };
  const within = prepared.partsWithin ?? null;
  const read = prepared.read;
  for (let i = 0; i < CUES.length; i++) {
    const gate = CUE_GATE[i]!;
    if (forModel && ADDRESSING_CUES.has(i)) continue;
    const bit = 1 << i;
    bits.known |= bit;
    const fromParts = a !== undefined && b !== undefined && (a.known & b.known & bit) !== 0;
    let open: boolean;
    if (fromParts) open = gate === null || ((a.open | b.open) & bit) !== 0;
    else {
      open = gate === null || (gate.words !== undefined && (cueWords & bit) !== 0);
      const parts = within === null ? gate?.parts : within[i];
      if (!open && parts !== undefined)
        for (const p of parts) {
          // A one-character part the scan for words saw pass, or did not (`WindowRead.marks`).
          const mark = PART_MARK.get(p);
          if (
            mark !== undefined && read !== undefined ? (read.marks & mark) !== 0 : text.includes(p)
          ) {
            open = true;
            break;
          }
        }
    }
    if (!open) continue;
    bits.open |= bit;
    let found: boolean | undefined;
    if (fromParts) {
      const either = ((a.present | b.present) & bit) !== 0;
      const join = JOIN[i];
      if (join === "last") found = (b.present & bit) !== 0;
      else if (join !== null && either) found = true;
      // Neither part has it, and both were searched (a gate closed may hide a match).
      else if (join === "either" && (a.open & b.open & bit) !== 0) found = false;
      else if (join === "grows" && (a.open & b.open & bit) !== 0) {
        const tails = TAILS[i];
        const first = prepared.parts![0].text;
        if (tails !== undefined && !tails.some((tail) => first.endsWith(tail))) found = false;
      }
    }
    // A plain window's words answer a cue of words (`cueWordsDecide`): most of the cue regexes
    // run per window were these.
    if (found === undefined && read?.plain === true && CUE_DECIDE[i] !== undefined) {
      if ((cueSure & bit) !== 0) found = true;
      else if ((CUE_ENDS_KNOWN & bit) !== 0 && (cueEnds & bit) === 0) found = false;
    }
    if (found === undefined && i === PARTICULAR && read !== undefined)
      if (read.digit) found = true;
      else if (!read.quote) found = false;
    found ??= CUE_TEST[i]!(text);
    if (found) {
      present.push(i);
      bits.present |= bit;
    }
  }
  prepared.cues = bits;
  for (const i of present) out.add(CUE_HASH[i]!);
  // What an imperative acts on: "Send my statement to…", "Unlock the door immediately" (a payload
  // acts on someone's things) against "Create a folder at the given path" (a reference's verb).
  if (imperative) for (const i of present) out.add(IMP_CUE_HASH[i]!);
  // Pairs of cues say more than either alone (an AI addressed and asked to send, a credential and an address).
  for (let a = 0; a < present.length; a++)
    for (let b = a + 1; b < present.length; b++) out.add(PAIR_HASH[present[a]!]![present[b]!]!);
  const len = tokens.length < 4 ? "xs" : tokens.length < 10 ? "s" : tokens.length < 30 ? "m" : "l";
  out.add(LEN_HASH[len]);
}

/** What a word contributes to a window whatever its neighbours: its buckets, and the cues it opens. */
export type WordHashes = {
  /** The word itself (a copy of its own, not a view of the text it was found in). */
  text: string;
  /** The FNV state of "w:" + word: its bucket, and its key in the table of words hashed. */
  state: number;
  /** The word's own bucket ("w:" + word). */
  word: number;
  /** The hash state of "b:" + word + " ", continued over the next word for the bigram. */
  bigramPrefix: number;
  /** Character 4-grams of " word " (padded), hashed as "c:" + gram, in order; none past 22 letters. */
  grams: Int32Array;
  /** Bit i set: the word is one of cue i's gate words. */
  cueWords: number;
  /** The word is one of IMPERATIVE. */
  imperative: boolean;
  /** Bit i set: the word is one of cue i's `sure` words (`cueWordsDecide`). */
  cueSure: number;
  /** Bit i set: the word is one of cue i's `ends` words. */
  cueEnds: number;
  /**
   * The sum of the weights of the word's bucket and 4-grams under the weights `sumOf` (model.ts:
   * one model's quantised table), kept by the scorer so that a word seen again costs one addition
   * rather than a weight read per feature. Null: not summed yet.
   */
  sumOf: object | null;
  sum: number;
};

/** Cue bits by gate word. */
const CUE_WORDS = new Map<string, number>();
CUES.forEach(([, , gate], i) => {
  if (gate?.words !== undefined)
    for (const word of gate.words) CUE_WORDS.set(word, (CUE_WORDS.get(word) ?? 0) | (1 << i));
});
if (CUES.length > 31) throw new Error("a cue's bit must fit in 31 bits");

/**
 * Features of one window at most: the bias; per word its bucket, a bigram and its 4-grams; the
 * imperative features; each cue, with an imperative, and each pair of cues; the length. A sum of
 * at most this many weights is exact when the model's `exactUpTo` reaches it (model.ts).
 */
export const MAX_WINDOW_FEATURES =
  1 +
  MAX_TOKENS * (2 + MAX_GRAMS) +
  3 +
  2 * CUES.length +
  (CUES.length * (CUES.length - 1)) / 2 +
  1;

/**
 * Words already hashed. Ordinary text repeats its words from window to window and result to
 * result, and hashing a word's 4-grams was most of the model's work. Bounded: words of at most 22
 * characters (the longest that has 4-grams) are kept, at most 10,000 of them (the table is emptied
 * when full): under 4 MB at worst (measured with 10,000 words of 22 letters), far less with real ones.
 *
 * An open-addressing table keyed by the FNV state of "w:" + word (what the word's own bucket is cut
 * from), so a word is looked up where it lies in its window's text, without a string cut for it:
 * WORD_SLOTS is over three times MAX_HASHED, so a probe passes few other words.
 */
const MAX_HASHED = 10_000;
const WORD_SLOTS = 1 << 15;
/** The table: a word's hashes at the slot its state names, or the next free one (one array: one read per slot tried). */
const slots: (WordHashes | undefined)[] = new Array<WordHashes | undefined>(WORD_SLOTS).fill(
  undefined,
);
let hashedCount = 0;

/** The hashes of the word `text[start, end)`, from the table or made (and kept) now. */
function wordAt(
  text: string,
  start: number,
  end: number,
  state = fnv(W, text, start, end),
): WordHashes {
  const length = end - start;
  let slot = state & (WORD_SLOTS - 1);
  for (let h = slots[slot]; h !== undefined; h = slots[slot]) {
    if (h.state === state && h.text.length === length && text.startsWith(h.text, start)) return h;
    slot = (slot + 1) & (WORD_SLOTS - 1);
  }
  // A copy of the word: a word cut from a text can be a view of the whole text, which the table
  // would then keep alive.
  const t = length >= 13 ? `${text.slice(start, end)} `.slice(0, -1) : text.slice(start, end);
  const h = hashesMade(t, state);
  if (length <= 22) {
    if (hashedCount >= MAX_HASHED) {
      slots.fill(undefined);
      hashedCount = 0;
      slot = state & (WORD_SLOTS - 1);
    }
    slots[slot] = h;
    hashedCount++;
  }
  return h;
}

/** A word's hashes (`wordAt` on the word alone). */
function hashesOf(t: string): WordHashes {
  return wordAt(t, 0, t.length);
}

/** A word's hashes, made: `state` is `fnv(W, t)`. */
function hashesMade(t: string, state: number): WordHashes {
  const n = t.length + 2;
  const grams = new Int32Array(n >= 4 && n - 3 <= MAX_GRAMS ? n - 3 : 0);
  for (let j = 0; j < grams.length; j++) {
    let g = C;
    for (let k = j; k < j + 4; k++)
      g = step(g, k === 0 || k === n - 1 ? SPACE : t.charCodeAt(k - 1));
    grams[j] = bucket(g);
  }
  return {
    text: t,
    state,
    word: bucket(state),
    bigramPrefix: step(fnv(B, t), SPACE),
    grams,
    cueWords: CUE_WORDS.get(t) ?? 0,
    imperative: IMPERATIVE.has(t),
    cueSure: CUE_SURE_WORDS.get(t) ?? 0,
    cueEnds: CUE_END_WORDS.get(t) ?? 0,
    sumOf: null,
    sum: 0,
  };
}
