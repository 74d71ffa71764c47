/**
 * Coverage of the control catalog: every control (and every catalogued non-control) carries a
 * source link whose quote is in the seed, and is cited by at least one test title as
 * `[control:<id>]` / `[not-control:<id>]`. A control nobody tests, or nobody can trace to its
 * source, fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SEED_CONTROLS } from "@/tests/support/seed-controls";
import { describe, expect, it, test } from "vitest";
import { CONTROL_POSITIONS, NOT_CONTROLS } from "./catalog";
import { CONTROL_CATALOG, CONTROL_IDS } from "./registry";

const root = path.resolve(import.meta.dirname, "../..");
// The seed ships in docs/seed/ so this test never depends on a folder outside the checkout.
const seedPath = path.resolve(root, "docs/seed/002_e2f23ab2b6b209f1.txt");
const sharedSeedPath = path.resolve(root, "..", "shared/seed/002_e2f23ab2b6b209f1.txt");

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(p);
    return e.name.endsWith(".test.ts") ? [p] : [];
  });
}
const corpus = ["lib/analysis", "lib/controls", "lib/roles"]
  .flatMap((d) => testFiles(path.join(root, d)))
  .filter((f) => !f.endsWith("catalog.test.ts"))
  .map((f) => readFileSync(f, "utf8"))
  .join("\n");

describe("control catalog", () => {
  it("holds the seed's four controls, one per position of the path, and only separation can cut it", () => {
    expect(CONTROL_CATALOG.map((c) => c.id)).toEqual([...CONTROL_IDS]);
    const seed = SEED_CONTROLS.map((c) => c.entry);
    for (const entry of seed) expect(CONTROL_CATALOG).toContain(entry);
    expect(seed.map((c) => c.sitsAt).sort()).toEqual([...CONTROL_POSITIONS].sort());
    expect(CONTROL_CATALOG.filter((c) => c.canCutPath).map((c) => c.id)).toEqual(["separation"]);
  });

  test.each(CONTROL_CATALOG.map((c) => [c.id, c] as const))("%s is cited by a test", (id) => {
    expect(corpus.includes(`[control:${id}]`), `no test title cites [control:${id}]`).toBe(true);
  });

  test.each(NOT_CONTROLS.map((c) => [c.id] as const))("non-control %s is cited by a test", (id) => {
    expect(corpus.includes(`[not-control:${id}]`), `no test title cites [not-control:${id}]`).toBe(
      true,
    );
  });

  test.each([...CONTROL_CATALOG, ...NOT_CONTROLS].map((c) => [c.id, c.source] as const))(
    "%s has a source link",
    (_id, source) => {
      expect(source.document).toBe("shared/seed/002_e2f23ab2b6b209f1.txt");
      expect(source.section.length).toBeGreaterThan(0);
      expect(source.quote.length).toBeGreaterThan(10);
    },
  );

  it("the shipped seed is the shared one, where the shared folder is present", () => {
    const shipped = readFileSync(seedPath, "utf8");
    expect(shipped.length).toBeGreaterThan(10_000);
    if (existsSync(sharedSeedPath)) expect(shipped).toBe(readFileSync(sharedSeedPath, "utf8"));
  });

  it("every quoted source sentence is in the seed, under its section", () => {
    const seed = readFileSync(seedPath, "utf8");
    for (const c of [...CONTROL_CATALOG, ...NOT_CONTROLS]) {
      expect(seed, c.id).toContain(c.source.quote);
      expect(seed.indexOf(c.source.section), c.id).toBeGreaterThanOrEqual(0);
      expect(
        seed.indexOf(c.source.section),
        `${c.id}: the quote follows its section heading`,
      ).toBeLessThan(seed.indexOf(c.source.quote));
    }
  });
});
