import { describe, expect, test } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { diffReviews, summarizeChanges } from "./revision-diff";
import { ReviewSchema, type Review } from "@/lib/review/schema";

const base = (): Review => ReviewSchema.parse(structuredClone(createDemoReview()));

describe("diffReviews", () => {
  test("the same document, or the same lists in another order, is no change", () => {
    const a = base();
    const b = base();
    b.servers.reverse();
    b.tools.reverse();
    b.agents.reverse();
    expect(diffReviews(a, a)).toEqual([]);
    expect(diffReviews(a, b)).toEqual([]);
    expect(summarizeChanges([])).toBe("no differences");
  });

  test("a retitled review and a re-roled tool are one changed item each, naming the fields", () => {
    const a = base();
    const b = base();
    b.title = "renamed";
    const t = b.tools[0]!;
    t.roles = [...t.roles, "writes"];
    t.rolesConfirmed = !t.rolesConfirmed;
    const changes = diffReviews(a, b);
    expect(changes.map((c) => [c.kind, c.change, c.fields])).toEqual([
      ["review", "changed", ["title"]],
      ["tool", "changed", ["roles", "rolesConfirmed"]],
    ]);
    const tool = changes[1]!;
    expect(tool.key).toBe(`tool:${t.serverId}/${t.tool}`);
    expect(tool.label).toContain(t.tool);
    expect(tool.before).toEqual(a.tools[0]);
    expect(tool.after).toEqual(t);
  });

  test.each([
    ["server", (r: Review) => r.servers.pop()],
    ["source", (r: Review) => r.sources.pop()],
    ["agent", (r: Review) => r.agents.pop()],
  ] as const)("a removed %s is listed as removed with its earlier value", (kind, remove) => {
    const a = base();
    const b = base();
    const removed = remove(b);
    const changes = diffReviews(a, b).filter((c) => c.kind === kind);
    expect(changes).toEqual([
      expect.objectContaining({ change: "removed", before: removed, after: null }),
    ]);
    // And the other way round it is added.
    expect(diffReviews(b, a).filter((c) => c.kind === kind)).toEqual([
      expect.objectContaining({ change: "added", before: null, after: removed }),
    ]);
  });

  test("inside an agent's tool set and a server's declared tools it counts what was added and removed", () => {
    const a = base();
    const b = base();
    const agent = b.agents[0]!;
    const dropped = agent.tools.shift()!;
    agent.tools.push({ serverId: dropped.serverId, tool: "brand_new_tool" });
    const server = b.servers[0]!;
    server.declaredTools = [
      ...server.declaredTools.slice(1),
      { name: "another_tool", description: "new" },
      { name: "third_tool", description: "" },
    ];
    const changes = diffReviews(a, b);
    expect(changes.find((c) => c.key === `agent:${agent.id}`)?.details).toEqual([
      "tools: 1 added, 1 removed",
    ]);
    const declared = a.servers[0]!.declaredTools.length > 0 ? "2 added, 1 removed" : "2 added";
    expect(changes.find((c) => c.key === `server:${server.id}`)?.details).toEqual([
      `declaredTools: ${declared}`,
    ]);
  });

  test("controls pair up by what they are about, even when one server has two of a kind", () => {
    const a = base();
    a.controls.egress = [];
    const serverId = a.servers[0]!.id;
    const b = structuredClone(a);
    b.controls.egress = [
      { serverId, policyYaml: "kind: NetworkPolicy" },
      { serverId, policyYaml: "kind: NetworkPolicy # second" },
    ] as Review["controls"]["egress"];
    const c = structuredClone(b);
    c.controls.egress[1]!.policyYaml = "kind: NetworkPolicy # edited";
    expect(diffReviews(a, b).map((x) => [x.key, x.change])).toEqual([
      [`egress:${serverId}`, "added"],
      [`egress:${serverId}#2`, "added"],
    ]);
    expect(diffReviews(b, c).map((x) => [x.key, x.change, x.fields])).toEqual([
      [`egress:${serverId}#2`, "changed", ["policyYaml"]],
    ]);
    expect(summarizeChanges(diffReviews(a, b))).toBe("controls: 2 added");
  });

  test("5,000 tool assessments with a handful changed: only those are listed", () => {
    const a = base();
    const serverId = a.servers[0]!.id;
    a.tools = Array.from({ length: 5000 }, (_, i) => ({
      serverId,
      tool: `tool_${i}`,
      sourceIds: [],
      roles: ["returns_untrusted_text" as const],
      rolesConfirmed: false,
    }));
    const b = structuredClone(a);
    b.tools[10]!.rolesConfirmed = true;
    b.tools.splice(20, 1);
    const changes = diffReviews(a, b);
    expect(changes.map((c) => [c.key, c.change])).toEqual([
      [`tool:${serverId}/tool_10`, "changed"],
      [`tool:${serverId}/tool_20`, "removed"],
    ]);
  });
});
