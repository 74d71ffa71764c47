/**
 * The bench's generated review (50 servers, 5,000 tools, 200 sources, 20 agents) as a regression
 * test for the optimisations: the analysis is deterministic, and its path counts are exact, recounted
 * here from the output's own tool and source views rather than from the analysis internals, so an
 * optimisation cannot silently drop paths.
 */
import { describe, expect, it } from "vitest";
import { GENERATED_PATH_TOTAL, generateReview } from "@/bench/suites/analysis";
import { analyzeReview, MAX_PATHS_LISTED, type Analysis } from "./analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { SENSITIVE_SINK_ROLES } from "@/lib/model/model";
import { toolKey } from "@/lib/model/ids";

const review = generateReview();
const analysis: Analysis = analyzeReview(review, toolListsFromReview(review));

describe("analysis of the generated large review", () => {
  it("is deterministic: the same JSON twice, from a freshly generated review too", () => {
    const json = JSON.stringify(analysis);
    expect(JSON.stringify(analyzeReview(review, toolListsFromReview(review)))).toBe(json);
    const again = generateReview();
    expect(JSON.stringify(analyzeReview(again, toolListsFromReview(again)))).toBe(json);
  }, 120_000);

  it("counts every path: per agent, the heads of its returning tools × its sinks", () => {
    const outside = new Map(analysis.sources.map((s) => [s.id, s.reachesOutsideBoundary]));
    const tools = new Map(analysis.tools.map((t) => [t.key, t]));
    const headsOf = (key: string) => {
      const t = tools.get(key as never);
      if (!t) return 0;
      if (t.sourceIds.length > 0) return t.sourceIds.filter((s) => outside.get(s)).length;
      return t.returnsUntrustedText ? 1 : 0;
    };
    let total = 0;
    for (const [i, agent] of review.agents.entries()) {
      const held = [...new Set(agent.tools.map((t) => toolKey(t.serverId, t.tool)))];
      const heads = held.reduce((n, k) => n + headsOf(k), 0);
      const sinks = held.filter((k) =>
        tools.get(k)?.roles.some((r) => SENSITIVE_SINK_ROLES.includes(r)),
      ).length;
      expect(analysis.agents[i]?.pathCount).toBe(heads * sinks);
      total += heads * sinks;
    }
    expect(total).toBe(GENERATED_PATH_TOTAL);
    expect(analysis.paths.total).toBe(GENERATED_PATH_TOTAL);
    expect(analysis.paths.listed).toHaveLength(MAX_PATHS_LISTED);
    expect(analysis.paths.truncated).toBe(true);
  });

  it("lists distinct paths whose nodes and edges exist in the graph, with no duplicate node or edge", () => {
    const nodes = new Set(analysis.graph.nodes.map((n) => n.id));
    const edges = new Map(analysis.graph.edges.map((e) => [e.id, e]));
    expect(nodes.size).toBe(analysis.graph.nodes.length);
    expect(edges.size).toBe(analysis.graph.edges.length);
    expect(new Set(analysis.paths.listed.map((p) => p.id)).size).toBe(analysis.paths.listed.length);
    for (const p of analysis.paths.listed) {
      for (const n of p.nodeIds) expect(nodes.has(n)).toBe(true);
      for (const e of p.edgeIds) expect(edges.get(e)?.onPath).toBe(true);
    }
  });
});
