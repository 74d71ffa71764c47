/**
 * What one sampled response says about `returns_untrusted_text` (issue 32): whether free text came
 * back, and in which fields. A tool's surface often cannot say it: `list_projects` returns the
 * descriptions members wrote on one product and only names on another, and the labels (and a
 * reviewer) decide by what the product's API returns. A sample run on the real system shows it.
 *
 * Evidence, not a verdict: one sample can miss text (an empty list, a record nobody described), and
 * a short title someone typed looks like a name an admin chose. So prose counts only where a value
 * reads as a sentence, the fields it came in are named for the reviewer to judge, and nothing here
 * changes a role.
 *
 * Everything read here is the server's (attacker-controlled) text: the walk is bounded in values,
 * depth and characters, and the field paths it reports are cut and have hidden characters revealed.
 */
import { revealHidden } from "@/lib/detection/text";
import { utcMinute } from "@/lib/format/utc-time";
import { MAX_SAMPLE_FIELDS, type SampleEvidence } from "@/lib/review/schema";

/** A field that carried prose: its path (`items[].description`), how many values, the longest. */
export interface ProseField {
  path: string;
  values: number;
  longestWords: number;
}

export type SampledText =
  /** At least one value reads as prose written by someone. */
  | { kind: "prose"; fields: ProseField[]; values: number }
  /** Text came back, and every value is an id, a name, a date, a figure or an address. */
  | { kind: "names_only"; values: number; longestWords: number }
  /** No text value came back (an empty list, an image, an error without text). */
  | { kind: "no_text" };

/** Values read, nesting followed, and characters parsed as JSON: a server's answer cannot drive more. */
const MAX_VALUES = 20_000;
/** Objects and arrays opened, empty or not: `[[],[],…]` has no value to count but still costs a step. */
const MAX_NODES = 100_000;
const MAX_DEPTH = 48;
const MAX_JSON_CHARS = 2_000_000;
/** Fields named in the result; the rest are still counted. */
const MAX_FIELDS = 6;
const MAX_PATH_CHARS = 80;

