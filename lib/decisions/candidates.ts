/**
 * Which "tool absent from agent" conditions a decision about an agent may carry. Offered: the
 * sensitive sinks of the review (any server) the agent does not hold, which the condition keeps
 * out, e.g. `create_issue` for a triage agent; and the tools on the agent's source-to-sink paths,
 * shown so the reviewer sees what would cut them, but not selectable: the agent holds them, so the
 * condition cannot hold for a decision on this tool set until they leave it. Never the whole tool
 * set, which is a list of conditions that cannot hold. Pure: from the analysis of the review.
 */
import type { Analysis, ToolView } from "@/lib/analysis/analyze";
import { splitToolKey, type ToolKey } from "@/lib/model/ids";
import type { DecisionCondition, Review, ToolRole } from "@/lib/review/schema";

/** Most conditions of each kind of offer for one pair (a review may hold thousands of sinks). */
export const MAX_TOOL_CONDITIONS_OFFERED = 100;

export type ToolConditionOffer = {
  condition: Extract<DecisionCondition, { kind: "tool_absent_from_agent" }>;
  /** `keep_out`: a sink the agent does not hold (the condition holds now); `on_path`: a held tool on its paths. */
  offer: "keep_out" | "on_path";
  /** Why it is offered, in words. */
  note: string;
};

const ROLE_WORDS: Record<ToolRole, string> = {
  returns_untrusted_text: "returns untrusted text",
  reads_private_data: "reads private data",
  writes: "writes",
  deploys_or_destroys: "deploys or destroys",
  network_or_shares: "reaches the network or shares",
};
/** Sinks in the order a reviewer would keep them out: deploys first, then sharing, then writes. */
const SINK_RANK: Record<string, number> = {
  deploys_or_destroys: 0,
  network_or_shares: 1,
  writes: 2,
};
const rank = (t: ToolView) => Math.min(...t.sinkRoles.map((r) => SINK_RANK[r] ?? 3));

export function toolConditionOffers(
  review: Review,
  analysis: Analysis,
  agentId: string,
): ToolConditionOffer[] {
  const agent = review.agents.find((a) => a.id === agentId);
  const view = analysis.agents.find((a) => a.agentId === agentId);
  if (!agent || !view) return [];
  const held = new Set<string>(agent.tools.map((t) => `${t.serverId}/${t.tool}`));
  const ref = (key: ToolKey) => {
    const { serverId, tool } = splitToolKey(key);
    return { kind: "tool_absent_from_agent" as const, tool: { serverId, tool } };
  };
  const keepOut = analysis.tools
    .filter((t) => t.item === "tool" && t.sinkRoles.length > 0 && !held.has(t.key))
    .sort((x, y) => rank(x) - rank(y) || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0))
    .slice(0, MAX_TOOL_CONDITIONS_OFFERED)
    .map((t): ToolConditionOffer => ({
      condition: ref(t.key),
      offer: "keep_out",
      note: `a sensitive sink (${t.sinkRoles.map((r) => ROLE_WORDS[r]).join(", ")}) ${view.name} does not hold: the condition keeps it out`,
    }));
  const onPath: ToolConditionOffer[] = [];
  if (view.pathCount > 0) {
    const seen = new Set<string>();
    for (const key of [...view.returningTools, ...view.sinkTools]) {
      if (seen.has(key) || !held.has(key) || onPath.length >= MAX_TOOL_CONDITIONS_OFFERED) continue;
      seen.add(key);
      const returning = view.returningTools.includes(key);
      onPath.push({
        condition: ref(key),
        offer: "on_path",
        note: `on ${view.name}'s paths as ${returning ? "a returning tool" : "a sink"}; ${view.name} holds it, so remove it from the tool set before deciding on this condition`,
      });
    }
  }
  return [...keepOut, ...onPath];
}
