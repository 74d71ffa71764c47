import { describe, expect, test } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { canonicalJson } from "@/lib/hash";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import {
  agentFindings,
  decisionFindingId,
  decisionFindings,
  pathFindingId,
  type DecisionFinding,
} from "@/lib/decisions/findings";

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
      const ids = agentFindings({ analysis, review, agentId: agent.id })
        .filter((f) => f.kind === "path.to_sensitive_sink")
        .map((f) => f.id);
      expect(new Set(ids)).toEqual(expected);
      compared += ids.length;
    }
    expect(compared).toBeGreaterThan(0);
  });
});
