import { describe, expect, it } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { toolListsFromReview, type ServerToolList } from "@/lib/model/input";
import type { UiResourceItem } from "@/lib/surface/apps";
import { analyzeReview } from "./analyze";
import { parseCspOrigin } from "./apps-findings";

const UI = "ui://knowledge/search-view.html";

/** The demo review with knowledge_search rendering a UI, an app-only tool, and the UI's CSP. */
function withApps(
  connectDomains: string[],
  opts: { holdAppOnly?: boolean; resourceDomains?: string[]; frameDomains?: string[] } = {},
) {
  const demo = createDemoReview();
  if (opts.holdAppOnly)
    demo.agents[0]!.tools.push({ serverId: "knowledge-mcp", tool: "refresh_view" } as never);
  const uiResources: UiResourceItem[] = [
    {
      uri: UI,
      mimeType: "text/html;profile=mcp-app",
      _meta: {
        ui: {
          csp: {
            connectDomains,
            ...(opts.resourceDomains ? { resourceDomains: opts.resourceDomains } : {}),
            ...(opts.frameDomains ? { frameDomains: opts.frameDomains } : {}),
          },
          permissions: { camera: {} },
        },
      },
    },
  ];
  const lists: ServerToolList[] = toolListsFromReview(demo).map((l) =>
    l.serverId === "knowledge-mcp"
      ? {
          ...l,
          origin: "snapshot",
          tools: [
            ...l.tools.map((t) =>
              t.name === "knowledge_search" ? { ...t, _meta: { ui: { resourceUri: UI } } } : t,
            ),
            {
              name: "refresh_view",
              description: "Refresh the search view.",
              _meta: { ui: { resourceUri: UI, visibility: ["app"] } },
            },
          ],
          uiResources,
        }
      : l,
  );
  return analyzeReview(demo, lists);
}

