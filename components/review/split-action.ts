/**
 * The Graph section's split, applied (and undone): loads the review, applies the separation control's split,
 * checks it against the plan the server computed, names the halves and saves. Loaded when a
 * reviewer applies a split (graph-section.tsx imports it on the click), with `applySplit` and the
 * role inference behind it, so none of it ships with the section.
 */
import type { ReviewGraph } from "@/components/review/analysis-queries";
import type { ReviewEditor } from "@/components/review/use-review-editor";
import { applySplit } from "@/lib/controls/split";
import type { GraphAgent } from "@/lib/graph/section";
import { toolKey } from "@/lib/model/ids";
import type { Review } from "@/lib/review/schema";

export type SplitOutcome = {
  /** What to tell the reviewer; absent when there was no split to apply. */
  message?: { kind: "ok" | "error"; text: string };
  /** Present once a save was attempted (the preview then closes): whether it was saved. */
  saved?: boolean;
  /** What an undo puts back, after a saved split. */
  undo?: { before: Pick<Review, "agents" | "controls">; name: string };
};

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join("\n") === [...b].sort().join("\n");
}

export async function applySplitAndSave(
  analysis: ReviewGraph,
  editor: ReviewEditor,
  agent: GraphAgent,
  names: { reference: string; deploy: string },
): Promise<SplitOutcome> {
  const plan = analysis.controls.separation.agents.find((a) => a.agentId === agent.agentId)?.split;
  if (!plan) return {};
  // The section paints from the review's head; the document is loaded for the split alone.
  let review: Review;
  try {
    review = (await editor.loadDocument()).review;
  } catch (error) {
    return {
      message: {
        kind: "error",
        text: `The review could not be loaded, so nothing was saved: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
  const next = applySplit(review, agent.agentId);
  // The route may analyse inspected (snapshot) tools while the browser only has the review:
  // save only a split that matches the plan the server computed, so what is saved is what was shown.
  const keysOf = (id: string) =>
    (next.agents.find((a) => a.id === id)?.tools ?? []).map((t) => toolKey(t.serverId, t.tool));
  if (
    next === review ||
    !sameKeys(keysOf(plan.reference.agentId), plan.reference.tools) ||
    !sameKeys(keysOf(plan.deploy.agentId), plan.deploy.tools)
  ) {
    return {
      message: {
        kind: "error",
        text: `The split computed from the review differs from the analysis (its tool lists come from an inspection); nothing was saved. Split ${agent.name} by hand in Agents & tool sets.`,
      },
    };
  }
  // The reviewer's names for the two halves (the plan's when left empty).
  const referenceName = names.reference.trim() || plan.reference.name;
  const deployName = names.deploy.trim() || plan.deploy.name;
  const named: Review = {
    ...next,
    agents: next.agents.map((a) =>
      a.id === plan.reference.agentId
        ? { ...a, name: referenceName }
        : a.id === plan.deploy.agentId
          ? { ...a, name: deployName }
          : a,
    ),
  };
  const ok = await editor.save(() => named);
  return ok
    ? {
        saved: true,
        undo: { before: { agents: review.agents, controls: review.controls }, name: agent.name },
        message: {
          kind: "ok",
          text: `Split ${agent.name} into ${referenceName} and ${deployName}; saved as a new revision.`,
        },
      }
    : {
        saved: false,
        message: { kind: "error", text: "The split was not saved; see the save status above." },
      };
}

/** Puts the agents and controls back as they were before a split, as a new revision. */
export async function undoSplitAndSave(
  editor: ReviewEditor,
  undo: NonNullable<SplitOutcome["undo"]>,
): Promise<NonNullable<SplitOutcome["message"]>> {
  const { before, name } = undo;
  const ok = await editor.save((r) => ({ ...r, agents: before.agents, controls: before.controls }));
  return ok
    ? { kind: "ok", text: `Undid the split of ${name}; saved as a new revision.` }
    : { kind: "error", text: "The undo was not saved; see the save status above." };
}
