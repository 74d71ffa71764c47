import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { ReviewSchema } from "@/lib/review/schema";
import { fitText } from "@/components/graph/fit-text";
import { distinctLabels, type LabelRequest } from "@/components/graph/labels";
import { defaultCollapsed, layoutGraph, type GraphLayout } from "@/components/graph/layout";
import { nodeLabels } from "@/components/graph/node-labels";
import { focusView } from "@/components/graph/view-model";
import { gitlabLikeReview } from "../../e2e/support/large-review";

/** Widths in the spirit of a proportional font: narrow and wide letters, bold a little wider. */
const WIDTHS: Record<string, number> = {
  i: 3,
  l: 3,
  j: 3,
  t: 4,
  f: 4,
  r: 4,
  " ": 3.5,
  _: 6,
  m: 10,
  w: 10,
  "…": 8,
};
const measure = (text: string, font = "400 12") => {
  const [weight, size] = font.split(" ").map(Number);
  const scale = (size! / 12) * (weight! >= 600 ? 1.08 : 1);
  return (
    [...text].reduce((w, c) => w + (WIDTHS[c] ?? (c >= "A" && c <= "Z" ? 8.5 : 6.5)), 0) * scale
  );
};
const req = (
  key: string,
  text: string,
  px: number,
  more: Partial<LabelRequest> = {},
): LabelRequest => ({ key, column: 0, text, px, font: "400 12", ...more });

describe("labels that never repeat in a column", () => {
  it("keeps labels that fit or differ once fitted, exactly as fitText cuts them", () => {
    const out = distinctLabels(
      [req("a", "search", 100), req("b", "unmapped text returned by search_tickets", 100)],
      measure,
    );
    expect(out.get("a")).toBe("search");
    expect(out.get("b")).toBe(
      fitText("unmapped text returned by search_tickets", 100, (t) => measure(t)),
    );
  });

  it("cuts labels that read alike once fitted at their end too, numbered in column order, each within its box", () => {
    const texts = [
      "returned by create_issue",
      "returned by create_issue_note",
      "returned by create_issue_link",
      "returned by create_issue_discussion_note",
    ];
    const px = measure("returned by create_iss…");
    // Cut alike, all four read the same.
    expect(new Set(texts.map((t) => fitText(t, px, (s) => measure(s)))).size).toBe(1);
    const out = distinctLabels(
      texts.map((t, i) => req(String(i), t, px)),
      measure,
    );
    const labels = texts.map((_, i) => out.get(String(i))!);
    expect(new Set(labels).size).toBe(4);
    labels.forEach((l, i) => {
      expect(measure(l)).toBeLessThanOrEqual(px);
      // The start a reader scans by is kept; the cut is at the end, before the number.
      expect(l).toMatch(new RegExp(`^returned by c.*… ·${i + 1}$`));
    });
  });

  it("switches to the qualified text when two nodes have the same text, and numbers what nothing else tells apart", () => {
    const out = distinctLabels(
      [
        req("w1", "unknown writers", 200, { qualified: "unknown writers of get_page_17" }),
        req("w2", "unknown writers", 200, { qualified: "unknown writers of get_page_170" }),
        req("t1", "create_issue", 200, { qualified: "gitlab/create_issue" }),
        req("t2", "create_issue", 200, { qualified: "gitlab mirror/create_issue" }),
        req("t3", "create_issue", 200, { column: 1 }), // another column may repeat it
        req("s1", "portal", 200),
        req("s2", "portal", 200),
      ],
      measure,
    );
    expect(out.get("w1")).toBe("unknown writers of get_page_17");
    expect(out.get("w2")).toBe("unknown writers of get_page_170");
    expect(out.get("t1")).toBe("gitlab/create_issue");
    expect(out.get("t2")).toBe("gitlab mirror/create_issue");
    expect(out.get("t3")).toBe("create_issue");
    expect([out.get("s1"), out.get("s2")]).toEqual(["portal ·1", "portal ·2"]);
  });

  it("counts what a group draws after its name (its count) as part of what the reader sees", () => {
    const out = distinctLabels(
      [
        req("g1", "gitlab", 200, { after: "  12 tools" }),
        req("g2", "gitlab", 200, { after: "  3 tools" }),
      ],
      measure,
    );
    expect(out.get("g1")).toBe("gitlab");
    expect(out.get("g2")).toBe("gitlab");
  });
});

