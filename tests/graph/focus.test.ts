import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { ReviewSchema } from "@/lib/review/schema";
import {
  AGENT_COLUMN_MAX,
  COLUMNS,
  groupKey,
  layoutGraph,
  SELF_PATH_MARK,
} from "@/components/graph/layout";
import {
  focusView,
  isSelfPath,
  orderPaths,
  roleReasons,
  selfPaths,
} from "@/components/graph/view-model";

const manual = { kind: "manual" as const };
const closed = { readOnlyHint: false, destructiveHint: false, openWorldHint: false };

/**
 * One session holding a search over an open portal, an internal wiki reader, `create_issue` (it
 * returns text and writes: a self-path), a confirmed deploy and a suggested write; a second
 * session whose only sink is that suggested write.
 */
const review = ReviewSchema.parse({
  schemaVersion: 2,
  title: "t",
  servers: [
    {
      id: "kb",
      name: "kb",
      transport: manual,
      declaredTools: [
        { name: "search", annotations: { readOnlyHint: true } },
        { name: "read_wiki", annotations: { readOnlyHint: true } },
      ],
    },
    {
      id: "gl",
      name: "gitlab",
      transport: manual,
      declaredTools: [
        { name: "create_issue" },
        { name: "deploy" },
        { name: "update_label", annotations: closed },
      ],
    },
  ],
  sources: [
    {
      id: "portal",
      name: "portal",
      writers: { externalAccounts: 10, selfServiceSignupOpen: true },
    },
    { id: "wiki", name: "wiki", writers: { internalAccounts: 5 } },
  ],
  tools: [
    {
      serverId: "kb",
      tool: "search",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "kb",
      tool: "read_wiki",
      sourceIds: ["wiki"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    {
      serverId: "gl",
      tool: "create_issue",
      roles: ["returns_untrusted_text", "writes"],
      rolesConfirmed: true,
    },
    { serverId: "gl", tool: "deploy", roles: ["deploys_or_destroys"], rolesConfirmed: true },
  ],
  agents: [
    {
      id: "a",
      name: "a",
      tools: ["kb/search", "kb/read_wiki", "gl/create_issue", "gl/deploy", "gl/update_label"].map(
        (k) => ({ serverId: k.split("/")[0]!, tool: k.split("/")[1]! }),
      ),
    },
    {
      id: "b",
      name: "b",
      tools: [
        { serverId: "kb", tool: "search" },
        { serverId: "gl", tool: "update_label" },
      ],
    },
  ],
});
const analysis = analyzeReview(review, toolListsFromReview(review));

describe("the default view: what lies on paths to sensitive sinks", () => {
  it("keeps deploys and confirmed writes with everything on their paths, and leaves out suggested writes and what is on no path", () => {
    expect(analysis.tools.find((t) => t.key === "gl/update_label")).toMatchObject({
      rolesOrigin: "suggested",
      sinkRoles: ["writes"],
    });
    const focus = focusView(analysis)!;
    expect(focus.basis).toBe("sensitive");
    expect([...focus.nodes].sort()).toEqual(
      [
        "agent:a",
        "returning:gl/create_issue",
        "returning:kb/search",
        "sink:gl/create_issue",
        "sink:gl/deploy",
        "source:portal",
        "source:unmapped:gl/create_issue",
        "writers:portal",
        "writers:unmapped:gl/create_issue",
      ].sort(),
    );
    // Drawn with only those nodes: each group counts what it draws against its members.
    const layout = layoutGraph(analysis, new Set(), { only: focus.nodes });
    expect(layout.byKey.has("sink:gl/update_label")).toBe(false);
    expect(layout.byKey.has("agent:b")).toBe(false);
    // Sinks are grouped by server and role: the writes group draws create_issue of its two.
    expect(layout.byKey.get(groupKey("sink", "gl#writes"))?.group).toMatchObject({
      count: 1,
      total: 2,
      sinkRole: "writes",
    });
    expect(layout.byKey.get(groupKey("sink", "gl#deploys_or_destroys"))?.group).toMatchObject({
      count: 1,
      total: 1,
    });
    expect(layout.byKey.get(groupKey("returning", "kb"))?.group).toMatchObject({
      count: 1,
      total: 2,
    });
    expect(layout.edges.every((e) => layout.byKey.has(e.from) && layout.byKey.has(e.to))).toBe(
      true,
    );
  });

  it("falls back to every path when none reaches a sensitive sink, and is absent when there is no path", () => {
    const onlyB = analyzeReview(
      { ...review, agents: review.agents.filter((a) => a.id === "b") },
      toolListsFromReview(review),
    );
    const focus = focusView(onlyB)!;
    expect(focus.basis).toBe("paths");
    expect(focus.nodes).toContain("sink:gl/update_label");
    const none = analyzeReview({ ...review, agents: [] }, toolListsFromReview(review));
    expect(focusView(none)).toBeNull();
  });
});

describe("self-paths", () => {
  it("are found per agent from the graph, and the sink node carries the mark", () => {
    const self = selfPaths(analysis);
    expect([...self.byAgent]).toEqual([["agent:a", ["gl/create_issue"]]]);
    expect([...self.sinkNodes]).toEqual(["sink:gl/create_issue"]);
    const layout = layoutGraph(analysis, new Set());
    expect(layout.byKey.get("sink:gl/create_issue")).toMatchObject({
      selfPath: true,
      label: `${SELF_PATH_MARK} create_issue`,
    });
    expect(layout.byKey.get("returning:gl/create_issue")).toMatchObject({
      selfPath: false,
      label: "create_issue",
    });
    expect(layout.byKey.get("sink:gl/deploy")).toMatchObject({ selfPath: false, label: "deploy" });
  });

  it("come last in the path list: cross-tool paths to sensitive sinks first, then to suggested writes, then self-paths", () => {
    // The analysis itself lists the self-path first, as seen on the 201-tool GitLab server.
    expect(isSelfPath(analysis.paths.listed[0]!)).toBe(true);
    const ordered = orderPaths(analysis);
    const hops = ordered.map((p) => `${p.agentId}:${p.returningTool}->${p.sink}`);
    expect(hops).toHaveLength(analysis.paths.listed.length);
    const rank = (h: string) =>
      h.endsWith("gl/create_issue->gl/create_issue") ? 2 : h.endsWith("gl/update_label") ? 1 : 0;
    expect(hops.map(rank)).toEqual([...hops.map(rank)].sort());
    expect(hops.slice(0, 3).sort()).toEqual([
      "a:gl/create_issue->gl/deploy",
      "a:kb/search->gl/create_issue",
      "a:kb/search->gl/deploy",
    ]);
    expect(hops[hops.length - 1]).toBe("a:gl/create_issue->gl/create_issue");
  });
});

describe("the agent column", () => {
  it("grows to the agent's name up to a bound, and stays at its width without a measure", () => {
    const long = ReviewSchema.parse({
      ...review,
      agents: [{ ...review.agents[0]!, name: "GitLab issue triage and release coordination" }],
    });
    const a = analyzeReview(long, toolListsFromReview(long));
    const perChar = (t: string) => t.length * 5;
    expect(layoutGraph(a, new Set()).columnWidths[3]).toBe(COLUMNS[3].width);
    const grown = layoutGraph(a, new Set(), { measureAgent: perChar });
    expect(grown.columnWidths[3]).toBe(
      Math.ceil(perChar("GitLab issue triage and release coordination") + 16),
    );
    expect(grown.byKey.get("agent:a")?.w).toBe(grown.columnWidths[3]);
    // The sinks move right by as much, and the graph widens.
    expect(
      grown.byKey.get("sink:gl/deploy")!.x -
        layoutGraph(a, new Set()).byKey.get("sink:gl/deploy")!.x,
    ).toBe(grown.columnWidths[3]! - COLUMNS[3].width);
    expect(layoutGraph(a, new Set(), { measureAgent: (t) => t.length * 50 }).columnWidths[3]).toBe(
      AGENT_COLUMN_MAX,
    );
  });
});

describe("the reasons of a role", () => {
  it("are all given, not only the first", () => {
    const tool = analysis.tools.find((t) => t.key === "gl/update_label")!;
    const writes = tool.suggestedRoles.find((r) => r.role === "writes")!;
    expect(writes.reasons.length).toBeGreaterThan(1);
    expect(roleReasons(tool)).toEqual([{ role: "writes", reasons: writes.reasons }]);
    expect(roleReasons(analysis.tools.find((t) => t.key === "gl/deploy")!)).toEqual([
      { role: "deploys_or_destroys", reasons: ["confirmed by the reviewer"] },
    ]);
  });
});
