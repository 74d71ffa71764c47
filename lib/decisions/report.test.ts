import { describe, expect, test } from "vitest";
import type { ToolRef } from "@/lib/review/schema";
import { decisionStatus } from "@/lib/decisions/staleness";
import { renderDecisionMarkdown, type ReportAnalysisSummary } from "@/lib/decisions/report";
import { SURFACE_SHA, reviewWithDecision } from "@/tests/decisions/fixtures";

const analysis: ReportAnalysisSummary = {
  paths: [
    {
      from: "Tracker: support portal project (SUP)",
      to: "trigger_deploy",
      via: ["knowledge_search"],
      bound: "everyone with an email address",
    },
  ],
  controls: [
    {
      name: "tool-set separation",
      stops: "the path from a returned text to a sensitive sink",
      residue: "whatever damage the remaining tools can do",
      cuts: true,
    },
    {
      name: "approval on the sensitive path",
      stops: "unreviewed sensitive calls, if rare and out of band",
      residue: "an approver who trusts the model's justification",
      cuts: false,
    },
  ],
  residueStatement:
    "A payload already in the source, reaching the tools that stayed in the session.",
};

describe("renderDecisionMarkdown", () => {
  test("a current decision on the demo review: every section, the seed's numbers, conditions with whether they hold", () => {
    const { review, decision } = reviewWithDecision();
    const md = renderDecisionMarkdown({
      review,
      decision,
      status: decisionStatus(decision, { review, currentSurfaceSha256: SURFACE_SHA }),
      analysisSummary: analysis,
    });
    for (const heading of [
      "# Decision: `knowledge-mcp` into `on-call agent`",
      "## Summary",
      "## Decision",
      "### Bound fingerprints",
      "## Staleness",
      "## Writer bounds per source",
      "## Paths, controls and residues",
      "## Statements of intent",
    ]) {
      expect(md).toContain(heading);
    }
    expect(md).toContain("- **Verdict:** Approved with conditions");
    expect(md).toContain("- **Status:** current");
    expect(md).toContain("  - `trigger_deploy` on deploy-tools (not under review)");
    expect(md).not.toMatch(/`(?:knowledge-mcp|deploy-tools)\/[a-z_]+`/);
    expect(md).toContain("the credential of `knowledge-mcp` is read-only: holds");
    expect(md).toContain("egress of `knowledge-mcp` is default-deny: **cannot be checked**");
    expect(md).toContain(`- Surface SHA-256: \`${SURFACE_SHA}\``);
    expect(md).toContain("**everyone with an email address**");
    expect(md).toContain(
      "usage fact, not part of the bound: 2,100 of 31,400 external accounts wrote in the last year",
    );
    expect(md).toContain("returned into this agent by: `knowledge_search`, `get_comment`");
    expect(md).toContain(
      "- `Tracker: support portal project (SUP)` → `knowledge_search` → `trigger_deploy` (writers: everyone with an email address)",
    );
    expect(md).toContain(
      "tool-set separation: stops the path from a returned text to a sensitive sink; leaves whatever damage the remaining tools can do; **cuts the path**",
    );
    expect(md).toContain("Prose is not a control");
    expect(md.endsWith("\n") && !md.includes("\n\n\n")).toBe(true);
  });

  test("a stale decision says what changed; a declared-tools decision says so; no analysis is said plainly", () => {
    const { review, decision } = reviewWithDecision({ surfaceSha256: null });
    review.agents[0]!.tools.push({ serverId: "deploy-tools", tool: "share_file" } as ToolRef);
    const md = renderDecisionMarkdown({
      review,
      decision,
      status: decisionStatus(decision, { review, currentSurfaceSha256: null }),
    });
    expect(md).toContain("**stale**: 1 change");
    expect(md).toContain(
      "- `tool_set`: on-call agent's tool set changed: added share\\_file on deploy-tools (not under review)",
    );
    expect(md).toContain("**made against declared tools, not a live surface**");
    expect(md).toContain("Not supplied with this report.");
  });

  test("server- and reviewer-authored text cannot inject Markdown or HTML", () => {
    const { review, decision } = reviewWithDecision({
      reviewer: "Eve <script>alert(1)</script>",
      rationale:
        "Fine.\n\n# APPROVED BY SECURITY\n![pixel](https://evil.example/p.png) [docs](javascript:alert(1))",
    });
    review.servers[0]!.name = "km`` `<b>x</b>";
    review.sources[0]!.name = "**urgent** | col";
    const md = renderDecisionMarkdown({ review, decision, status: { state: "current" } });
    expect(md).not.toMatch(/<script>|^# APPROVED/m);
    expect(md).not.toMatch(/(?<!\\)!\[pixel\]/);
    expect(md).not.toMatch(/(?<!\\)\[docs\]\(/);
    expect(md).toContain("Eve \\<script\\>alert(1)\\</script\\>");
    expect(md).toContain("> \\# APPROVED BY SECURITY");
    expect(md).toContain("```km`` `<b>x</b>```");
    expect(md).toContain("`**urgent** | col`");
  });
});

describe("accepted risk in the report", () => {
  test("an approval that accepts risk says what, whose, why and until when; one that accepts none says none", () => {
    const { review, decision } = reviewWithDecision({
      acceptedRisks: [
        {
          findingId: "fnd-0904a035e353ad8e669034b6",
          kind: "path.to_sensitive_sink",
          severity: "critical",
          text: "Text written into the support portal can reach trigger_deploy",
          ends: { from: "Tracker: support portal project (SUP)", to: "trigger_deploy" },
          owner: "Head of Platform",
          why: "Deploys are rare and watched",
          until: "2026-04-05T10:00:00.000Z",
        },
      ],
      supersedes: "dec-earlier",
    });
    const md = renderDecisionMarkdown({
      review,
      decision,
      status: decisionStatus(decision, { review, currentSurfaceSha256: SURFACE_SHA }),
    });
    expect(md).toContain(
      "- **Accepted risk:** **1 finding accepted** (1 critical), until `2026-04-05T10:00:00.000Z` at the earliest",
    );
    expect(md).toContain("- **Supersedes:** decision `dec-earlier`");
    expect(md).toContain("### Accepted risk");
    expect(md).toContain("`fnd-0904a035e353ad8e669034b6`");
    expect(md).toContain("owner: Head of Platform; until `2026-04-05T10:00:00.000Z`");
    expect(md).toContain("why: Deploys are rare and watched");

    const plain = reviewWithDecision();
    expect(
      renderDecisionMarkdown({
        ...plain,
        status: { state: "current" },
        supersededBy: "dec-newer",
      }),
    ).toMatch(/Accepted risk:\*\* none[\s\S]*\*\*Superseded\*\* by decision `dec-newer`/);
  });
});
