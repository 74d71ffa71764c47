import { describe, expect, it } from "vitest";
import { groupPaths } from "./path-groups";

const path = (head: string, tool: string, agent: string, sink: string) => ({
  id: `${agent}:${head}:${tool}->${sink}`,
  head: { nodeId: `source:${head}`, label: head },
  returningTool: tool,
  agentId: agent,
  sink,
});

describe("paths grouped by head source × sink", () => {
  it("puts paths of the same source and sink in one group, whatever tool and agent they run through, in listing order", () => {
    const paths = [
      path("issues", "get_issue", "coder", "gh/create_pull_request"),
      path("issues", "list_issues", "coder", "gh/create_pull_request"),
      path("wiki", "get_page", "coder", "gh/create_pull_request"),
      path("issues", "get_issue", "coder", "gh/merge_pull_request"),
      path("issues", "get_issue", "reviewer", "gh/create_pull_request"),
    ];
    const groups = groupPaths(paths);
    expect(groups.map((g) => [g.first.head.label, g.first.sink, g.paths.length])).toEqual([
      ["issues", "gh/create_pull_request", 3],
      ["wiki", "gh/create_pull_request", 1],
      ["issues", "gh/merge_pull_request", 1],
    ]);
    expect(groups[0]!.returningTools).toEqual(["get_issue", "list_issues"]);
    expect(groups[0]!.agents).toEqual(["coder", "reviewer"]);
    expect(groups[0]!.paths.map((p) => p.id)).toEqual([paths[0]!.id, paths[1]!.id, paths[4]!.id]);
  });

  it("keeps every path exactly once", () => {
    const paths = Array.from({ length: 120 }, (_, i) =>
      path(`s${Math.floor(i / 60)}`, `t${i}`, "a", `sink${i % 6}`),
    );
    const groups = groupPaths(paths);
    expect(groups).toHaveLength(12);
    expect(groups.flatMap((g) => g.paths).sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...paths].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });
});
