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

  it("draws one approval mark beside a collapsed sink group, and adds its lines to the group once", () => {
    const layout = layoutGraph(analysis, defaultCollapsed(analysis));
    const { markers, byNode } = placeControls(view, layout, names);
    const approvals = markers.filter((m) => m.key.startsWith("approval:"));
    const group = groupKey("sink", "ops#deploys_or_destroys");
    expect(approvals.map((m) => m.key)).toEqual([expect.stringMatching(new RegExp(`:${group}$`))]);
    const lines = byNode.get(group) ?? [];
    expect(lines.filter((l) => l.startsWith("Approval")).length).toBe(1);
    expect(lines).toEqual(approvals[0]?.tooltip);
  });

  it("draws one mark per sink group when the group is expanded, not one per sink call, and every sink's tooltip still names it", () => {
    const layout = layoutGraph(analysis, new Set());
    const { markers, byNode } = placeControls(view, layout, names);
    const approvals = markers.filter((m) => m.key.startsWith("approval:"));
    expect(approvals).toHaveLength(1);
    const box = layout.groups.find((g) => g.key === groupKey("sink", "ops#deploys_or_destroys"))!;
    // Beside the group, on the agent's side, its top inside the group's box.
    expect(approvals[0]!.x).toBeLessThan(box.x);
    expect(approvals[0]!.y).toBeGreaterThanOrEqual(box.y);
    expect(approvals[0]!.y).toBeLessThan(box.y + box.h);
    for (let i = 0; i < SINKS; i++)
      expect(
        byNode.get(`sink:ops/deploy_${i}`)?.filter((l) => l.startsWith("Approval")).length,
      ).toBe(1);
  });

  it("groups sinks by role: a server's writes, shares and deploys are three groups with one approval mark each", () => {
    const r = ReviewSchema.parse({
      ...review,
      tools: [
        ...review.tools,
        {
          serverId: "ops",
          tool: "post_message",
          roles: ["network_or_shares"],
          rolesConfirmed: true,
        },
        { serverId: "ops", tool: "write_note", roles: ["writes"], rolesConfirmed: true },
      ],
      agents: [
        {
          ...review.agents[0]!,
          tools: [
            ...review.agents[0]!.tools,
            { serverId: "ops", tool: "post_message" },
            { serverId: "ops", tool: "write_note" },
          ],
        },
      ],
    });
    const a = analyzeReview(r, toolListsFromReview(r));
    const layout = layoutGraph(a, new Set());
    expect(layout.groups.filter((g) => g.role === "sink").map((g) => g.sinkRole)).toEqual([
      "deploys_or_destroys",
      "network_or_shares",
      "writes",
    ]);
    const approvals = placeControls(graphSectionData(a, "whole"), layout, names).markers.filter(
      (m) => m.key.startsWith("approval:"),
    );
    expect(approvals).toHaveLength(3);
    // No two pills overlap.
    const spans = approvals.map((m) => [m.y, m.y + 15] as const).sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++)
      expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  });
});
