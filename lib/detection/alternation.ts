/**
 * A pattern's lists of words written as prefix trees (issue 31): `(?:note|notice|nota)` becomes
 * `(?:no(?:t(?:e|ice|a)))`. V8 tries each alternative of a list at every position it scans, and
 * the patterns addressed to an AI hold lists of a hundred words in ten languages; sharing their
 * prefixes, it reads each character once per branch (about a quarter less time for such a pattern
 * on 10 kB of relay prose).
 *
 * The same matches at the same places, of the same lengths: only alternatives that start with the
 * same literal character are joined, and two alternatives starting with different literal
 * characters cannot both match at one position, so moving one past the other changes no choice V8
 * makes. An alternative that could match together with others (an empty one, or one opening with
 * anything but a literal character: `\s+`, a class, a group) keeps its place: the lists on either
 * side of it are joined apart. Only `(?:…)` groups of literal text are rewritten (literal
 * characters, escaped punctuation and `\s+`, no quantifier on a character); everything else is
 * copied as written. A pattern with the i flag is refused (its literals match other cases).
 */

/** A piece of literal text: its source, and the character it stands for (null: `\s+`, not a character). */
type Piece = { source: string; char: string | null };

/** Characters with a meaning of their own in a pattern. */
const SYNTAX = new Set([..."\\^$.|?*+()[]{}"]);
const QUANTIFIER = new Set([..."?*+{"]);

export function trieAlternations(re: RegExp): RegExp {
  if (!re.flags.includes("u") || re.flags.includes("i"))
    throw new Error(`trie: /${re.source.slice(0, 60)}/ is not a u-flag pattern without i`);
  return new RegExp(rewrite(re.source), re.flags);
}

/** The source with each group of literal alternatives as a prefix tree. */
export function rewrite(source: string): string {
  let out = "";
  for (let i = 0; i < source.length;) {
    const ch = source[i]!;
    if (ch === "\\") {
      out += source.slice(i, i + 2);
      i += 2;
    } else if (ch === "[") {
      const end = classEnd(source, i);
      out += source.slice(i, end);
      i = end;
    } else if (source.startsWith("(?:", i)) {
      const end = groupEnd(source, i);
      const inner = rewrite(source.slice(i + 3, end));
      const alternatives = literalAlternatives(inner);
      out += `(?:${alternatives === null || alternatives.length < 2 ? inner : tree(alternatives)})`;
      i = end + 1;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

/** Where the class opening at `at` ends (just past its `]`). */
function classEnd(source: string, at: number): number {
  let j = at + 1;
  while (source[j] !== "]") {
    if (j >= source.length) throw new Error(`trie: an open class in /${source.slice(0, 60)}/`);
    j += source[j] === "\\" ? 2 : 1;
  }
  return j + 1;
}

/** Where the group opening at `at` closes (the index of its `)`). */
function groupEnd(source: string, at: number): number {
  let depth = 0;
  for (let j = at; j < source.length;) {
    const ch = source[j]!;
    if (ch === "\\") j += 2;
    else if (ch === "[") j = classEnd(source, j);
    else {
      if (ch === "(") depth++;
      else if (ch === ")" && --depth === 0) return j;
      j++;
    }
  }
  throw new Error(`trie: an open group in /${source.slice(0, 60)}/`);
}

/** The top-level alternatives of `source` as pieces of literal text, or null when one is anything else. */
function literalAlternatives(source: string): Piece[][] | null {
  const alternatives: Piece[][] = [[]];
  for (let i = 0; i < source.length;) {
    const ch = source[i]!;
    let piece: Piece;
    if (ch === "|") {
      alternatives.push([]);
      i++;
      continue;
    }
    if (source.startsWith(String.raw`\s+`, i)) {
      piece = { source: String.raw`\s+`, char: null };
      i += 3;
    } else if (ch === "\\") {
      const e = source[i + 1];
      // Only escaped punctuation is a literal character here (`\.`, `\-`): not `\b`, `\d`, `\p{…}`.
      if (e === undefined || /[A-Za-z0-9]/u.test(e)) return null;
      piece = { source: `\\${e}`, char: e };
      i += 2;
    } else if (SYNTAX.has(ch)) return null;
    else {
      const c = String.fromCodePoint(source.codePointAt(i)!);
      piece = { source: c, char: c };
      i += c.length;
    }
    // A quantified character is not literal text (`\s+` is read whole above).
    if (QUANTIFIER.has(source[i] ?? "")) return null;
    alternatives[alternatives.length - 1]!.push(piece);
  }
  return alternatives;
}

/** Alternatives (pieces of literal text) as one prefix tree, in the order V8 would try them. */
function tree(alternatives: Piece[][]): string {
  const out: string[] = [];
  // Alternatives opening with a character, by that character, in order of first appearance.
  let byFirst = new Map<string, Piece[][]>();
  const flush = () => {
    for (const [, group] of byFirst) {
      if (group.length === 1) {
        out.push(text(group[0]!));
        continue;
      }
      // The characters they all open with, as one head ("instruction" of "instruction|instructions").
      const charAt = (a: Piece[], k: number) => a[k]?.char ?? null;
      let shared = 1;
      while (
        charAt(group[0]!, shared) !== null &&
        group.every((a) => charAt(a, shared) === charAt(group[0]!, shared))
      )
        shared++;
      const head = text(group[0]!.slice(0, shared));
      out.push(`${head}(?:${tree(group.map((alternative) => alternative.slice(shared)))})`);
    }
    byFirst = new Map();
  };
  for (const alternative of alternatives) {
    const first = alternative[0];
    if (first === undefined || first.char === null) {
      // It may match where others do: the lists before and after it stay apart.
      flush();
      out.push(text(alternative));
      continue;
    }
    const group = byFirst.get(first.char);
    if (group) group.push(alternative);
    else byFirst.set(first.char, [alternative]);
  }
  flush();
  return out.join("|");
}

const text = (pieces: Piece[]) => pieces.map((p) => p.source).join("");
