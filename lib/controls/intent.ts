/**
 * Statements of intent ("read-only reference only"): recorded and shown as what they are, a
 * sentence in a document. No process reads them during a tool call, so they have no position in the
 * path and no effect on any finding; the analysis never reads their text.
 */
import type { StatementOfIntent } from "@/lib/review/schema";
import { NOT_CONTROLS } from "./catalog";

export type StatementOfIntentView = {
  text: string;
  where: string;
  /** Always null: a statement of intent occupies no position in the path. */
  position: null;
  effect: "none";
  reason: string;
};

/** How each statement of intent is shown. */
export function statementsOfIntent(
  statements: readonly StatementOfIntent[],
): StatementOfIntentView[] {
  const reason = NOT_CONTROLS.find((c) => c.id === "statement_of_intent")?.reason ?? "";
  return statements.map((s) => ({
    text: s.text,
    where: s.where,
    position: null,
    effect: "none",
    reason,
  }));
}
