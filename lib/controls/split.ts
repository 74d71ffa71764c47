/**
 * Applying tool-set separation's split to a review (the Graph section's "Split" button): kept apart
 * from separation.ts because moving the controls' configurations iterates the registry, which
 * holds separation itself.
 */
import { toolKey, type ToolKey } from "@/lib/model/ids";
import type { ServerToolList } from "@/lib/model/input";
import type { Agent, Review, ToolRef } from "@/lib/review/schema";
import { controlsAfterSplit } from "./registry";
import { planSplit } from "./separation";

/**
 * The review with one agent split into a reference agent (same id, returning tools and everything
 * that is not a sink) and a deploy agent (the sinks), each control's configurations moved as the
 * control says (`afterSplit`: approvals, which guard the sinks, go to the deploy agent). Returns
 * the review unchanged when the agent does not need a split (see `planSplit` for why).
 */
export function applySplit(
  review: Review,
  agentId: string,
  toolLists?: readonly ServerToolList[],
): Review {
  const result = planSplit(review, agentId, toolLists);
  if (result.kind !== "split") return review;
  const p = result.plan;
  const original = review.agents.find((a) => a.id === p.agentId);
  if (!original) return review;
  // Keep the reviewer's order of tools within each half.
  const toRefs = (keys: readonly ToolKey[]): ToolRef[] => {
    const wanted = new Set<string>(keys);
    return original.tools.filter((t) => wanted.has(toolKey(t.serverId, t.tool)));
  };
  const reference: Agent = {
    ...original,
    name: p.reference.name,
    description:
      `${original.description}${original.description ? " " : ""}Split by Relay Review: reads and summarises; holds no sensitive sink. A person hands values to ${p.deploy.name} by retyping them.`.slice(
        0,
        4000,
      ),
    tools: toRefs(p.reference.tools),
  };
  const deploy: Agent = {
    id: p.deploy.agentId,
    name: p.deploy.name,
    description: `Split from ${original.name} by Relay Review: invoked separately by a person with the value they typed; holds no tool returning untrusted text.`,
    tools: toRefs(p.deploy.tools),
  };
  const agents = review.agents.flatMap((a) => (a.id === p.agentId ? [reference, deploy] : [a]));
  const controls = controlsAfterSplit(review.controls, p.agentId, p.deploy.agentId);
  return { ...review, agents, controls };
}
