/**
 * Suspicious text in a server-authored surface: hidden Unicode, ANSI escapes, markup,
 * instruction-like and concealment phrasing, and mentions of other tools. Each flag says where to
 * look (item, field, UTF-16 offsets) and how the text reads once revealed. Detection is not a
 * control (lib/controls/catalog.ts NOT_CONTROLS, `detection_flags`): a clean scan is no evidence of a clean server, and nothing counts it as a
 * mitigation. Phrases are matched on the text with hidden characters and escapes removed, so a
 * zero-width space inside "ignore previous instructions" does not hide it. Pure.
 */
import { revealHidden, revealSegments, type RevealSegment } from "@/lib/surface/reveal";
import { SURFACE_LISTS, type Surface, type SurfaceList } from "@/lib/surface/types";

export const SUSPICIOUS_KINDS = [
  "hidden_unicode",
  "ansi_escape",
  "markup",
  "instruction_phrase",
  "concealment_phrase",
  "tool_mention",
] as const;
export type SuspiciousKind = (typeof SUSPICIOUS_KINDS)[number];

/** One flag inside one string. Offsets are UTF-16 code units into that string, end exclusive. */
export type TextFlag = {
  kind: SuspiciousKind;
  /** e.g. `zero_width`, `bidi_control`, `tag_block`, `script`, `ignore_instructions`, the tool named. */
  detail: string;
  start: number;
  end: number;
  /** The flagged text exactly as sent. */
  excerpt: string;
  /** The same text with every hidden character made visible. */
  revealed: string;
};
export type SuspiciousFlag = TextFlag & {
  list: SurfaceList | "instructions";
  /** The item's sort key (name, uri or uriTemplate); "" for instructions. */
  key: string;
  /** Dotted path of the string inside the item, e.g. `inputSchema.properties.query.description`. */
  field: string;
};

