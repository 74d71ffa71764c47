/**
 * MCP Apps inspected for real: the dashboard-apps-mcp demo server (@modelcontextprotocol/server
 * 2.4.0, no SDK mocks) over stdio (2025 era) and Streamable HTTP (2026 era first). The inspection
 * keeps each tool's `_meta.ui` link and visibility, reads the ui:// resource for its CSP and
 * permissions, and the fingerprint covers them; the analysis of a review holding the UI tool
 * flags the connectDomains its egress policy does not admit and the app-only tool outside the set.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { toolListsFromReview } from "@/lib/model/input";
import { createDemoReview } from "@/lib/review/demo";
import { uiDeclarations } from "@/lib/surface/apps";
import { fingerprintSurface } from "@/lib/surface/fingerprint";
import { surfaceOf } from "@/lib/surface/types";
import { DASHBOARD_CSP, DASHBOARD_UI_URI } from "../../servers/dashboard-apps-mcp";
import { ROOT, startHttp } from "./helpers";

const APPS = path.join(ROOT, "servers/dashboard-apps-mcp.ts");

describe("MCP Apps surface (dashboard-apps-mcp)", { timeout: 90_000 }, () => {
  test("both eras: tool↔UI link, app-only visibility, the UI's CSP and permissions, all in the fingerprint", async () => {
    const http = await startHttp(["--import", "tsx", APPS, "http", "--port", "0"]);
    try {
      const [stdio, overHttp] = await Promise.all([
        inspectServer({
          kind: "stdio",
          command: process.execPath,
          args: ["--import", "tsx", APPS, "stdio"],
        }),
        inspectServer({ kind: "http", url: http.url }),
      ]);
      expect(stdio.ok ? "" : stdio.error.message).toBe("");
      expect(overHttp.ok ? "" : overHttp.error.message).toBe("");
      if (!stdio.ok || !overHttp.ok) return;
      expect(overHttp.snapshot.era).toBe("2026");
      for (const { snapshot: s } of [stdio, overHttp]) {
        const byName = new Map(s.tools.map((t) => [t.name, t]));
        expect(byName.get("show_dashboard")?._meta).toEqual({
          ui: { resourceUri: DASHBOARD_UI_URI },
        });
        expect(byName.get("refresh_dashboard")?._meta).toEqual({
          ui: { resourceUri: DASHBOARD_UI_URI, visibility: ["app"] },
        });
        expect(s.uiResources).toEqual([
          {
            uri: DASHBOARD_UI_URI,
            mimeType: "text/html;profile=mcp-app",
            _meta: {
              ui: { csp: DASHBOARD_CSP, permissions: { camera: {}, clipboardWrite: {} } },
            },
          },
        ]);
        const [ui] = uiDeclarations(s.uiResources ?? [], s.resources, s.tools);
        expect(ui).toMatchObject({
          permissions: ["camera", "clipboardWrite"],
          appOnlyTools: ["refresh_dashboard"],
        });
        // The stored fingerprint is the published procedure over the stored surface, and it
        // covers the UI resource.
        const fp = fingerprintSurface(surfaceOf(s));
        expect(fp.surfaceSha256).toBe(s.surfaceSha256);
        expect(fp.canonical).toContain('"uiResources":[{"_meta":{"ui":{"csp":');
        expect(s.itemHashes.uiResources?.map((h) => h.key)).toEqual([DASHBOARD_UI_URI]);
      }
      // One server, one surface: both eras hash alike.
      expect(overHttp.snapshot.surfaceSha256).toBe(stdio.snapshot.surfaceSha256);

      // The analysis of a review whose on-call agent holds show_dashboard from this server.
      const review = createDemoReview();
      review.agents[0]!.tools.push({ serverId: "knowledge-mcp", tool: "show_dashboard" } as never);
      const s = stdio.snapshot;
      const lists = toolListsFromReview(
        review,
        new Map([
          [
            "knowledge-mcp",
            {
              tools: s.tools.map((t) => ({
                name: t.name,
                description: t.description ?? "",
                inputSchema: t.inputSchema,
                ...(t._meta ? { _meta: t._meta } : {}),
              })),
              resources: s.resources,
              ...(s.uiResources ? { uiResources: s.uiResources } : {}),
            },
          ],
        ]),
      );
      const analysis = analyzeReview(review, lists);
      const egress = analysis.findings.filter((f) => f.kind === "apps.connect_domain_not_admitted");
      expect(egress.map((f) => f.why.config[0]!.value).sort()).toEqual(
        [...DASHBOARD_CSP.connectDomains].sort(),
      );
      expect(egress.every((f) => f.title.includes(DASHBOARD_UI_URI))).toBe(true);
      const appOnly = analysis.findings.find(
        (f) => f.kind === "apps.app_only_tool_outside_tool_set" && f.subject.agentId === "on-call",
      );
      expect(appOnly?.title).toContain("refresh_dashboard");
    } finally {
      await http.stop();
    }
  });
});
