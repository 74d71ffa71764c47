import { describe, expect, test } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import { agentFindings, decisionFindings, type DecisionFinding } from "@/lib/decisions/findings";

const byId = (fs: readonly DecisionFinding[]) =>
  [...fs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** The demo review with one returning tool's sources unmapped: a finding about its server alone. */
function withUnmappedTool(): { review: Review; serverId: string } {
  const review = createDemoReview();
  const held = new Set(review.agents[0]!.tools.map((t) => `${t.serverId}\u0000${t.tool}`));
  const tool = review.tools.find(
    (t) => t.sourceIds.length > 0 && held.has(`${t.serverId}\u0000${t.tool}`),
  )!;
  tool.sourceIds = [];
  return { review, serverId: tool.serverId };
}

describe("an agent's findings across its servers", () => {
  test("are the union of its decision findings on each server it holds tools of, computed once", () => {
    const { review, serverId } = withUnmappedTool();
    const analysis = analyzeReview(review, toolListsFromReview(review));
    const agent = review.agents[0]!;
    const servers = [...new Set(agent.tools.map((t) => t.serverId))];
    const each = servers.map((s) =>
      decisionFindings({ analysis, review, serverId: s, agentId: agent.id }),
    );
    // The finding about the unmapped tool's server is listed on that server's decision only.
    const unmapped = (fs: DecisionFinding[]) =>
      fs.filter((f) => f.kind === "tools.unmapped_sources").map((f) => f.subject.serverId);
    expect(servers.length).toBeGreaterThan(1);
    expect(each.map(unmapped)).toEqual(servers.map((s) => (s === serverId ? [serverId] : [])));

    const union = new Map(each.flat().map((f) => [f.id, f]));
    const all = agentFindings({ analysis, review, agentId: agent.id });
    expect(byId(all)).toEqual(byId([...union.values()]));
    expect(unmapped(all)).toEqual([serverId]);
  });

  test("are none for an agent that holds no tools", () => {
    const review = createDemoReview();
    review.agents[0]!.tools = [];
    const analysis = analyzeReview(review, toolListsFromReview(review));
    expect(agentFindings({ analysis, review, agentId: review.agents[0]!.id })).toEqual([]);
  });
});