/** Words with a letter in them: ids, figures and punctuation are not words someone wrote. */
const wordsOf = (value: string) =>
  value.split(/\s+/).filter((w) => /\p{L}/u.test(w) && !/^https?:\/\//i.test(w)).length;

/**
 * Prose: a sentence someone wrote, not a name. Six words or more ("Customers cannot log in since
 * the update"), or four or more ending a sentence ("It works for me now."). A name an admin chose
 * is rarely six words long and does not end a sentence ("Acme Holdings Corp." is three words).
 */
export function isProse(value: string): boolean {
  const words = wordsOf(value);
  if (words >= 6) return true;
  return words >= 4 && /\p{Ll}[.!?]["')\]]*\s*$/u.test(value.trim());
}

/** A formatted text line is prose only if it is longer than a server's own heading ("Found 3 projects:"). */
const isProseLine = (line: string) => wordsOf(line) >= 8 && !/:\s*$/.test(line);

/** A UTF-16 surrogate with no partner: not Unicode, and refused by PostgreSQL's jsonb and RFC 8785. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A path as the reviewer reads it and the review stores it: hidden characters and lone surrogates
 * revealed, then cut without splitting a surrogate pair.
 */
const shownPath = (path: string) => {
  const revealed = revealHidden(path || "(the whole value)").replace(
    LONE_SURROGATE,
    (m) => `⟨U+${m.charCodeAt(0).toString(16).toUpperCase()}⟩`,
  );
  if (revealed.length <= MAX_PATH_CHARS) return revealed;
  const cut = revealed.slice(0, MAX_PATH_CHARS - 1);
  return `${/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut}…`;
};

class Reader {
  private values = 0;
  private nodes = 0;
  private longestWords = 0;
  private readonly prose = new Map<string, ProseField>();

  get full() {
    return this.values >= MAX_VALUES || this.nodes >= MAX_NODES;
  }

  private record(path: string, value: string, prose: boolean) {
    this.values++;
    const words = wordsOf(value);
    this.longestWords = Math.max(this.longestWords, words);
    if (!prose) return;
    const field = this.prose.get(path) ?? { path: shownPath(path), values: 0, longestWords: 0 };
    field.values++;
    field.longestWords = Math.max(field.longestWords, words);
    this.prose.set(path, field);
  }

  /** A JSON value, walked without recursion: arrays' indices become `[]` in the path. */
  json(root: unknown, rootPath: string) {
    const stack: { value: unknown; path: string; depth: number }[] = [
      { value: root, path: rootPath, depth: 0 },
    ];
    while (stack.length && !this.full) {
      const { value, path, depth } = stack.pop()!;
      this.nodes++;
      if (typeof value === "string") {
        if (value.trim()) this.record(path, value, isProse(value));
      } else if (value && typeof value === "object" && depth < MAX_DEPTH) {
        const entries = Array.isArray(value)
          ? value.slice(0, MAX_VALUES).map((v) => [`${path}[]`, v] as const)
          : Object.entries(value)
              .slice(0, MAX_VALUES)
              .map(([k, v]) => [path ? `${path}.${k}` : k, v] as const);
        for (let i = entries.length - 1; i >= 0; i--)
          stack.push({ value: entries[i]![1], path: entries[i]![0], depth: depth + 1 });
      }
    }
  }

  /** A text block: JSON when it parses as an object or array, else formatted text read line by line. */
  text(text: string, path: string) {
    const trimmed = text.trim();
    if (!trimmed) return;
    if (/^[[{]/.test(trimmed) && trimmed.length <= MAX_JSON_CHARS) {
      try {
        this.json(JSON.parse(trimmed), "");
        return;
      } catch {
        // Not JSON after all: read it as text.
      }
    }
    for (const line of trimmed.split(/\r?\n/)) {
      if (this.full) return;
      if (line.trim()) this.record(path, line, isProseLine(line));
    }
  }

  result(): SampledText {
    if (this.values === 0) return { kind: "no_text" };
    if (this.prose.size === 0)
      return { kind: "names_only", values: this.values, longestWords: this.longestWords };
    const fields = [...this.prose.values()]
      .sort((a, b) => b.values - a.values || b.longestWords - a.longestWords)
      .slice(0, MAX_FIELDS);
    return { kind: "prose", fields, values: this.values };
  }
}

const blocks = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v)
    ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === "object").slice(0, 1000)
    : [];

/**
 * Read a `tools/call` result (its text blocks, embedded resources' text and structured content) or a
 * `resources/read` result (its contents' text) for free text.
 */
export function readSampledText(
  method: "tools/call" | "resources/read",
  result: Record<string, unknown>,
): SampledText {
  const reader = new Reader();
  if (method === "tools/call") {
    // Structured content is the same answer as data; when it is there, it names the fields.
    if (result.structuredContent && typeof result.structuredContent === "object")
      reader.json(result.structuredContent, "");
    else
      for (const block of blocks(result.content)) {
        if (typeof block.text === "string") reader.text(block.text, "(text)");
        const resource = block.resource as Record<string, unknown> | undefined;
        if (resource && typeof resource.text === "string") reader.text(resource.text, "(resource)");
      }
  } else
    for (const c of blocks(result.contents))
      if (typeof c.text === "string") reader.text(c.text, "(text)");
  return reader.result();
}

/**
 * What the sample means for the review's assessment of the item, in one sentence for the reviewer:
 * prose where the review does not say returned text is a reason to add the role; no prose where it
 * does is not a reason to drop it on its own (one sample can miss text).
 */
export function sampledTextAdvice(
  evidence: { kind: SampledText["kind"] },
  assessedAsText: boolean,
): string {
  if (evidence.kind === "no_text")
    return "Nothing came back to judge: sample it again with arguments that return records.";
  if (evidence.kind === "prose")
    return assessedAsText
      ? "Prose came back, as the review's returns_untrusted_text says."
      : "Prose came back, and the review does not give this item returns_untrusted_text: if people outside the trust boundary can write these fields, add the role under Agents & tool sets.";
  return assessedAsText
    ? "No prose in this sample. One sample can miss it (a record nobody described): keep returns_untrusted_text unless the product's API says these objects carry no free text."
    : "No prose in this sample, as the review's assessment says.";
}

/**
 * What the review keeps of a sample (lib/review/schema.ts SampleEvidenceSchema): when, by whom, the
 * kind, and for prose the first MAX_SAMPLE_FIELDS fields (the most values first) with their counts.
 */
export function sampleEvidenceOf(evidence: SampledText, at: Date, by: string): SampleEvidence {
  return {
    at: at.toISOString(),
    by,
    kind: evidence.kind,
    ...(evidence.kind === "prose"
      ? {
          fields: evidence.fields
            .slice(0, MAX_SAMPLE_FIELDS)
            .map((f) => ({ path: f.path, values: f.values })),
        }
      : {}),
  };
}

/** A sample's kind in words, as the roles table and the History line say it. */
export const SAMPLE_KIND_LABEL: Record<SampleEvidence["kind"], string> = {
  prose: "prose",
  names_only: "names only",
  no_text: "no text",
};

const plural = (n: number, one: string) =>
  `${n.toLocaleString("en-US")} ${one}${n === 1 ? "" : "s"}`;

/** "Sampled 7 Dec 2026, 14:02 UTC by alice: prose in items[].description (2 values)", or "…: names only". */
export function sampleEvidenceLine(sample: SampleEvidence): string {
  const fields = sample.fields ?? [];
  const where = fields.map((f) => `${f.path} (${plural(f.values, "value")})`).join(", ");
  const what = `${SAMPLE_KIND_LABEL[sample.kind]}${where ? ` in ${where}` : ""}`;
  return `Sampled ${utcMinute(sample.at)} by ${sample.by}: ${what}`;
}

/**
 * Whether a sample disagrees with the item's returns_untrusted_text: prose where the role is
 * absent, or no prose (names only, nothing) where it is present. Said to the reviewer with
 * sampledTextAdvice; it changes no role.
 */
export function sampleDisagrees(sample: Pick<SampleEvidence, "kind">, assessedAsText: boolean) {
  return (sample.kind === "prose") !== assessedAsText;
}