type Pattern = { kind: "instruction_phrase" | "concealment_phrase"; detail: string; re: RegExp };
const PHRASES: Pattern[] = [
  {
    kind: "instruction_phrase",
    detail: "ignore_instructions",
    re: /\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?(?:previous|prior|above|earlier|preceding|other|system|original)\s+(?:instructions?|prompts?|messages?|rules|directions|context)\b/gi,
  },
  {
    kind: "instruction_phrase",
    detail: "new_instructions",
    re: /\b(?:new|updated|additional|hidden)\s+instructions?\b/gi,
  },
  { kind: "instruction_phrase", detail: "system_prompt", re: /\bsystem\s+prompt\b/gi },
  {
    kind: "instruction_phrase",
    detail: "role_override",
    re: /\b(?:you\s+are\s+now|act\s+as|pretend\s+to\s+be)\b/gi,
  },
  {
    kind: "instruction_phrase",
    detail: "imperative_to_model",
    re: /\b(?:you\s+(?:must|should|need\s+to|have\s+to)|(?:always|first|immediately)\s+(?:call|use|run|invoke|send|read|pass|include))\b/gi,
  },
  {
    kind: "instruction_phrase",
    detail: "addressed_to_model",
    re: /\b(?:ai\s+assistant|language\s+model|dear\s+(?:ai|agent|assistant)|note\s+to\s+(?:the\s+)?(?:ai|agent|assistant|model)|(?:to\s+)?the\s+(?:ai|agent|assistant|model)\s+reading\s+this)\b/gi,
  },
  {
    kind: "instruction_phrase",
    detail: "call_tool",
    re: /\b(?:call|invoke|run|use|trigger)\s+(?:the\s+)?[`'"]?[A-Za-z0-9_.-]+[`'"]?\s+tool\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "hide_from_user",
    re: /\b(?:do\s+not|don['’]t|never|not)\s+(?:tell|inform|mention|reveal|show|notify|alert|ask)\b(?:\s+(?:this|it|that|anything|about\s+this))?(?:\s+to)?\s+(?:the\s+)?users?\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "without_telling_user",
    re: /\bwithout\s+(?:telling|informing|notifying|alerting|asking|showing)\s+(?:the\s+)?users?\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "keep_secret",
    re: /\b(?:keep|hold)\s+(?:this|it|that)\s+(?:a\s+)?secret\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "user_must_not_know",
    re: /\bthe\s+users?\s+(?:must|should|need|does|do)\s*(?:not|n['’]t)\s+(?:know|see|notice|be\s+told)\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "covert",
    re: /\b(?:silently|secretly|covertly|quietly|discreetly)\b/gi,
  },
  {
    kind: "concealment_phrase",
    detail: "do_not_mention",
    re: /\b(?:do\s+not|don['’]t|never)\s+(?:mention|disclose|reveal)\b/gi,
  },
];

const ACTIVE_TAGS = new Set([
  "script",
  "img",
  "iframe",
  "svg",
  "object",
  "embed",
  "style",
  "link",
  "meta",
  "form",
  "input",
  "a",
  "base",
  "video",
  "audio",
  "body",
  "html",
]);
const TAG = /<\/?([A-Za-z][A-Za-z0-9:_-]*)(?:\s[^<>]*)?\/?>|<script\b/gi;
const EXTRA_MARKUP: { detail: string; re: RegExp }[] = [
  { detail: "javascript_url", re: /\bjavascript:/gi },
  { detail: "markdown_image", re: /!\[[^\]\n]{0,200}\]\([^)\s]{1,2000}\)/g },
];

function markupFlags(text: string): TextFlag[] {
  const out: TextFlag[] = [];
  for (const m of text.matchAll(TAG)) {
    const name = m[1] ?? "script";
    const lower = name.toLowerCase();
    const detail =
      lower === "script"
        ? "script"
        : ACTIVE_TAGS.has(lower) || /\son[a-z]+\s*=/i.test(m[0])
          ? "active_html"
          : /^[A-Z][A-Z_-]+$/.test(name)
            ? "instruction_tag"
            : "html_tag";
    out.push(flag("markup", detail, text, m.index, m.index + m[0].length));
  }
  for (const { detail, re } of EXTRA_MARKUP)
    for (const m of text.matchAll(re))
      out.push(flag("markup", detail, text, m.index, m.index + m[0].length));
  return out;
}

function flag(
  kind: SuspiciousKind,
  detail: string,
  text: string,
  start: number,
  end: number,
  revealed?: string,
): TextFlag {
  const excerpt = text.slice(start, end);
  return { kind, detail, start, end, excerpt, revealed: revealed ?? revealHidden(excerpt) };
}

/** Text with hidden runs removed, and for each kept char its offset in the original. */
function visibleText(segments: readonly RevealSegment[]): { text: string; map: number[] } {
  let text = "";
  const map: number[] = [];
  for (const s of segments) {
    if (s.kind !== "text") continue;
    text += s.text;
    for (let k = 0; k < s.text.length; k++) map.push(s.start + k);
  }
  return { text, map };
}

// Cheap pre-tests, so the common clean string costs three native regex scans: any character
// `classify` would flag (C0/C1 controls, invisibles, bidi, variation selectors, and any
// supplementary-plane char in U+E0000–U+E01FF or U+1D173–U+1D17A), any markup opener, any phrase.
const MAYBE_HIDDEN =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- code points listed on purpose
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|\udb40[\udc00-\uddff]|\ud834[\udd73-\udd7a]/;
const MAYBE_MARKUP = /<|javascript:|!\[/i;
const MAYBE_PHRASE = new RegExp(PHRASES.map((p) => p.re.source).join("|"), "i");

/** The ASCII a tag-character run spells, and for each decoded char the offset of its tag character. */
function decodeTagRun(text: string, start: number, end: number): { ascii: string; map: number[] } {
  let ascii = "";
  const map: number[] = [];
  for (let i = start; i < end;) {
    const cp = text.codePointAt(i)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) {
      ascii += String.fromCharCode(cp - 0xe0000);
      map.push(i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  return { ascii, map };
}

/** Tool mentions spelled in tag characters, at the offsets of the tag characters (each is two UTF-16 units). */
function tagMentionFlags(text: string, names: ToolNames): TextFlag[] {
  const out: TextFlag[] = [];
  for (const seg of revealSegments(text)) {
    if (seg.kind !== "hidden" || seg.cls !== "tag_block") continue;
    const { ascii, map } = decodeTagRun(text, seg.start, seg.end);
    for (const m of mentionFlags(ascii, names))
      out.push(flag("tool_mention", m.detail, text, map[m.start]!, map[m.end - 1]! + 2));
  }
  return out;
}

/**
 * The phrases hidden in a tag-character run: U+E0020–E007E spell ASCII that a model may read and a
 * person never sees, so the decoded text is scanned like visible text. Offsets point at the tag
 * characters that spell the phrase; the flag's revealed text is the decoded phrase.
 */
function tagPhraseFlags(text: string, segment: RevealSegment, out: TextFlag[]): void {
  const { ascii, map } = decodeTagRun(text, segment.start, segment.end);
  if (!MAYBE_PHRASE.test(ascii)) return;
  for (const p of PHRASES) {
    for (const m of ascii.matchAll(p.re)) {
      const start = map[m.index]!;
      const end = map[m.index + m[0].length - 1]! + 2;
      out.push(flag(p.kind, p.detail, text, start, end));
    }
  }
}

/** Every flag in one string, except tool mentions (those need the surface). */
export function scanText(text: string): TextFlag[] {
  if (!text) return [];
  const hasHidden = MAYBE_HIDDEN.test(text);
  const hasMarkup = MAYBE_MARKUP.test(text);
  if (!hasHidden && !hasMarkup && !MAYBE_PHRASE.test(text)) return [];
  const out: TextFlag[] = [];
  const segments: RevealSegment[] = hasHidden
    ? revealSegments(text)
    : [{ kind: "text", text, start: 0, end: text.length }];
  for (const s of segments) {
    if (s.kind !== "hidden") continue;
    out.push(
      s.cls === "ansi"
        ? flag("ansi_escape", "ansi", text, s.start, s.end, s.revealed)
        : flag("hidden_unicode", s.cls, text, s.start, s.end, s.revealed),
    );
  }
  if (hasHidden)
    for (const s of segments)
      if (s.kind === "hidden" && s.cls === "tag_block") tagPhraseFlags(text, s, out);
  if (hasMarkup) out.push(...markupFlags(text));
  const visible = hasHidden ? visibleText(segments) : null;
  const probe = visible ? visible.text : text;
  for (const p of PHRASES) {
    for (const m of probe.matchAll(p.re)) {
      const s = visible ? visible.map[m.index]! : m.index;
      const e = visible ? visible.map[m.index + m[0].length - 1]! + 1 : m.index + m[0].length;
      out.push(flag(p.kind, p.detail, text, s, e));
    }
  }
  return out.sort((x, y) => x.start - y.start || x.end - y.end);
}

const NO_FLAGS: readonly TextFlag[] = [];
/** A tag character (U+E0000–E007F) as UTF-16: high surrogate U+DB40, low U+DC00–DC7F. */
const HAS_TAG = /\udb40[\udc00-\udc7f]/;
const MIN_MENTION_LENGTH = 3;
/** Most levels of a schema walked for text; deeper values are not scanned (items deeper than 64 are rejected anyway). */
const MAX_WALK_DEPTH = 64;

// A plain tool name, and a token of text it is looked up as: [A-Za-z0-9_][A-Za-z0-9_./-]*, with
// trailing `./-` dropped (sentence punctuation). Scanned by char code: this runs over every string.
const isWordChar = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isTrailingChar = (c: number) => c === 46 || c === 47 || c === 45;
const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/;

type ToolNames = {
  plain: ReadonlySet<string>;
  longestPlain: number;
  /** 1 at each length a plain name has, and at each first character one starts with (all ASCII):
   * a token that misses either cannot be a name, so it is never cut out and looked up. */
  lengths: Uint8Array;
  firstChars: Uint8Array;
  odd: readonly string[];
};

/** Every mention of a tool name in `text` (the flag's detail is the name). */
function mentionFlags(text: string, names: ToolNames): readonly TextFlag[] {
  let out: TextFlag[] | null = null;
  for (let i = 0; i < text.length;) {
    if (!isWordChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (
      i < text.length &&
      (isWordChar(text.charCodeAt(i)) || isTrailingChar(text.charCodeAt(i)))
    )
      i++;
    let end = i;
    while (isTrailingChar(text.charCodeAt(end - 1))) end--;
    if (
      end - start >= MIN_MENTION_LENGTH &&
      end - start <= names.longestPlain &&
      names.lengths[end - start] === 1 &&
      names.firstChars[text.charCodeAt(start)] === 1
    ) {
      const token = text.slice(start, end);
      if (names.plain.has(token)) (out ??= []).push(flag("tool_mention", token, text, start, end));
    }
  }
  for (const name of names.odd) {
    for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + name.length)) {
      (out ??= []).push(flag("tool_mention", name, text, at, at + name.length));
    }
  }
  return out ?? NO_FLAGS;
}

function toolNames(surface: Surface): ToolNames {
  return namesOf(surface.tools.map((t) => t.name));
}

function namesOf(all: Iterable<string>): ToolNames {
  const plain = new Set<string>();
  const odd: string[] = [];
  let longestPlain = 0;
  for (const name of all) {
    if (name.length < MIN_MENTION_LENGTH) continue;
    if (PLAIN_NAME.test(name) && !isTrailingChar(name.charCodeAt(name.length - 1))) {
      plain.add(name);
      longestPlain = Math.max(longestPlain, name.length);
    } else odd.push(name);
  }
  const lengths = new Uint8Array(longestPlain + 1);
  const firstChars = new Uint8Array(128);
  for (const name of plain) {
    lengths[name.length] = 1;
    firstChars[name.charCodeAt(0)] = 1;
  }
  return { plain, longestPlain, lengths, firstChars, odd };
}

/** A string's flags and tool mentions, as scanSurface found them. */
type ScannedText = { flags: readonly TextFlag[]; mentions: readonly TextFlag[] };
/** Strings up to this long are scanned once per surface (keys, types, enum values); longer ones, each time. */
const MEMO_MAX_LENGTH = 64;

const NAME_FIELDS = new Set(["name", "uri", "uriTemplate", "mimeType"]);
const KEY_OF: Record<SurfaceList, string> = {
  tools: "name",
  resources: "uri",
  resourceTemplates: "uriTemplate",
  prompts: "name",
};

/**
 * Every flag in a surface, per item and field. Fields are dotted paths (`inputSchema.properties.q.description`,
 * `… (key)` for a property name); names, URIs and keys are scanned for hidden text but not for mentions.
 * One pass over the surface's text; a field's path is built only when the field flags, since most
 * strings are clean and a surface may hold 10,000 tools.
 */
export function scanSurface(surface: Surface): SuspiciousFlag[] {
  const names = toolNames(surface);
  const hasNames = names.plain.size > 0 || names.odd.length > 0;
  const out: SuspiciousFlag[] = [];
  let list: SurfaceList | "instructions" = "instructions";
  let key = "";
  let self: string | null = null; // a tool's mention of itself is not flagged
  const path: (string | number)[] = [];

  // What one short string flags, by its text: a surface repeats the same keys and values in every
  // item (`type`, `properties`, `"string"`), and both scans are pure functions of the text, so each
  // distinct string is scanned once and every occurrence still reports its own flags.
  const seen = [new Map<string, ScannedText>(), new Map<string, ScannedText>()] as const;
  const scanned = (text: string, isName: boolean): ScannedText => {
    const memo = text.length <= MEMO_MAX_LENGTH ? seen[isName ? 1 : 0] : null;
    let result = memo?.get(text);
    if (result) return result;
    const flags = scanText(text);
    let mentions = !isName && hasNames ? mentionFlags(text, names) : NO_FLAGS;
    if (!isName && hasNames && HAS_TAG.test(text))
      mentions = mentions.concat(tagMentionFlags(text, names));
    result = { flags, mentions };
    memo?.set(text, result);
    return result;
  };
  const scanString = (text: string, isName: boolean, isKey: boolean) => {
    const { flags, mentions } = scanned(text, isName);
    if (flags.length === 0 && mentions.length === 0) return;
    const field = path.join(".") + (isKey ? " (key)" : "");
    for (const t of flags) out.push({ ...t, list, key, field });
    for (const t of mentions) if (t.detail !== self) out.push({ ...t, list, key, field });
  };
  const walk = (value: unknown, depth: number): void => {
    if (depth > MAX_WALK_DEPTH) return;
    if (typeof value === "string") scanString(value, false, false);
    else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], depth + 1);
        path.pop();
      }
    } else if (value !== null && typeof value === "object") {
      for (const k of Object.keys(value)) {
        path.push(k);
        scanString(k, true, true);
        walk((value as Record<string, unknown>)[k], depth + 1);
        path.pop();
      }
    }
  };
  const scanItem = (item: Record<string, unknown>) => {
    for (const k of Object.keys(item)) {
      const v = item[k];
      path.push(k);
      if (typeof v === "string") scanString(v, NAME_FIELDS.has(k), false);
      else if (k === "arguments" && Array.isArray(v)) {
        v.forEach((arg: Record<string, unknown>, i) => {
          path.push(i, "name");
          if (typeof arg.name === "string") scanString(arg.name, true, false);
          path[path.length - 1] = "description";
          if (typeof arg.description === "string") scanString(arg.description, false, false);
          path.length -= 2;
        });
      } else walk(v, 0);
      path.pop();
    }
  };

  if (surface.instructions) scanItem({ instructions: surface.instructions });
  for (const l of SURFACE_LISTS) {
    list = l;
    for (const item of surface[l] as readonly Record<string, unknown>[]) {
      const k = item[KEY_OF[l]];
      key = typeof k === "string" ? k : "";
      self = l === "tools" ? key : null;
      scanItem(item);
    }
  }
  return out;
}

/** Counts per kind, for summaries. */
export function countFlags(
  flags: readonly { kind: SuspiciousKind }[],
): Record<SuspiciousKind, number> {
  const out = Object.fromEntries(SUSPICIOUS_KINDS.map((k) => [k, 0])) as Record<
    SuspiciousKind,
    number
  >;
  for (const f of flags) out[f.kind]++;
  return out;
}

/**
 * Every mention in `text` of one of `toolNames` (visible, or spelled in tag characters), for the
 * analysis, which knows the tools an agent holds across servers: a description on one server that
 * names a tool of another redirects calls across the session.
 */
export function toolMentions(
  text: string,
  toolNames: Iterable<string> | ToolNameIndex,
): TextFlag[] {
  const names = toolNames instanceof ToolNameIndex ? toolNames.names : namesOf(toolNames);
  if (!text || (names.plain.size === 0 && names.odd.length === 0)) return [];
  const out = mentionFlags(text, names).slice();
  if (HAS_TAG.test(text)) out.push(...tagMentionFlags(text, names));
  return out;
}

/** Tool names prepared once for many `toolMentions` calls over the same names. */
export class ToolNameIndex {
  readonly names: ToolNames;
  constructor(toolNames: Iterable<string>) {
    this.names = namesOf(toolNames);
  }
}
