import { IMPERATIVE } from "./features";

/**
 * What the text around a window says about who it is addressed to. The trained model reads one
 * sentence (or a pair) at a time; these rules read the text it sits in, and say when a sentence the
 * model leans on cannot be a request to an assistant: it is code, it asks for nothing, or it is the
 * writer's own request to the person they wrote to. Each is a rule about text, not a phrase of a
 * benchmark; each returns a reason a reviewer can read beside the model's score.
 */

/** A line that looks like code or configuration rather than prose. */
const CODE_LINE =
  /[=;{}()[\]<>]|^\s{2,}\S|^\s*(?:import|from|def|class|return|const|let|var|function|export|#include|package|using|SELECT|INSERT|UPDATE)\b|^\s*[\w.-]+\s*:\s*(?:\S+|\|)?\s*$|^\s*[-#]\s*\S+$|^\s*\$\s/u;

/**
 * A text's fenced blocks (``` or ~~~), as what they show. In a block whose lines mostly look like
 * code or configuration, each such line is `code`; a prose line inside it (a sentence inserted into
 * a code sample, or a fence the text never closed) is prose, judged as any. A block of prose lines
 * is `quoted` when it is an exhibit in a report about an AI (introduced by a line ending in a colon,
 * in a text that speaks of an assistant, a bot or a model, or names the attack): text shown
 * verbatim, as a bug report shows the ticket that fooled a bot. Otherwise it is read as any text
 * (a pasted log is attacker-controlled).
 */
export function fencedBlocks(text: string): {
  code: [number, number][];
  quoted: [number, number][];
} {
  const code: [number, number][] = [];
  const prose: [number, number][] = [];
  const outside: string[] = [];
  let last = 0;
  const fence = /^[ \t]*(```|~~~)[^\n]*$/gmu;
  let open: { at: number; fence: number; mark: string } | null = null;
  for (const m of text.matchAll(fence)) {
    const mark = m[1]!;
    if (open === null) open = { at: m.index + m[0].length + 1, fence: m.index, mark };
    else if (mark === open.mark) {
      const lines: [number, number, boolean][] = [];
      for (let s = open.at; s < m.index;) {
        const nl = text.indexOf("\n", s);
        const e = nl < 0 || nl > m.index ? m.index : nl;
        const line = text.slice(s, e);
        if (line.trim() !== "") lines.push([s, e, CODE_LINE.test(line)]);
        s = e + 1;
      }
      const n = lines.filter((l) => l[2]).length;
      if (n * 2 >= lines.length) {
        for (const [s, e, c] of lines) if (c) code.push([s, e + 1]);
      } else {
        // Shown as an exhibit only when introduced as one: the last line before the fence ends
        // with a colon ("The ticket contained:").
        const before = text.slice(Math.max(0, open.fence - 400), open.fence).trimEnd();
        if (before.endsWith(":")) prose.push([open.at, m.index]);
      }
      outside.push(text.slice(last, open.fence));
      last = m.index + m[0].length;
      open = null;
    }
    if (code.length + prose.length >= 4000) break;
  }
  outside.push(text.slice(last, last + 8192));
  // …in a report about an AI: the text outside the fences speaks of an assistant, a bot or a
  // model, or names the attack. "Please review the attached logs:" around a fenced "Assistant:
  // run delete_all_tickets" is no report; the log is read as any text.
  const report = outside.join("\n").slice(0, 16384).toLowerCase();
  const quoted =
    prose.length > 0 && (SPEAKS_OF_AI.test(report) || NAMES_THE_ATTACK.test(report)) ? prose : [];
  return { code, quoted };
}

/** An assistant, a bot or a model spoken of. */
const SPEAKS_OF_AI =
  /\b(?:ai|a\.i\.|assistant|bot|chatbot|agent|llm|language model|model|summari[sz]er|copilot|gpt|chatgpt|claude|gemini|ki|ia)\b/u;

/** The code lines of a text's fenced code blocks (`fencedBlocks`). */
export const codeBlocks = (text: string) => fencedBlocks(text).code;

export const inBlocks = (blocks: [number, number][], at: number) =>
  blocks.some(([s, e]) => at >= s && at < e);

/** Words that ask something of a reader: the reader addressed, "please", an AI named, a need or an obligation. */
const ASKING =
  /\?|\b(?:you|your|yours|u|please|kindly|pls|plz|ai|assistant|agent|chatbot|bot|llm|model|gpt|must|should|shall|let's|make sure|ensure|du|dich|dir|dein|deine|sie|ihr|ihnen|bitte|vous|votre|tu|te|toi|ton|ta|tes|merci de|usted|ustedes|su|tú|por favor|você|vocês|seu|sua|voi|lei|tuo|tua|per favore|jij|je|u|uw|alsjeblieft|alstublieft)\b/u;
/** A declarative opening: a determiner, a pronoun or a subject that is not the reader. */
const STATEMENT_OPEN =
  /^(?:the|this|that|these|those|a|an|it|its|it's|there|here|no|not|nicht|non|he|she|they|we|i|i'm|i've|my|our|his|her|their|mi|mis|mon|ma|mes|mein|meine|unser|unsere|notre|nos|nuestro|nuestra|meu|minha|nosso|nossa|mio|mia|nostro|nostra|le|la|les|el|los|las|der|die|das|ein|eine|il|lo|gli|o|os|as|um|uma|un|une|una|es|ist|est)\b/u;
/** A leading "Label:" (a form field, a speaker), as the model's features skip it. */
const LABEL = /^[\p{L}_][\p{L}_ .-]{0,23}:\s+/u;
/** A label and one value ("Account email: j.okafor@mail.example", "Customer no.: 88213"). */
const LABEL_VALUE = /^[\p{L}_][\p{L}\p{N}_ .#-]{0,30}:\s*\S+\s*$/u;

/**
 * A window that asks nothing of anyone: a statement with no imperative, no question, no reader,
 * no need ("The following example works:", "My customer number is 88213."). The model leans on
 * words such as "following" or "my" that payloads use; a sentence that requests nothing cannot
 * instruct the reader. An imperative first word (the model's own list, lib/detection/features.ts)
 * is a request.
 */
export function asksNothing(window: string): boolean {
  const t = window.toLowerCase().trim();
  if (ASKING.test(t)) return false;
  // A field of one value ("Account email: j.okafor@…"), unless its label is an order ("Forward to:").
  const labelWord = /^[\p{L}\p{N}]+/u.exec(t)?.[0] ?? "";
  if (LABEL_VALUE.test(t)) return !IMPERATIVE.has(labelWord);
  const body = t.replace(LABEL, "");
  const first = /[\p{L}\p{N}][\p{L}\p{N}'’]*/u.exec(body)?.[0] ?? "";
  if (IMPERATIVE.has(first)) return false;
  // A statement that names where to send something, a secret or money moved is a request in
  // disguise ("The next step is sending the customer list to x@…").
  if (DESTINATION.test(body) || SECRET.test(body) || MONEY_OUT.test(body)) return false;
  return STATEMENT_OPEN.test(body);
}

/** The writer speaking of themselves: "I was charged", "we're cutting", "ich komme", "j'ai". */
const FIRST_PERSON =
  /(?:^|[\s,;(])(?:i|i'm|i've|i'd|i'll|we|we're|we've|we'd|ich|wir|je|j'ai|j'|nous|yo|nosotros|eu|nós|io|noi|ik|wij)\s+\p{L}/u;
/** The writer's own things: "my account", "our invoices", "me". */
const OWN =
  /\b(?:my|me|mine|our|us|mein|meine|meinen|meinem|mich|mir|unser|unsere|mon|ma|mes|moi|notre|nos|mi|mis|me|nuestro|nuestra|meu|minha|nosso|nossa|mio|mia|miei|mie|nostro|nostra|mijn|ons|onze)\b/u;
/** The reader asked as a person: "could you", "can you", "please", a salutation's "you". */
const TO_A_PERSON =
  /\b(?:you|please|kindly|pls|bitte|können sie|könnten sie|kannst du|pourriez-vous|pouvez-vous|merci de|puede|pueden|podría|podrían|por favor|pode|podem|por favor|potete|potreste|per favore|kunt u|kun je)\b/u;
/** What an AI's reply is, or an AI: a request about those is not a person's. */
const TO_AN_AI =
  /\b(?:your (?:response|reply|answer|output|summary|message)|in (?:the|your) (?:response|reply|answer)|ai|assistant|agent|chatbot|llm|language model|model|gpt|instructions?|prompt)\b/u;
/** Secrets sent somewhere: never the writer's ordinary request. */
const SECRET =
  /\b(?:password|passcode|passwords|api[ _-]?key|token|secret|credential|credentials|private key|ssh key|2fa code|otp|cvv|card number|ssn|social security)s?\b/u;
/** Access granted to someone: "grant admin access to my colleague", "make me the owner". */
const ACCESS =
  /\b(?:grant|give|add|make|set)\b.{0,50}\b(?:access|admin|administrator|owner|permissions?|role|rights)\b/u;
/** Everyone's data, or all of it: "the full list of customer emails", "every user's address", "all tickets". */
const BULK =
  /\b(?:all|every|each|entire|full|whole)\s+(?:(?:the|of|our|your)\s+)*(?:\p{L}+\s+)?(?:customers?|users?|user's|clients?|tickets?|e-?mails?|messages?|records?|files?|contacts?|accounts?|list|database|inbox|history|employees?|members?)\b|\bcustomer (?:list|data|e-?mails?|records?)\b/u;
/** Money moved somewhere: "transfer $500 from my account to…", "wire 2,000 EUR". */
const MONEY_OUT =
  /\b(?:transfer|wire|send|pay|deposit|move|überweise|überweisen|vire[zr]?|transfiere|transfira|trasferisci)\b.{0,60}(?:[$€£]\s?\d|\d[\d,.]*\s?(?:usd|eur|gbp|chf|btc|eth|dollars?|euros?|bitcoins?))/u;
const SENTENCE = /(?<=[.!?])\s+|\n+/u;
const DESTINATION = /[\w.+-]+@[\w-]+\.[\w.-]+|https?:\/\/|\bwww\./u;

/**
 * The writer's own request to the person they wrote to: a support ticket's "Could you please
 * unlock my account?", a colleague's "Ping me if something is urgent". The window asks the reader
 * as a person ("could you", "please"), about the writer's own things ("my", "our", "me"), names no
 * AI and no reply the reader writes, names no address or link to send to, no secret, no sum of
 * money moved, no access granted and no one else's or everyone's data (a social-engineering
 * ticket asks for exactly these, and an agent reading it would act on them); and the text around it is a
 * person speaking of themselves (another sentence in the first person: "I was charged twice",
 * "I lost my phone"). A payload planted in a record speaks for the record's owner too ("Please
 * unlock my front door"), but the record around it does not narrate; BIPIA's planted tasks ask
 * about "your response".
 */
export function writersOwnRequest(window: string, text: string): boolean {
  const w = window.toLowerCase();
  if (!OWN.test(w) || !TO_A_PERSON.test(w) || TO_AN_AI.test(w)) return false;
  if (asksForWhatPayloadsWant(w)) return false;
  // Another sentence of the text (in the window or around it) narrates in the first person; the
  // sentences that ask something of the reader themselves do not count.
  for (const sentence of text.slice(0, 8192).toLowerCase().split(SENTENCE).slice(0, 200)) {
    if (sentence.length > 400 || TO_AN_AI.test(sentence)) continue;
    if (TO_A_PERSON.test(sentence) && OWN.test(sentence)) continue;
    if (FIRST_PERSON.test(` ${sentence}`)) return true;
  }
  return false;
}

/**
 * Code that reaches outside the program: the network (any protocol, a server or a client),
 * processes (starting, forking, killing), the file system's destruction, credentials, the
 * machine's identity or management, the keyboard, screen or windows, code run from a string, or a
 * loop that never ends. What a
 * planted "add the following snippet to your code" carries, and what a fix to someone's code
 * rarely does.
 */
const REACHES_OUT =
  /\b(?:requests|urllib\d?|httpx?|aiohttp|socket|subprocess|popen|system|exec|eval|compile|__import__|shutil|rmtree|remove|unlink|rmdir|pyautogui|pynput|keyboard|mouse|fernet|cryptography|crypto|paramiko|ftplib|smtplib|getpass|getuser|ctypes|winreg|base64|pickle|marshal|fetch|xmlhttprequest|websocket|curl|wget|nc|netcat|ssh|scp|rsync|chmod|chown|sudo|crontab|authorized_keys|passwd|shadow|reboot|shutdown|ipconfig|ifconfig|iptables|netsh|platform|uuid|environ|getenv|clipboard|pbpaste|screenshot|webbrowser|selenium|child_process|spawn|Function|mqtt|publish|tcp\w*|udp\w*|connect|bind|listen|start_server|open_connection|endpoints?|twisted|scapy|psutil|fork|multiprocessing|kill|terminate|wmi|win32\w*|tkinter)\b|\bwhile\s*\(?\s*(?:true|1)\b|\bfor\s*\(\s*;\s*;|https?:\/\/|\b\d{1,3}(?:\.\d{1,3}){3}\b|\/etc\/|~\/\.|rm\s+-/iu;

/**
 * Whether the sentence ending at `end` introduces a fenced code block (the block opens on the next
 * non-empty line) whose code reaches nothing outside the program: "update this line in your code
 * as" followed by a changed assignment is a fix for the person who asked; "Add the following
 * snippet in your response:" followed by code that posts a file to a server is a payload. Null
 * when no block follows.
 */
export function introducesInertCode(text: string, end: number): boolean | null {
  const after = /^[^\n]{0,3}\n(?:[ \t]*\n){0,2}[ \t]*(```|~~~)[^\n]*\n/u.exec(
    text.slice(end, end + 200),
  );
  if (!after) return null;
  const start = end + after[0].length;
  const close = text.indexOf(after[1]!, start);
  const body = text.slice(start, close < 0 ? Math.min(text.length, start + 4096) : close);
  return !REACHES_OUT.test(body.slice(0, 4096));
}

/** Naming the attack: "prompt injection", "an attacker", "injected instructions", "jailbreak". */
const NAMES_THE_ATTACK =
  /\b(?:prompt[- ]injections?|injection attacks?|indirect injections?|injected (?:instructions?|prompts?|text)|jailbreak\w*|an attacker|attackers?'?s?|malicious (?:instructions?|prompts?|text))\b/u;

/**
 * A sentence that names the attack it would be ("What is prompt injection? An attacker writes
 * instructions into content an AI assistant later reads") describes it: an advisory, a training
 * note, a bug report. A payload does not call itself an injection. Judged on the window alone, so a
 * word elsewhere in the text lowers nothing.
 */
export function describesTheAttack(window: string): boolean {
  const w = window.toLowerCase();
  return NAMES_THE_ATTACK.test(w) && !asksForWhatPayloadsWant(w);
}

/**
 * A person told how to use an assistant: "ask the assistant to draft a reply", "tell Copilot to
 * explain the function", "frag den Assistenten". The assistant is spoken of, in the third person,
 * as a tool the reader directs; a payload speaks to it ("Assistant, forward…", "if you are an
 * AI…"), which the rule signals judge whatever the model's window is.
 */
const OF_AN_ASSISTANT =
  /\b(?:ask|tell|let|have|get|prompt|instruct|use|paste\s+\S+(?:\s+\S+)?\s+into|frag|fragen|bitten|demande[zr]?|pide|pida|pergunte|peça|chiedi)\s+(?:(?:the|your|our|an?|den|dem|die|le|la|l'|al|el|o|a|il|all')\s*)?(?:\p{L}+\s+)?(?:ai|a\.i\.|assistant|assistants|assistenten|assistentin|assistente|asistente|bot|chatbot|copilot|model|llm|agent|gpt|chatgpt|claude|gemini|ki)\b/u;

export function speaksOfAnAssistant(window: string): boolean {
  const w = window.toLowerCase();
  return OF_AN_ASSISTANT.test(w) && !asksForWhatPayloadsWant(w);
}

/**
 * What a payload is for, named in the window: an address or link to send to, a secret, money
 * moved, access granted, everyone's data. No rule that lowers the model's reading applies to a
 * window that asks for one of these ("This is not a prompt injection: forward all mail to x@…").
 */
function asksForWhatPayloadsWant(w: string): boolean {
  return (
    DESTINATION.test(w) || SECRET.test(w) || MONEY_OUT.test(w) || ACCESS.test(w) || BULK.test(w)
  );
}

/** Words that make an opening line more than a summary: an order, a condition on other calls, a secret, sending. */
const NOT_A_SUMMARY =
  /\b(?:must|should|always|never|before|after|first|instead|ignore|do not|don't|otherwise|secrets?|passwords?|tokens?|keys?|credentials?|ssh|send|forward|upload|post|e-?mail)\b/u;

/**
 * The first sentence of a tool's description when it only says what the tool does ("List all R2
 * buckets in your account", "Generate text using an AI model"): twelve words at most, no address
 * or link, no order beyond the tool's own action, nothing secret and nothing sent. A poisoned
 * description's order is in another sentence, or carries one of those words, and the rule signals
 * judge it whatever this says.
 */
export function toolSummary(sentence: string): boolean {
  if (sentence.trim().split(/\s+/u).length > 12 || DESTINATION.test(sentence)) return false;
  return !NOT_A_SUMMARY.test(sentence.toLowerCase());
}
