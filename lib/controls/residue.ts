/**
 * Residue composition: what survives the controls present, as one statement for the review. Read
 * the residue column of the catalog downward and compose it (the seed): "a payload already in the
 * source, reaching the tools that stayed in the session, in front of a person reading a sentence
 * the payload helped write". Each control contributes its own clauses (its definition's `residue`),
 * knowing which controls are present; where it is missing, its clause says what is uncovered
 * instead, so a review with fewer controls never reads better than one with more.
 */
import type { PlacedResidueClause } from "./types";

export type ResidueClause = { controlIds: string[]; present: boolean; text: string };

export type ResidueStatement = {
  text: string;
  clauses: ResidueClause[];
  /** Controls present whose configuration fails a condition: the statement is their best case. */
  caveats: string[];
};

/**
 * Compose the residue statement from each control's clauses, given in registry order: clauses are
 * ordered by their place in the sentence (`at`), and keep the registry's order within a place.
 * Pure; the same input yields the same sentence.
 */
export function composeResidue(
  clausesByControl: readonly (readonly PlacedResidueClause[])[],
  caveats: string[],
): ResidueStatement {
  const placed = clausesByControl.flatMap((clauses, control) =>
    clauses.map((clause, i) => ({ clause, control, i })),
  );
  placed.sort((a, b) => a.clause.at - b.clause.at || a.control - b.control || a.i - b.i);
  const clauses = placed.map(({ clause }): ResidueClause => ({
    controlIds: clause.controlIds,
    present: clause.present,
    text: clause.text,
  }));
  return { text: clauses.map((c) => c.text).join(", "), clauses, caveats };
}
