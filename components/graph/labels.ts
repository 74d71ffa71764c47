/**
 * Visible labels that never repeat within a column of the graph. A label cut to its box can read
 * the same as its neighbour's ("returned by create_issue…" for `create_issue`, `create_issue_note`
 * and `create_issue_link`), and a reader then cannot tell which node is which. Pure: widths come
 * from `measure`. The full text stays in the node's tooltip, its title, its accessible name and the
 * tables.
 *
 * Labels are always cut at their end: a reader scans a column by how names start, and a middle cut
 * ("cr…request_review") hid the start they scan by. Per column, because the same tool is drawn
 * once as a returning tool and once as a sink by design. In order, each label is the first of these
 * that no other label of its column already shows:
 * 1. the text fitted to its box with a trailing ellipsis (`fitText`), after switching to the
 *    qualified text (e.g. with the server's name) when another node's full text is the same;
 * 2. the fitted text with a number after it (" ·1", " ·2", …) for each of the labels that read
 *    alike, in column order, which always ends the search: a column of n labels rules out at most
 *    n of them.
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
    // Labels that read alike are numbered in column order, each cut at its end to leave room.
    const nth = new Map<string, number>();
    for (const i of clashing) {
      const r = column[i]!;
      const text = textOf(r);
      const m = (t: string) => measure(t, r.font);
      const alike = shown(r, first[i]!);
      let n = nth.get(alike) ?? 0;
      let label: string;
      do {
        n++;
        const suffix = ` ·${n}`;
        label = `${fit(text, Math.max(0, r.px - m(suffix)), r.font)}${suffix}`;
      } while (used.has(shown(r, label)));
      nth.set(alike, n);
      out.set(r.key, label);
      used.add(shown(r, label));
    }
  }
  return out;
}
