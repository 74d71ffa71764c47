/**
 * The detector's measured recall and false-positive rate, printed beside every count (issue 31
 * item 4). Loaded from one file, lib/detection/measured.ts, which `npx tsx
 * scripts/measure-detector.ts` writes from the held-out evaluation (lib/detection/eval.ts) of the
 * model beside it: retrain, rerun, and every count shows the new figures. Pure.
 *
 * Recall is pooled over the attack slices that carry a goal (InjecAgent base with held-out
 * attacker instructions, BIPIA attacked emails) and the FP rate over the clean slices that carry a
 * goal (BIPIA emails, tables, code; the corpus's tool descriptions): the figures the goals are set
 * on, each as k of n so the true-share interval carries their uncertainty.
 */
import { z } from "zod";
import { MEASURED } from "./measured";

const KOfN = z
  .object({ k: z.number().int().min(0), n: z.number().int().min(1) })
  .refine((r) => r.k <= r.n, "k must not exceed n");

const DetectorFiguresSchema = z.object({
  recall: KOfN,
  falsePositive: KOfN,
  /** The model file the figures were measured on (its sha256), so a stale file is visible. */
  modelSha256: z.string().regex(/^[0-9a-f]{64}$/),
  measuredAt: z.string(),
  slices: z.array(
    z.object({
      name: z.string(),
      kind: z.enum(["attack", "clean"]),
      k: z.number().int(),
      n: z.number().int(),
    }),
  ),
});
export type DetectorFigures = z.infer<typeof DetectorFiguresSchema>;

/** Parsed once at load: a malformed file fails every import loudly rather than printing wrong figures. */
export const DETECTOR_FIGURES: DetectorFigures = DetectorFiguresSchema.parse(MEASURED);
