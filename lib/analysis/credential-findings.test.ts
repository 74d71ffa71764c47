import { describe, expect, it } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { buildSarif } from "@/lib/exports/sarif";
import { decisionFindings } from "@/lib/decisions/findings";
import { toolListsFromReview, type ServerToolList } from "@/lib/model/input";
import type { Credential } from "@/lib/credential";
import { analyzeReview } from "./analyze";
import { SHARED_CACHE_KIND } from "./credential-findings";

const READER: Credential = { kind: "secret", names: ["READER_TOKEN"] };
const ADMIN: Credential = {
  kind: "oauth",
  issuer: "https://as.example",
  subject: "admin",
  scopes: ["tools:admin"],
};

type Surfaces = NonNullable<ServerToolList["credentialSurfaces"]>;

/** The demo review with knowledge-mcp listed under the given credential surfaces. */
function analyse(credentialSurfaces: Surfaces) {
  const review = createDemoReview();
  const lists = toolListsFromReview(review).map((l) =>
    l.serverId === "knowledge-mcp" ? { ...l, credentialSurfaces } : l,
  );
  return { review, analysis: analyzeReview(review, lists) };
}

const surface = (
  era: "2025" | "2026",
  credential: Credential,
  tools: string[],
  cacheScope?: string,
): Surfaces[number] => ({
  era,
  credential,
  keys: { tools, resources: [], resourceTemplates: [], prompts: [] },
  cacheHints: cacheScope ? { tools: { cacheScope, ttlMs: 60_000 } } : {},
});

describe("the shared-cache finding in the analysis", () => {
  it("a list that differs between credentials under cacheScope public is a high finding of the server, in SARIF and in its decisions", () => {
    const { review, analysis } = analyse([
      surface("2026", READER, ["search"], "public"),
      surface("2026", ADMIN, ["search", "delete_city"], "public"),
    ]);
    const found = analysis.findings.filter((f) => f.kind === SHARED_CACHE_KIND);
    expect(found).toHaveLength(1);
    const f = found[0]!;
    expect(f.severity).toBe("high");
    expect(f.subject).toEqual({ serverId: "knowledge-mcp" });
    expect(f.title).toContain("tools");
    expect(f.why.summary).toContain("secret READER_TOKEN");
    expect(f.why.summary).toContain("OAuth admin from https://as.example");
    expect(f.why.summary).toContain("2026-07-28 era");
    expect(f.why.config[0]).toEqual({
      path: 'servers["knowledge-mcp"].cacheHints.tools.cacheScope',
      value: "public",
    });

    const sarif = buildSarif({
      reviewId: "rev_1",
      revision: 1,
      review,
      analysis,
      surfaceFlags: [],
      failedInspections: [],
    });
    const run = sarif.runs[0]!;
    const result = run.results!.find((r) => r.ruleId === SHARED_CACHE_KIND);
    expect(result?.level).toBe("error");
    expect(run.tool.driver.rules!.find((r) => r.id === SHARED_CACHE_KIND)?.name).toBe(
      "SharedCacheAcrossCredentials",
    );

    // A decision on the server lists it among the findings it must remove or accept (high), so
    // an approval that does neither is stale and `relay-review check` exits on it.
    const agent = review.agents.find((a) => a.tools.some((t) => t.serverId === "knowledge-mcp"))!;
    const open = decisionFindings({
      analysis,
      review,
      serverId: "knowledge-mcp",
      agentId: agent.id,
      surfaceFlags: [],
    });
    expect(open.find((d) => d.kind === SHARED_CACHE_KIND)?.severity).toBe("high");
  });

  it("no finding when the lists agree, when no result declared public, across eras, or under one credential", () => {
    const none = (s: Surfaces) =>
      analyse(s).analysis.findings.filter((f) => f.kind === SHARED_CACHE_KIND);
    // Same tools (order aside) under both credentials: a public cache serves the same list.
    expect(
      none([
        surface("2026", READER, ["search", "delete_city"], "public"),
        surface("2026", ADMIN, ["delete_city", "search"], "public"),
      ]),
    ).toEqual([]);
    // Different tools, but private: each client gets its own.
    expect(
      none([
        surface("2026", READER, ["search"], "private"),
        surface("2026", ADMIN, ["search", "delete_city"]),
      ]),
    ).toEqual([]);
    // Different eras list differently by design; they are never compared.
    expect(
      none([
        surface("2025", READER, ["search"]),
        surface("2026", ADMIN, ["search", "delete_city"], "public"),
      ]),
    ).toEqual([]);
    expect(none([surface("2026", READER, ["search"], "public")])).toEqual([]);
  });

  it("public under one credential only is enough: that result may be served to the other", () => {
    const found = analyse([
      surface("2026", READER, ["search"]),
      surface("2026", ADMIN, ["search", "delete_city"], "public"),
    ]).analysis.findings.filter((f) => f.kind === SHARED_CACHE_KIND);
    expect(found).toHaveLength(1);
    expect(found[0]!.why.summary).toMatch(/cacheScope "public" under OAuth admin/);
  });
});
