/**
 * Features of one window of text for the trained model: hashed word unigrams and bigrams, hashed
 * character 4-grams inside words (spelling variants and other languages), and "cue" features that
 * name what a payload does rather than how a benchmark phrased it: speaking to an AI, an imperative
 * at the start, asking for a reply or an action, money, credentials, addresses to send things to.
 * The cues are what lets the model carry over to tickets, wiki pages and chat it never saw.
 */

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

/** A leading "Label:" (a mail header, a form field, a speaker) is not the sentence's first word. */
const LABEL = /^\s*[\p{L}_][\p{L}_ .-]{0,23}:\s+/u;

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

type Gate = ((tokens: Set<string>, text: string) => boolean) | null;
/** Run the cue's regex only when one of these words is in the window (most windows skip most cues). */
const w = (words: string): Gate => {
  const set = new Set(words.split(" "));
  return (tokens) => {
    // Walk the smaller of the two sets.
    if (tokens.size < set.size) {
      for (const t of tokens) if (set.has(t)) return true;
    } else for (const t of set) if (tokens.has(t)) return true;
    return false;
  };
};
/** …or when one of these substrings is in the text. */
const c =
  (...parts: string[]): Gate =>
  (_, text) =>
    parts.some((p) => text.includes(p));

const CUES: [string, RegExp, Gate][] = [
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

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’]*/gu;
const MAX_TOKENS = 120;

// Feature buckets that do not depend on the window, hashed once (the hot path builds no strings).
const BIAS = hash("bias");
const IMPERATIVE_START = hash("cue:imperative-start");
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
  const text = window.toLowerCase();
  const out: number[] = [];
  const tokens: string[] = [];
  for (const m of text.matchAll(WORD)) {
    tokens.push(m[0]);
    if (tokens.length >= MAX_TOKENS) break;
  }
  if (tokens.length < MIN_WORDS) return [];
  out.push(BIAS);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    out.push(bucket(fnv(W, t)));
    if (i + 1 < tokens.length) out.push(bucket(fnv(step(fnv(B, t), SPACE), tokens[i + 1]!)));
    // Character 4-grams of " word " (padded), hashed as "c:" + gram.
    const n = t.length + 2;
    if (n >= 4 && n <= 24)
      for (let j = 0; j + 4 <= n; j++) {
        let h = C;
        for (let k = j; k < j + 4; k++)
          h = step(h, k === 0 || k === n - 1 ? SPACE : t.charCodeAt(k - 1));
        out.push(bucket(h));
      }
  }
  const afterLabel = text.replace(LABEL, "");
  const first = afterLabel === text ? (tokens[0] ?? "") : (afterLabel.match(WORD)?.[0] ?? "");
  if (IMPERATIVE.has(first)) out.push(IMPERATIVE_START, hash(`cue:imp:${first}`));
  // An imperative after a salutation or "please": "Hi, please send…", "Assistant: delete…".
  for (let i = 1; i < 4 && i < tokens.length; i++)
    if (IMPERATIVE.has(tokens[i]!)) {
      out.push(IMPERATIVE_EARLY);
      break;
    }
  const present: number[] = [];
  const tokenSet = new Set(tokens);
  for (let i = 0; i < CUES.length; i++) {
    const [, re, gate] = CUES[i]!;
    if (forModel && ADDRESSING_CUES.has(i)) continue;
    if ((gate === null || gate(tokenSet, text)) && re.test(text)) present.push(i);
  }
  for (const i of present) out.push(CUE_HASH[i]!);
  // What an imperative acts on: "Send my statement to…", "Unlock the door immediately" (a payload
  // acts on someone's things) against "Create a folder at the given path" (a reference's verb).
  if (IMPERATIVE.has(first)) for (const i of present) out.push(IMP_CUE_HASH[i]!);
  // Pairs of cues say more than either alone (an AI addressed and asked to send, a credential and an address).
  for (let a = 0; a < present.length; a++)
    for (let b = a + 1; b < present.length; b++) out.push(PAIR_HASH[present[a]!]![present[b]!]!);
  const len = tokens.length < 4 ? "xs" : tokens.length < 10 ? "s" : tokens.length < 30 ? "m" : "l";
  out.push(LEN_HASH[len]);
  return out;
}
