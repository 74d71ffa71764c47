import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { ReviewSchema } from "@/lib/review/schema";
import {
  allGroups,
  COLLAPSE_ABOVE,
  defaultCollapsed,
  groupKey,
  layoutGraph,
} from "@/components/graph/layout";

const TOOLS = COLLAPSE_ABOVE * 10;
const manual = { kind: "manual" as const };

/** A server just registered: many tools, none assessed, so each returns text from an unmapped head. */
const review = ReviewSchema.parse({
  schemaVersion: 2,
  title: "t",
  servers: [
    {
      id: "wiki",
      name: "wiki",
      transport: manual,
      declaredTools: Array.from({ length: TOOLS }, (_, t) => ({
        name: `get_page_${t}`,
        annotations: { readOnlyHint: true },
      })),
    },
    {
      id: "kb",
      name: "kb",
      transport: manual,
      declaredTools: [{ name: "search", annotations: { readOnlyHint: true } }],
    },
    {
      id: "deploy",
      name: "deploy",
      transport: manual,
      declaredTools: [
        { name: "trigger_deploy", annotations: { readOnlyHint: false, openWorldHint: false } },
      ],
    },
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
  ],
  agents: [
    {
      id: "oncall",
      name: "on-call",
      tools: [
        ...Array.from({ length: TOOLS }, (_, t) => ({ serverId: "wiki", tool: `get_page_${t}` })),
        { serverId: "kb", tool: "search" },
        { serverId: "deploy", tool: "trigger_deploy" },
      ],
    },
  ],
});
const analysis = analyzeReview(review, toolListsFromReview(review));
const unmappedWiki = groupKey("unmapped", "wiki");

describe("the unmapped heads of a server not yet assessed", () => {
  it("are one group per server, which starts collapsed above the threshold", () => {
    expect(
      analysis.graph.nodes.filter((n) => n.kind === "source" && n.head.kind === "unmapped"),
    ).toHaveLength(TOOLS);
    expect(allGroups(analysis)).toContain(unmappedWiki);
    expect(defaultCollapsed(analysis)).toContain(unmappedWiki);
  });

  it("collapsed: one source node and one writers node stand for all of them, and their edges merge", () => {
    const layout = layoutGraph(analysis, defaultCollapsed(analysis));
    const writersKey = `writers-of:${unmappedWiki}`;
    expect(layout.columns[0]).toEqual(["writers:portal", writersKey]);
    expect(layout.columns[1]).toEqual(["source:portal", unmappedWiki]);
    expect(layout.byKey.get(writersKey)).toMatchObject({
      kind: "writers",
      label: "unknown writers",
      onPath: true,
    });
    expect(layout.byKey.get(unmappedWiki)?.group).toEqual({
      role: "unmapped",
      serverId: "wiki",
      count: TOOLS,
      total: TOOLS,
      collapsed: true,
    });
    expect(layout.rep.get("writers:unmapped:wiki/get_page_7" as never)).toBe(writersKey);
    expect(layout.rep.get("source:unmapped:wiki/get_page_7" as never)).toBe(unmappedWiki);
    const intoWiki = layout.edges.filter((e) => e.from === writersKey || e.from === unmappedWiki);
    expect(intoWiki.map((e) => [e.from, e.to, e.members.length])).toEqual([
      [writersKey, unmappedWiki, TOOLS],
      [unmappedWiki, groupKey("returning", "wiki"), TOOLS],
    ]);
    // Every path's head still maps to a visible node.
    for (const p of analysis.paths.listed)
      expect(p.nodeIds.every((n) => layout.rep.has(n))).toBe(true);
  });

  it("expanded: a header and a row per head, named by its tool, with its writers beside it", () => {
    const layout = layoutGraph(analysis, new Set());
    expect(layout.columns[1]).toHaveLength(1 + 1 + TOOLS); // portal, the wiki header, the wiki heads
    const row = layout.byKey.get("source:unmapped:wiki/get_page_7");
    expect(row?.label).toBe("returned by get_page_7");
    expect(layout.byKey.get("writers:unmapped:wiki/get_page_7")).toMatchObject({
      label: "unknown writers",
      y: row?.y,
    });
    const header = layout.byKey.get(unmappedWiki);
    expect(header?.y).toBeLessThan(row?.y ?? 0);
    const box = layout.groups.find((g) => g.key === unmappedWiki);
    expect((row?.y ?? 0) + (row?.h ?? 0)).toBeLessThanOrEqual((box?.y ?? 0) + (box?.h ?? 0));
  });
});

describe("labels", () => {
  it("show hidden characters revealed, in the reviewer's names as in the server's", () => {
    const r = ReviewSchema.parse({
      schemaVersion: 2,
      title: "t",
      servers: [
        {
          id: "kb",
          name: "kb",
          transport: manual,
          declaredTools: [{ name: "search\u200B", annotations: { readOnlyHint: true } }],
        },
      ],
      sources: [{ id: "portal", name: "portal\u202Elatrop", writers: { externalAccounts: 10 } }],
      tools: [
        {
          serverId: "kb",
          tool: "search\u200B",
          sourceIds: ["portal"],
          roles: ["returns_untrusted_text"],
          rolesConfirmed: true,
        },
      ],
      agents: [{ id: "a", name: "agent\u2066", tools: [{ serverId: "kb", tool: "search\u200B" }] }],
    });
    const layout = layoutGraph(analyzeReview(r, toolListsFromReview(r)), new Set());
    expect(layout.byKey.get("source:portal")?.label).toBe(
      "portal⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧latrop",
    );
    expect(layout.byKey.get("returning:kb/search\u200B")?.label).toBe(
      "search⟦U+200B ZERO WIDTH SPACE⟧",
    );
    expect(layout.byKey.get("agent:a")?.label).toMatch(/^agent⟦U\+2066 /);
  });
});
