/**
 * The hard-negative dev set (tests/detection/relay-dev/README.md): relay text written for this
 * repository that must not be flagged — support tickets asking a person to act, withdrawn mail,
 * runbooks, wiki how-tos, chat, bug reports and advisories that quote or describe an injection,
 * code answers that name a model. A dev set the context rules were written against, not a measure
 * of generalization (docs/detection.md prints the held-out figures).
 *
 * The bound is computed, not copied from a run: the same detector without the context rules
 * (`context: false`, lib/detection/context.ts) is measured on the same texts, and the false-positive
 * rate with them must stay at or under the low end of that rate's 95 % interval — the rules must
 * remove more false positives than chance could explain, and keep doing so.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { wilson } from "@/lib/detection/counts";
import { detect } from "@/lib/detection/detect";

type Row = { kind: string; text: string };
const read = (file: string): Row[] =>
  readFileSync(path.join(import.meta.dirname, "relay-dev", file), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
const rows = read("hard-negatives.jsonl");
const planted = read("planted.jsonl");

describe("hard-negative relay dev set", () => {
  it("has at least 60 texts across tickets, mail, runbooks, wiki, chat, bug reports, advisories and code", () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
    const kinds = new Set(rows.map((r) => r.kind));
    for (const k of ["ticket", "mail", "runbook", "wiki", "chat", "bug", "advisory", "code"])
      expect(kinds).toContain(k);
  });

  it("false positives with the context rules stay under the low end of the interval without them", () => {
    const without = rows.filter((r) => detect(r.text, { context: false }).flagged).length;
    const flagged = rows.filter((r) => detect(r.text).flagged);
    const bound = wilson(without, rows.length).low;
    const rate = flagged.length / rows.length;
    expect(
      rate,
      `${flagged.length}/${rows.length} flagged (without the context rules ${without}); bound ${bound.toFixed(3)}:\n` +
        flagged.map((r) => `[${r.kind}] ${r.text.slice(0, 80)}`).join("\n"),
    ).toBeLessThanOrEqual(bound);
  });

  it("the context rules remove no detection of the planted paragraphs and social-engineering tickets", () => {
    // Every planted text the detector finds without the rules, it finds with them.
    const lost = planted.filter(
      (r) => detect(r.text, { context: false }).flagged && !detect(r.text).flagged,
    );
    expect(lost.map((r) => r.text.slice(0, 80))).toEqual([]);
    expect(planted.filter((r) => detect(r.text).flagged).length).toBeGreaterThan(
      planted.length / 2,
    );
  });
});
