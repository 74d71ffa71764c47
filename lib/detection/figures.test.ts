/**
 * The figures printed beside every count are the ones measured on the model that ships: a
 * retrained model.json without a rerun of scripts/measure-detector.ts fails here.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { DETECTOR_FIGURES } from "./figures";

test("measured.ts was measured on the model.json beside it, and pools the goal slices", () => {
  const model = readFileSync(path.join(import.meta.dirname, "model.json"));
  expect(DETECTOR_FIGURES.modelSha256).toBe(createHash("sha256").update(model).digest("hex"));
  const attack = DETECTOR_FIGURES.slices.filter((s) => s.kind === "attack");
  expect(attack.length).toBeGreaterThan(0);
  expect(DETECTOR_FIGURES.recall.n).toBeGreaterThan(0);
  expect(DETECTOR_FIGURES.falsePositive.k).toBeLessThanOrEqual(DETECTOR_FIGURES.falsePositive.n);
});
