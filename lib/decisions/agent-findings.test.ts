import { describe, expect, test } from "vitest";
import { generateReview } from "@/bench/suites/analysis";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { canonicalJson } from "@/lib/hash";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import type { Analysis } from "@/lib/analysis/analyze";
import {
  agentFindingCounts,
  decisionFindingId,
  decisionFindings,
  pathFindingId,
  type DecisionFinding,
} from "@/lib/decisions/findings";

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

/** An agent's findings as the Decide form lists them: the union over the servers it holds tools of. */
function unionOverServers(review: Review, analysis: Analysis, agentId: string) {
  const agent = review.agents.find((a) => a.id === agentId)!;
  const union = new Map<string, DecisionFinding>();
  for (const serverId of new Set(agent.tools.map((t) => t.serverId)))
    for (const f of decisionFindings({ analysis, review, serverId, agentId })) union.set(f.id, f);
  return [...union.values()];
}

const zero = () => ({ critical: 0, high: 0, medium: 0, low: 0, info: 0 });

describe("an agent's findings across its servers, counted", () => {
  test("are the union of its decision findings on each server it holds tools of, by severity", () => {
    const { review, serverId } = withUnmappedTool();
    const analysis = analyzeReview(review, toolListsFromReview(review));
    let paths = 0;
    for (const agent of review.agents) {
      const expected = { paths: zero(), other: zero() };
      for (const f of unionOverServers(review, analysis, agent.id))
        expected[f.kind === "path.to_sensitive_sink" ? "paths" : "other"][f.severity]++;
      expect(agentFindingCounts({ analysis, review, agentId: agent.id })).toEqual(expected);
      paths += expected.paths.critical + expected.paths.high;
    }
    expect(paths).toBeGreaterThan(0);
    // The finding about the unmapped tool's server is counted once, for the agent holding it.
    const unmapped = unionOverServers(review, analysis, review.agents[0]!.id).filter(
      (f) => f.kind === "tools.unmapped_sources",
    );
    expect(unmapped.map((f) => f.subject.serverId)).toEqual([serverId]);
  });

  test("count every path from each source to each sink on a generated review", () => {
    // Two agents of the bench's review, each holding 150 of its tools: many heads and sinks each.
    const review = generateReview();
    review.agents = review.agents.slice(0, 2).map((a) => ({ ...a, tools: a.tools.slice(0, 150) }));
    const analysis = analyzeReview(review, toolListsFromReview(review));
    for (const agent of review.agents) {
      const expected = { paths: zero(), other: zero() };
      for (const f of unionOverServers(review, analysis, agent.id))
        expected[f.kind === "path.to_sensitive_sink" ? "paths" : "other"][f.severity]++;
      expect(expected.paths.critical + expected.paths.high).toBeGreaterThan(100);
      expect(agentFindingCounts({ analysis, review, agentId: agent.id })).toEqual(expected);
    }
  });

  test("are none for an agent that holds no tools", () => {
    const review = createDemoReview();
    review.agents[0]!.tools = [];
    const analysis = analyzeReview(review, toolListsFromReview(review));
    expect(agentFindingCounts({ analysis, review, agentId: review.agents[0]!.id })).toEqual({
      paths: zero(),
      other: zero(),
    });
  });
});

describe("a path finding's id", () => {
  // Ids are stored in decisions (accepted findings, conditions): the id written from its parts'
  // canonical texts must be the general canonical hash for any name a reviewer or a server gives.
  const names = [
    "on-call",
    'quote " and backslash \\ and /slash',
    "controls \u0000\u0001\u001f\u007f\u2028\u2029 and tab\t newline\n",
    "accents é ß ü, CJK 漢字, RTL \u202e, zero width \u200b",
    "astral 😀 𝔘 pair",
    "",
  ];
  const heads = names.flatMap((n) => [
    { kind: "source", sourceId: n },
    { kind: "unmapped", tool: `srv-a\u0000${n}` },
  ]);
  test("is the general canonical hash for every agent, head and sink, byte for byte", () => {
    for (const agentId of names)
      for (const from of heads)
        for (const name of names) {
          const to = `srv-${name}\u0000${name}`;
          expect(
            pathFindingId(canonicalJson(agentId), canonicalJson(from), canonicalJson(to)),
          ).toBe(decisionFindingId("path.to_sensitive_sink", { agentId, from, to }));
        }
  });

  test("of each path the demo's agents hold is its ends' general canonical hash", () => {
    const review = createDemoReview();
    const analysis = analyzeReview(review, toolListsFromReview(review));
    let compared = 0;
    for (const agent of review.agents) {
      const view = analysis.agents.find((a) => a.agentId === agent.id)!;
      const expected = new Set<string>();
      for (const headId of view.holdsBoth ? view.heads : []) {
        const node = analysis.graph.nodes.find((n) => n.id === headId);
        if (node?.kind !== "source") continue;
        for (const to of view.sinkTools)
          expected.add(
            decisionFindingId("path.to_sensitive_sink", { agentId: agent.id, from: node.head, to }),
          );
      }
      const ids = unionOverServers(review, analysis, agent.id)
        .filter((f) => f.kind === "path.to_sensitive_sink")
        .map((f) => f.id);
      expect(new Set(ids)).toEqual(expected);
      compared += ids.length;
    }
    expect(compared).toBeGreaterThan(0);
  });
});
