import { describe, expect, it } from "vitest";
import { ReviewSchema, type Review } from "@/lib/review/schema";
import { revisionClauses, revisionLine } from "./revision-line";

const base = ReviewSchema.parse({
  schemaVersion: 2,
  title: "GitHub in a coding assistant",
  servers: [
    {
      id: "gh",
      name: "server-github",
      transport: { kind: "manual" },
      declaredTools: [
        "get_issue",
        "list_issues",
        "search_issues",
        "get_file_contents",
        "create_pull_request",
        "merge_pull_request",
      ].map((name) => ({ name })),
    },
  ],
  sources: [
    {
      id: "issues",
      name: "Issue tracker",
      writers: { externalAccounts: 10, selfServiceSignupOpen: true },
    },
    {
      id: "repos",
      name: "Private repositories",
      writers: { externalAccounts: 0, selfServiceSignupOpen: false },
    },
  ],
  agents: [
    {
      id: "coder",
      name: "coding assistant",
      tools: [{ serverId: "gh", tool: "get_issue" }],
    },
  ],
});

const edit = (f: (r: Review) => unknown) => ReviewSchema.parse(f(structuredClone(base)));

describe("a revision's one-line account of what it changed", () => {
  it("says the first revision created the review", () => {
    expect(revisionLine(null, base)).toBe("created the review");
  });

  it("counts the tools mapped to each source by name, not by id", () => {
    const next = edit((r) => ({
      ...r,
      tools: [
        "get_issue",
        "list_issues",
        "search_issues",
        "create_pull_request",
        "merge_pull_request",
      ].map((tool) => ({
        serverId: "gh",
        tool,
        sourceIds: ["issues"],
        roles: [],
        rolesConfirmed: false,
      })),
    }));
    expect(revisionLine(base, next)).toBe("mapped 5 tools to Issue tracker");
    const unmapped = edit((r) => ({
      ...next,
      tools: next.tools.map((t, i) => (i < 2 ? { ...t, sourceIds: ["repos"] } : t)),
      title: r.title,
    }));
    expect(revisionLine(next, unmapped)).toBe(
      "mapped 2 tools to Private repositories; unmapped 2 tools from Issue tracker",
    );
  });

  it("tells a renamed agent, and tools given to it, from a changed one", () => {
    const renamed = edit((r) => ({
      ...r,
      agents: [
        {
          ...r.agents[0]!,
          name: "coding assistant (read)",
          tools: [
            ...r.agents[0]!.tools,
            { serverId: "gh", tool: "list_issues" },
            { serverId: "gh", tool: "search_issues" },
          ],
        },
      ],
    }));
    expect(revisionClauses(base, renamed)).toEqual([
      "renamed agent coding assistant to coding assistant (read)",
      "gave coding assistant (read) 2 tools",
    ]);
  });

  it("names roles set and roles confirmed apart", () => {
    const set = edit((r) => ({
      ...r,
      tools: [
        { serverId: "gh", tool: "merge_pull_request", roles: ["writes"], rolesConfirmed: false },
      ],
    }));
    expect(revisionLine(base, set)).toBe("set the roles of 1 tool");
    const confirmed = edit(() => ({
      ...set,
      tools: set.tools.map((t) => ({ ...t, rolesConfirmed: true })),
    }));
    expect(revisionLine(set, confirmed)).toBe("confirmed the roles of 1 tool");
  });

  it("names a sample kept with a tool as what came back, the oldest dropped or not", () => {
    const sample = (minute: number, kind: "prose" | "names_only" | "no_text") => ({
      at: `2026-12-07T14:0${minute}:00.000Z`,
      by: "alice",
      kind,
    });
    const assessed = edit((r) => ({
      ...r,
      tools: [{ serverId: "gh", tool: "list_issues", roles: [], rolesConfirmed: true }],
    }));
    const once = edit(() => ({
      ...assessed,
      tools: [{ ...assessed.tools[0]!, samples: [sample(1, "names_only")] }],
    }));
    expect(revisionLine(assessed, once)).toBe("sampled list_issues: names only");
    const full = edit(() => ({
      ...once,
      tools: [
        {
          ...once.tools[0]!,
          samples: [sample(1, "names_only"), sample(2, "no_text"), sample(3, "no_text")],
        },
      ],
    }));
    const fourth = edit(() => ({
      ...full,
      tools: [
        {
          ...full.tools[0]!,
          samples: [sample(2, "no_text"), sample(3, "no_text"), sample(4, "prose")],
        },
      ],
    }));
    expect(revisionLine(full, fourth)).toBe("sampled list_issues: prose");
  });

  it("shows three clauses and counts the rest; says when nothing changed", () => {
    const many = edit((r) => ({
      ...r,
      title: "Renamed",
      agents: [
        ...r.agents,
        { id: "a2", name: "second", tools: [] },
        { id: "a3", name: "third", tools: [] },
        { id: "a4", name: "fourth", tools: [] },
      ],
    }));
    expect(revisionLine(base, many)).toBe(
      "retitled the review Renamed; added agent second; added agent third; and 1 more change",
    );
    expect(revisionLine(base, base)).toBe("no change");
  });
});
