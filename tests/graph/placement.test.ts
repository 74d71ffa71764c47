import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { graphSectionData } from "@/lib/graph/view";
import { ReviewSchema } from "@/lib/review/schema";
import { COLLAPSE_ABOVE, defaultCollapsed, groupKey, layoutGraph } from "@/components/graph/layout";
import { placeControls } from "@/components/graph/placement";

const SINKS = COLLAPSE_ABOVE + 8;
const names = { server: (id: string) => id, agent: (id: string) => id };

/** One agent reading an open portal and holding many sinks of one server, with no approval configured. */
const review = ReviewSchema.parse({
  schemaVersion: 2,
  title: "t",
  servers: [
    { id: "kb", name: "kb", transport: { kind: "manual" } },
    { id: "ops", name: "ops", transport: { kind: "manual" } },
  ],
  sources: [
    {
      id: "portal",
      name: "portal",
      writers: { externalAccounts: 10, selfServiceSignupOpen: true },
    },
  ],
  tools: [
    {
      serverId: "kb",
      tool: "search",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    ...Array.from({ length: SINKS }, (_, i) => ({
      serverId: "ops",
      tool: `deploy_${i}`,
      roles: ["deploys_or_destroys"],
      rolesConfirmed: true,
    })),
  ],
  agents: [
    {
      id: "oncall",
      name: "on-call",
      tools: [
        { serverId: "kb", tool: "search" },
        ...Array.from({ length: SINKS }, (_, i) => ({ serverId: "ops", tool: `deploy_${i}` })),
      ],
    },
  ],
});
const analysis = analyzeReview(review, toolListsFromReview(review));
const view = graphSectionData(analysis, "whole");
const approvalAbsent = analysis.controls.absent.find((c) => c.controlId === "approval");

describe("placing the approval control on the sink call", () => {
  it("attaches the absent approval to every sink the agent holds", () => {
    expect(approvalAbsent?.attachesTo).toHaveLength(SINKS);
  });

  it("draws one approval mark on the edge into a collapsed sink group, and adds its lines to the group once", () => {
    const layout = layoutGraph(analysis, defaultCollapsed(analysis));
    const { markers, byNode } = placeControls(view, layout, names);
    const approvals = markers.filter((m) => m.key.startsWith("approval:"));
    expect(approvals.map((m) => m.key)).toEqual([
      expect.stringMatching(new RegExp(`:${groupKey("sink", "ops")}$`)),
    ]);
    const lines = byNode.get(groupKey("sink", "ops")) ?? [];
    expect(lines.filter((l) => l.startsWith("Approval")).length).toBe(1);
    expect(lines).toEqual(approvals[0]?.tooltip);
  });

  it("draws one mark per sink call when the group is expanded", () => {
    const layout = layoutGraph(analysis, new Set());
    const { markers, byNode } = placeControls(view, layout, names);
    const approvals = markers.filter((m) => m.key.startsWith("approval:"));
    expect(approvals).toHaveLength(SINKS);
    expect(new Set(approvals.map((m) => `${m.x},${m.y}`)).size).toBe(SINKS); // each on its own edge
    expect(byNode.get("sink:ops/deploy_0")?.filter((l) => l.startsWith("Approval")).length).toBe(1);
  });
});