/** A deterministic pseudo-random sequence, so every run checks the same cases. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function expectUniquePerColumn(layout: GraphLayout, labels: Map<string, string>) {
  const seen = new Map<string, string>();
  for (const n of layout.nodes) {
    const label = labels.get(n.key);
    expect(label, n.key).toBeDefined();
    // What the node shows: the label, and a group's count after it.
    const shown = `${n.column}\n${label}${n.group ? ` ${n.group.count}/${n.group.total}` : ""}`;
    expect(
      seen.get(shown),
      `${n.key} and ${seen.get(shown)} both show ${JSON.stringify(label)}`,
    ).toBeUndefined();
    seen.set(shown, n.key);
  }
}

describe("the visible labels of a 200-tool graph", () => {
  const review = ReviewSchema.parse(gitlabLikeReview());
  const analysis = analyzeReview(review, toolListsFromReview(review));
  const names = {
    server: (id: string) => review.servers.find((s) => s.id === id)?.name ?? id,
    agent: (id: string) => id,
  };

  it("are unique within each column, expanded or collapsed, in the default view and the whole graph", () => {
    const focus = focusView(analysis)!;
    expect(analysis.tools.length).toBeGreaterThanOrEqual(200);
    expect(focus.nodes.size).toBeLessThan(analysis.graph.nodes.length); // the suggested writes wait behind "Show all"
    for (const only of [undefined, focus.nodes]) {
      for (const collapsed of [new Set<string>(), defaultCollapsed(analysis, only)]) {
        const layout = layoutGraph(analysis, collapsed, {
          only,
          measureAgent: (t) => measure(t, "600 12"),
        });
        expectUniquePerColumn(layout, nodeLabels(analysis, layout, names, measure));
      }
    }
  });

  it("stay unique for random tool names with long shared prefixes, and every label fits its box", () => {
    const rand = lcg(11);
    const words = [
      "create",
      "issue",
      "note",
      "merge",
      "request",
      "discussion",
      "pipeline",
      "job",
      "x",
      "i",
      "get",
      "list",
    ];
    for (let round = 0; round < 4; round++) {
      const count = 200 + Math.floor(rand() * 20);
      const tools = new Set<string>();
      while (tools.size < count)
        tools.add(
          Array.from(
            { length: 2 + Math.floor(rand() * 5) },
            () => words[Math.floor(rand() * words.length)]!,
          ).join(rand() < 0.8 ? "_" : "-"),
        );
      const declared = [...tools].map((name) => ({ name }));
      const r = ReviewSchema.parse({
        schemaVersion: 2,
        title: "t",
        servers: [
          { id: "a", name: "srv", transport: { kind: "manual" }, declaredTools: declared },
          {
            id: "b",
            name: "srv",
            transport: { kind: "manual" },
            declaredTools: declared.slice(0, 30),
          }, // same server name, same tool names
        ],
        tools: [
          ...declared.map((t, i) => ({
            serverId: "a",
            tool: t.name,
            roles:
              i % 2
                ? ["returns_untrusted_text", "writes"]
                : ["returns_untrusted_text", "deploys_or_destroys"],
            rolesConfirmed: true,
          })),
          ...declared.slice(0, 30).map((t) => ({
            serverId: "b",
            tool: t.name,
            roles: ["returns_untrusted_text", "network_or_shares"],
            rolesConfirmed: true,
          })),
        ],
        agents: [
          {
            id: "ag",
            name: "agent",
            tools: [
              ...declared.map((t) => ({ serverId: "a", tool: t.name })),
              ...declared.slice(0, 30).map((t) => ({ serverId: "b", tool: t.name })),
            ],
          },
        ],
      });
      const a = analyzeReview(r, toolListsFromReview(r));
      const layout = layoutGraph(a, new Set());
      const labels = nodeLabels(
        a,
        layout,
        { server: (id) => r.servers.find((s) => s.id === id)!.name, agent: (id) => id },
        measure,
      );
      expectUniquePerColumn(layout, labels);
      for (const n of layout.nodes)
        if (!n.group)
          expect(
            measure(
              labels.get(n.key)!,
              n.kind === "sink" || n.kind === "agent"
                ? "600 12"
                : n.kind === "writers"
                  ? "400 11.5"
                  : "400 12",
            ),
            n.key,
          ).toBeLessThanOrEqual(n.w - 14 + 0.001);
    }
  });
});