describe("MCP Apps findings", () => {
  it("a connectDomain the server's egress allowlist does not admit is a finding naming the domain and the resource", () => {
    // The demo policy admits 10.42.7.0/24 on 443 only.
    const analysis = withApps([
      "https://api.search.example",
      "https://10.42.7.9",
      "https://10.9.9.9",
      "https://*.cdn.example",
    ]);
    const found = analysis.findings.filter((f) => f.kind === "apps.connect_domain_not_admitted");
    const domains = found.map((f) => f.why.config[0]!.value).sort();
    expect(domains).toEqual([
      "https://*.cdn.example",
      "https://10.9.9.9",
      "https://api.search.example",
    ]);
    for (const f of found) {
      expect(f.severity).toBe("high");
      expect(f.controlId).toBe("egress");
      expect(f.subject.serverId).toBe("knowledge-mcp");
      expect(f.title).toContain(UI);
      expect(f.title).toContain(f.why.config[0]!.value);
    }
    expect(found.find((f) => f.title.includes("api.search.example"))!.why.summary).toMatch(
      /hostname/,
    );
    expect(found.find((f) => f.title.includes("*.cdn"))!.why.summary).toMatch(/wildcard/);
  });

  it("admitted domains and a UI that connects nowhere give no egress finding", () => {
    expect(
      withApps(["https://10.42.7.9", "wss://10.42.7.10"]).findings.some(
        (f) => f.kind === "apps.connect_domain_not_admitted",
      ),
    ).toBe(false);
    expect(withApps([]).findings.some((f) => f.kind === "apps.connect_domain_not_admitted")).toBe(
      false,
    );
  });

  it.each([
    [
      "resourceDomains",
      "apps.resource_domain_not_admitted",
      /load scripts.*runs with the UI's authority/,
    ],
    ["frameDomains", "apps.frame_domain_not_admitted", /embed.*its own origin's policy/],
  ] as const)(
    "%s the egress policy does not admit are findings; an admitted domain is not",
    (directive, kind, reason) => {
      // The demo policy admits 10.42.7.0/24 on 443 only.
      const analysis = withApps([], {
        [directive]: [
          "https://10.42.7.9",
          "10.42.7.20",
          "https://cdn.widgets.example",
          "https://*.widgets.example",
          "https://10.42.7.9:8443",
        ],
      });
      const found = analysis.findings.filter((f) => f.kind === kind);
      expect(found.map((f) => f.why.config[0]!.value).sort()).toEqual([
        "https://*.widgets.example",
        "https://10.42.7.9:8443",
        "https://cdn.widgets.example",
      ]);
      for (const f of found) {
        expect(f.severity).toBe("high");
        expect(f.controlId).toBe("egress");
        expect(f.subject).toEqual({ serverId: "knowledge-mcp" });
        expect(f.title).toContain(UI);
        expect(f.why.config[0]!.path).toBe(`uiResources["${UI}"]._meta.ui.csp.${directive}`);
        expect(f.why.summary).toMatch(reason);
      }
      expect(found.find((f) => f.title.includes("*.widgets"))!.why.summary).toMatch(/wildcard/);
      // Each directive's findings are its own: no connectDomains finding was raised.
      expect(analysis.findings.some((f) => f.kind === "apps.connect_domain_not_admitted")).toBe(
        false,
      );
    },
  );

  it("without an egress policy for the server each declared domain is a medium finding saying nothing bounds it", () => {
    const demo = withApps([], { frameDomains: ["https://10.42.7.9"] });
    expect(demo.findings.some((f) => f.kind === "apps.frame_domain_not_admitted")).toBe(false);
    const review = createDemoReview();
    review.controls.egress = [];
    const lists = toolListsFromReview(review).map((l) =>
      l.serverId === "knowledge-mcp"
        ? {
            ...l,
            origin: "snapshot" as const,
            tools: l.tools.map((t) =>
              t.name === "knowledge_search" ? { ...t, _meta: { ui: { resourceUri: UI } } } : t,
            ),
            uiResources: [
              {
                uri: UI,
                mimeType: "text/html;profile=mcp-app",
                _meta: { ui: { csp: { resourceDomains: ["https://10.42.7.9"] } } },
              },
            ],
          }
        : l,
    );
    const found = analyzeReview(review, lists).findings.filter(
      (f) => f.kind === "apps.resource_domain_not_admitted",
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe("medium");
    expect(found[0]!.title).toMatch(/no egress policy is recorded/);
  });

  it("an app-only tool the agent's UI can call is a finding until the tool set names it; then it is held and marked on the graph", () => {
    const without = withApps([]);
    const onCall = (f: { kind: string; subject: { agentId?: string } }) =>
      f.kind === "apps.app_only_tool_outside_tool_set" && f.subject.agentId === "on-call";
    const missing = without.findings.find(onCall);
    expect(missing?.title).toContain("refresh_view");
    expect(missing?.subject).toEqual({ agentId: "on-call", serverId: "knowledge-mcp" });
    const held = withApps([], { holdAppOnly: true });
    expect(held.findings.some(onCall)).toBe(false);
    expect(held.agents[0]!.tools).toContain("knowledge-mcp/refresh_view");
    const drawn = held.graph.nodes.filter(
      (n) =>
        (n.kind === "sink" || n.kind === "returning") && n.tool === "knowledge-mcp/refresh_view",
    );
    // Drawn as the roles its name and (absent) annotations suggest, each node marked app-only.
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.every((n) => "isAppOnly" in n && n.isAppOnly === true)).toBe(true);
    const drawnOthers = held.graph.nodes.filter(
      (n) =>
        (n.kind === "sink" || n.kind === "returning") && n.tool !== "knowledge-mcp/refresh_view",
    );
    expect(drawnOthers.every((n) => !("isAppOnly" in n))).toBe(true);
  });

  it("parses CSP origins to a host and port", () => {
    expect(parseCspOrigin("https://api.example.com")).toEqual({
      ok: true,
      host: "api.example.com",
      port: 443,
      isWildcard: false,
    });
    expect(parseCspOrigin("ws://live.example:8080")).toMatchObject({
      host: "live.example",
      port: 8080,
    });
    expect(parseCspOrigin("https://*.example.com")).toMatchObject({
      host: "*.example.com",
      isWildcard: true,
    });
    expect(parseCspOrigin("cdn.example.com")).toMatchObject({ host: "cdn.example.com", port: 443 });
    expect(parseCspOrigin("ftp://files.example").ok).toBe(false);
  });
});
