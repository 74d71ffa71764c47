/**
 * Visible labels that never repeat within a column of the graph. A label cut to its box can read
 * the same as its neighbour's ("returned by create_issue…" for `create_issue`, `create_issue_note`
 * and `create_issue_link`), and a reader then cannot tell which node is which. Pure: widths come
 * from `measure`. The full text stays in the node's tooltip, its accessible name and the tables.
 *
 * Per column, because the same tool is drawn once as a returning tool and once as a sink by design.
 * In order, each label is the first of these that no other label of its column already shows:
 * 1. the text fitted to its box with a trailing ellipsis (`fitText`), after switching to the
 *    qualified text (e.g. with the server's name) when another node's full text is the same;
 * 2. a middle ellipsis keeping the part that differs: the head, "…", then the text from the word
 *    where it departs from the texts it collided with, cut at its end if that is still too wide;
 * 3. the fitted text with a number after it (" ·2", " ·3", …), which always ends the search: a
 *    column of n labels rules out at most n of them.
 */
import { fitText } from "./fit-text";

export type LabelRequest = {
  key: string;
  /** Labels need only differ within their column. */
  column: number;
  text: string;
  /** A longer text naming what tells this node apart (its server, its source), used when another node has the same `text`. */
  qualified?: string;
  /** Drawn right after the label and part of what the reader sees (a group's count); not cut. */
  after?: string;
  px: number;
  /** An opaque font key passed to `measure`. */
  font: string;
};

type Measure = (text: string, font: string) => number;
type Fit = (text: string, px: number, font: string) => string;

const ELLIPSIS = "…";

/** Where a word starts: after a separator, or at a capital after a lower-case letter (camelCase). */
const SEPARATOR = /[\s_\-./:]/;
function wordStart(text: string, at: number): number {
  let i = Math.min(at, text.length - 1);
  while (
    i > 0 &&
    !SEPARATOR.test(text[i - 1]!) &&
    !(/[A-Z]/.test(text[i]!) && /[a-z]/.test(text[i - 1]!))
  )
    i--;
  return i > 0 ? i : Math.min(at, text.length - 1);
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * `text` with its middle cut: the longest head that fits before "…" and the tail from `from`
 * (the first character that tells it apart). When even a one-character head leaves no room for
 * the whole tail, the label is "…" and the tail fitted with an ellipsis at its end.
 */
export function middleEllipsis(
  text: string,
  from: number,
  px: number,
  measure: (t: string) => number,
): string {
  const tail = text.slice(from);
  if (measure(text) <= px) return text;
  const withHead = (h: number) => `${text.slice(0, h)}${ELLIPSIS}${tail}`;
  if (from < 1 || measure(withHead(1)) > px)
    return `${ELLIPSIS}${fitText(tail, Math.max(0, px - measure(ELLIPSIS)), measure)}`;
  let lo = 1;
  let hi = Math.min(from, text.length - tail.length) - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(withHead(mid)) <= px) lo = mid;
    else hi = mid - 1;
  }
  return withHead(lo);
}

/** Visible label per request key, unique within each column (see the module comment for the order of attempts). */
export function distinctLabels(
  requests: readonly LabelRequest[],
  measure: Measure,
  fit: Fit = (t, px, font) => fitText(t, px, (s) => measure(s, font)),
): Map<string, string> {
  const out = new Map<string, string>();
  const byColumn = new Map<number, LabelRequest[]>();
  for (const r of requests) {
    const list = byColumn.get(r.column);
    if (list) list.push(r);
    else byColumn.set(r.column, [r]);
  }
  for (const column of byColumn.values()) {
    const textCount = new Map<string, number>();
    for (const r of column) textCount.set(r.text, (textCount.get(r.text) ?? 0) + 1);
    const textOf = (r: LabelRequest) =>
      (textCount.get(r.text) ?? 0) > 1 && r.qualified ? r.qualified : r.text;
    const shown = (r: LabelRequest, label: string) => `${label}${r.after ?? ""}`;

    // First attempt for every label, then the labels two or more requests share.
    const first = column.map((r) => fit(textOf(r), r.px, r.font));
    const seen = new Map<string, number[]>();
    column.forEach((r, i) => {
      const k = shown(r, first[i]!);
      const list = seen.get(k);
      if (list) list.push(i);
      else seen.set(k, [i]);
    });
    const used = new Set<string>();
    const clashing: number[] = [];
    column.forEach((r, i) => {
      if (seen.get(shown(r, first[i]!))!.length === 1) {
        out.set(r.key, first[i]!);
        used.add(shown(r, first[i]!));
      } else clashing.push(i);
    });
    for (const i of clashing) {
      const r = column[i]!;
      const text = textOf(r);
      const m = (t: string) => measure(t, r.font);
      const rivals = seen
        .get(shown(r, first[i]!))!
        .filter((j) => j !== i)
        .map((j) => textOf(column[j]!));
      // The tail starts at the word holding the first character that differs (or the last word,
      // when this text is a prefix of a rival's), so "…issue" and "…issue_note" read as names.
      const from = wordStart(
        text,
        rivals.reduce((n, o) => Math.max(n, commonPrefix(text, o)), 0),
      );
      let label = middleEllipsis(text, from, r.px, m);
      for (let n = 2; used.has(shown(r, label)); n++) {
        const suffix = ` ·${n}`;
        label = `${fit(text, Math.max(0, r.px - m(suffix)), r.font)}${suffix}`;
      }
      out.set(r.key, label);
      used.add(shown(r, label));
    }
  }
  return out;
}
