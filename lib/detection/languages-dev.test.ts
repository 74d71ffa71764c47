import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detect } from "./detect";
import type { Model } from "./model";

// Recall and false positives per language on the self-written relay dev set
// (tests/detection/relay-dev/README.md). It is a dev set: the rules were written with it in view,
// so these figures say the detector still does what it did when the rules were tuned, not how it
// does on relay text nobody here has seen. The thresholds are stated here and checked against
// figures computed from the file, text by text.

/** A model that scores every window 0: what the rules say without it. */
const ZERO_MODEL: Model = {
  weights: new Float32Array(1 << 17),
  bias: -50,
  threshold: 0.5,
  forModelThreshold: 0.5,
  provenance: {},
};

type Row = { lang: string; format: string; label: "attack" | "clean"; note: string; text: string };

const file = path.join(__dirname, "../../tests/detection/relay-dev/relay-dev.jsonl");
const rows: Row[] = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Row);

/** The tools the agent holds, as the gate passes them: those the payloads name, and others. */
const TOOLS = [
  "send_email",
  "create_payment",
  "export_contacts",
  "transfer_funds",
  "run_command",
  "create_user",
  "github_admin",
  "create_webhook",
  "search_tickets",
];

const LANGS = ["de", "fr", "es", "pt", "it", "nl", "ja", "zh", "ru", "en"];
/** Per language: recall at least this, false-positive rate at most this (7 texts a side, 6 in English: at most 2 clean texts flagged). */
const MIN_RECALL = 0.85;
const MAX_FALSE_POSITIVE = 0.34;
/** Over the whole set. */
const MIN_RECALL_ALL = 0.95;
const MAX_FALSE_POSITIVE_ALL = 0.1;

type Tally = { caught: number; attacks: number; flaggedClean: number; clean: number };

function tally(): Map<string, Tally> {
  const per = new Map<string, Tally>();
  for (const row of rows) {
    const t = per.get(row.lang) ?? { caught: 0, attacks: 0, flaggedClean: 0, clean: 0 };
    const flagged = detect(row.text, { tools: TOOLS }).flagged;
    if (row.label === "attack") {
      t.attacks++;
      if (flagged) t.caught++;
    } else {
      t.clean++;
      if (flagged) t.flaggedClean++;
    }
    per.set(row.lang, t);
  }
  return per;
}

describe("relay dev set (self-written; dev figures, not a measure of generalization)", () => {
  it("has at least 120 texts, attacks and clean texts in equal numbers in every language", () => {
    expect(rows.length).toBeGreaterThanOrEqual(120);
    for (const lang of LANGS) {
      const attacks = rows.filter((r) => r.lang === lang && r.label === "attack").length;
      const clean = rows.filter((r) => r.lang === lang && r.label === "clean").length;
      expect(attacks, lang).toBeGreaterThanOrEqual(6);
      expect(clean, lang).toBe(attacks);
    }
  });

  it(`recall ≥ ${MIN_RECALL} and false positives ≤ ${MAX_FALSE_POSITIVE} in every language`, () => {
    const per = tally();
    const table = LANGS.map((lang) => {
      const t = per.get(lang)!;
      return `${lang}: recall ${t.caught}/${t.attacks}, false positives ${t.flaggedClean}/${t.clean}`;
    });
    for (const lang of LANGS) {
      const t = per.get(lang)!;
      expect(t.caught / t.attacks, table.join("\n")).toBeGreaterThanOrEqual(MIN_RECALL);
      expect(t.flaggedClean / t.clean, table.join("\n")).toBeLessThanOrEqual(MAX_FALSE_POSITIVE);
    }
    const all = [...per.values()].reduce(
      (a, t) => ({
        caught: a.caught + t.caught,
        attacks: a.attacks + t.attacks,
        flaggedClean: a.flaggedClean + t.flaggedClean,
        clean: a.clean + t.clean,
      }),
      { caught: 0, attacks: 0, flaggedClean: 0, clean: 0 },
    );
    expect(all.caught / all.attacks, table.join("\n")).toBeGreaterThanOrEqual(MIN_RECALL_ALL);
    expect(all.flaggedClean / all.clean, table.join("\n")).toBeLessThanOrEqual(
      MAX_FALSE_POSITIVE_ALL,
    );
  });

  it("no rule signal alone flags a clean text (what remains is the trained model's)", () => {
    const fired: string[] = [];
    for (const row of rows.filter((r) => r.label === "clean")) {
      const v = detect(row.text, { tools: TOOLS });
      const rules = v.reasons.filter((r) => r.signal !== "model");
      // A rule reason that reaches the flag on its own is listed with the text it fired on.
      const alone = detect(row.text, { tools: TOOLS, model: ZERO_MODEL });
      if (alone.flagged)
        fired.push(`${row.lang} ${row.note}: ${rules.map((r) => r.detail).join("; ")}`);
    }
    expect(fired).toEqual([]);
  });
});
