/**
 * Markdown that cannot be hijacked by the text it carries. Every server- or reviewer-authored
 * string goes through `mdText` (the punctuation that forms emphasis, code, links, images, HTML,
 * entities, tables, strikethrough and math is backslash-escaped, as CommonMark allows for any
 * ASCII punctuation, and so are list, heading and setext markers at the start) or `mdCode` (a code
 * span whose fence is longer than any backtick run inside). Line breaks are folded so text cannot
 * start a new block, and invisible or control characters are shown as `[U+XXXX]` so a reader sees
 * what is there. Ordinary punctuation (, . - ' : /) is left alone so a pasted report stays
 * readable where Markdown is not rendered; a bare URL may still be autolinked, showing itself. Pure.
 */

const INVISIBLE =
  // eslint-disable-next-line no-control-regex -- these are the characters to make visible
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;
/** Brackets are escaped, so `(`/`)` cannot complete a link; `+`, `-`, `=` and `1.` matter only at the start. */
const MARKDOWN_SPECIALS = /[\\`*_{}[\]#!|<>~&$]/g;

const visible = (s: string) =>
  s.replace(
    INVISIBLE,
    (c) => `[U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}]`,
  );
const oneLine = (s: string) => s.replace(/\r\n?|\n/g, " ");

/** Inline text: one line, Markdown specials escaped, invisible characters shown. */
export function mdText(s: string): string {
  return visible(oneLine(s))
    .replace(MARKDOWN_SPECIALS, (c) => `\\${c}`)
    .replace(/^(\s*)([-+=])/, "$1\\$2")
    .replace(/^(\s*\d+)([.)])/, "$1\\$2");
}

/** A code span showing `s` literally (a name, a hash, a URI). Not for table cells (a pipe would split the cell). */
export function mdCode(s: string): string {
  const text = visible(oneLine(s));
  if (text === "") return "` `";
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad =
    text.startsWith("`") ||
    text.endsWith("`") ||
    (text.startsWith(" ") && text.endsWith(" ") && text.trim() !== "")
      ? " "
      : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Multi-line text as a blockquote, each line escaped; an empty line stays inside the quote. */
export function mdQuote(s: string): string {
  return s
    .split(/\r\n?|\n/)
    .map((line) => (line.trim() === "" ? ">" : `> ${mdText(line)}`))
    .join("\n");
}
