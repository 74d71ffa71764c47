import { describe, expect, it } from "vitest";
import { generateReview } from "@/bench/suites/analysis";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { CONTROL_IDS, controlEvaluations } from "@/lib/controls/registry";
import { decodeGraphSection, encodeGraphSection, focusView } from "./section";
import { graphSectionData, pathDetail, toolDetail } from "./view";

// The bench's large review: 50 servers, 5,000 tools, 200 sources, 20 agents (issue 16).
const review = generateReview();
const analysis = analyzeReview(review, toolListsFromReview(review));
const focus = focusView(analysis)!;
const ofFocus = graphSectionData(analysis, "focus");
const ofWhole = graphSectionData(analysis, "whole");
const order = (id: string) => ofFocus.controls.catalog.findIndex((c) => c.id === id);

describe("the Graph section's view of the 5,000-tool review", () => {
  it("holds the default view's nodes and the edges between them, and says how many the whole graph has", () => {
    expect(ofFocus.scope).toBe("focus");
    expect(new Set(ofFocus.graph.nodes.map((n) => n.id))).toEqual(focus.nodes);
    expect(ofFocus.graph.edges.every((e) => focus.nodes.has(e.from) && focus.nodes.has(e.to))).toBe(
      true,
    );
    expect(ofFocus.graph.edges.length).toBe(
      analysis.graph.edges.filter((e) => focus.nodes.has(e.from) && focus.nodes.has(e.to)).length,
    );
    expect(ofFocus.wholeNodeCount).toBe(analysis.graph.nodes.length);
    expect(ofFocus.focus).toEqual({ basis: focus.basis, nodeCount: focus.nodes.size });
    // Recomputing the default view on what was sent gives the same nodes.
    expect(focusView(ofFocus)?.nodes).toEqual(focus.nodes);
  });

  it("counts each server group's members in the whole graph, for '12 of 201 tools'", () => {
    const returning = analysis.graph.nodes.filter(
      (n) => n.kind === "returning" && n.group === "srv-0",
    ).length;
    expect(ofFocus.groupTotals["group:returning:srv-0"]).toBe(returning);
    expect(ofWhole.groupTotals).toEqual(ofFocus.groupTotals);
  });

  it("keeps every listed path, verdict and control the section shows", () => {
    expect(ofFocus.paths).toBe(analysis.paths);
    expect(ofFocus.agents.map((a) => [a.agentId, a.pathCount, a.toolCount])).toEqual(
      analysis.agents.map((a) => [a.agentId, a.pathCount, a.tools.length]),
    );
    expect(ofFocus.controls.evaluations.map((e) => [e.controlId, e.scope, e.status])).toEqual(
      [...controlEvaluations(analysis.controls), ...analysis.controls.absent]
        .map((e) => [e.controlId, e.scope, e.status])
        .sort((a, b) => order(a[0] as string) - order(b[0] as string)),
    );
    expect(ofFocus.controls.residue).toBe(analysis.controls.residue);
    // The sinks of listed paths say whether they were confirmed (the path list's order).
    const sinks = new Set(analysis.paths.listed.map((p) => p.sink));
    expect(new Set(ofFocus.tools.map((t) => t.key))).toEqual(sinks);
  });

  it("carries what the graph needs of the registry, so the browser loads no control module", () => {
    // Every control of the registry, in its order; the seed's four drawn where they sit.
    expect(ofFocus.controls.catalog.map((c) => c.id)).toEqual([...CONTROL_IDS]);
    expect(
      ofFocus.controls.catalog
        .filter((c) => ["credential", "egress", "separation", "approval"].includes(c.id))
        .map((c) => [c.id, c.drawnOn, c.canCutPath]),
    ).toEqual([
      ["credential", "server_group", false],
      ["egress", "server_group", false],
      ["separation", "agent_sessions", true],
      ["approval", "sink_call", false],
    ]);
    // Rows carry the common fields only; separation's per-agent plans are sent once, on their own.
    for (const row of ofFocus.controls.evaluations)
      expect(Object.keys(row).sort()).toEqual([
        "attachesTo",
        "controlId",
        "cutsPath",
        "residue",
        "scope",
        "sitsAt",
        "status",
        "stops",
        "summary",
      ]);
    // Separation's mark at each agent session, worded with the agent's name.
    const marks = ofFocus.controls.sessionMarks;
    expect(marks.map((m) => m.agentId)).toEqual(
      analysis.controls.separation.agents.map((a) => a.agentId),
    );
    for (const m of marks) {
      const agent = analysis.agents.find((a) => a.agentId === m.agentId)!;
      expect(m.summary).toContain(agent.name);
      expect(m.cut === null).toBe(!m.cutsPath);
    }
  });

  it("goes over the wire in under 2 MB for the default view, and decodes to the same view", () => {
    const wire = JSON.stringify(encodeGraphSection(ofFocus));
    expect(wire.length).toBeLessThan(2_000_000);
    expect(wire.length).toBeLessThan(JSON.stringify(analysis).length / 5);
    expect(decodeGraphSection(JSON.parse(wire) as ReturnType<typeof encodeGraphSection>)).toEqual(
      JSON.parse(JSON.stringify(ofFocus)),
    );
    const whole = decodeGraphSection(
      JSON.parse(JSON.stringify(encodeGraphSection(ofWhole))) as ReturnType<
        typeof encodeGraphSection
      >,
    );
    expect(whole.graph.edges).toEqual(analysis.graph.edges);
  });

  it("refuses an edge naming a node that was not sent", () => {
    const wire = encodeGraphSection(ofFocus);
    wire.graph.edges[0] = [ofFocus.graph.nodes.length, 0, 0, 1];
    expect(() => decodeGraphSection(wire)).toThrow(/names no node/);
  });

  it("leaves a tool's reasons and a path's findings to be fetched when opened", () => {
    const tool = analysis.tools.find((t) => t.rolesOrigin === "suggested")!;
    expect(toolDetail(analysis, tool.key)).toEqual({
      key: tool.key,
      roles: tool.roles,
      rolesOrigin: tool.rolesOrigin,
      suggestedRoles: tool.suggestedRoles,
    });
    expect(toolDetail(analysis, "no/such")).toBeNull();
    const path = analysis.paths.listed[0]!;
    const detail = pathDetail(analysis, path.id)!;
    expect(detail.onPath.length).toBeGreaterThan(0);
    expect(detail.onPath.every((f) => f.pathIds.includes(path.id))).toBe(true);
    expect(
      detail.atNodes.every(
        (f) => f.pathIds.length === 0 && f.nodeIds.some((n) => path.nodeIds.includes(n)),
      ),
    ).toBe(true);
    expect(pathDetail(analysis, "path:none")).toBeNull();
  });
});
