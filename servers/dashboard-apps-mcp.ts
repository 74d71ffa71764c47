/**
 * dashboard-apps-mcp: an MCP Apps demo server (extension `io.modelcontextprotocol/ui`) on the SDK's
 * v2 line. `show_dashboard` renders the `ui://dashboard/view.html` resource; the rendered app
 * calls `refresh_dashboard`, which is app-only (`_meta.ui.visibility: ["app"]`), so the model never
 * sees it and the app calls it without the model. The resource declares a CSP (the origins its UI
 * connects to, loads from and frames) and the camera and clipboard-write permissions, on both its
 * listing and the content `resources/read` returns. Nothing here reaches the network.
 *   node --import tsx servers/dashboard-apps-mcp.ts stdio | http --port N
 */
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/server";
import { runServer } from "./shared/run";

export const DASHBOARD_UI_URI = "ui://dashboard/view.html";
export const DASHBOARD_CSP = {
  connectDomains: ["https://api.dashboard.example", "wss://live.dashboard.example"],
  resourceDomains: ["https://cdn.dashboard.example"],
  frameDomains: ["https://player.video.example"],
};
export const DASHBOARD_PERMISSIONS = { camera: {}, clipboardWrite: {} };
const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

const UI_META = { ui: { csp: DASHBOARD_CSP, permissions: DASHBOARD_PERMISSIONS } };

export function createDashboardAppsServer(): McpServer {
  const server = new McpServer({ name: "dashboard-apps-mcp", version: "1.0.0" });
  server.registerTool(
    "show_dashboard",
    {
      description: "Show the team's deploy dashboard.",
      _meta: { ui: { resourceUri: DASHBOARD_UI_URI } },
    },
    () => ({ content: [{ type: "text" as const, text: "3 deploys today, none failed." }] }),
  );
  server.registerTool(
    "refresh_dashboard",
    {
      description: "Refresh the dashboard's figures (called by the dashboard app).",
      _meta: { ui: { resourceUri: DASHBOARD_UI_URI, visibility: ["app"] } },
    },
    () => ({ content: [{ type: "text" as const, text: '{"deploys":3,"failed":0}' }] }),
  );
  server.registerResource(
    "dashboard",
    DASHBOARD_UI_URI,
    { mimeType: MCP_APP_MIME_TYPE, description: "The deploy dashboard's view.", _meta: UI_META },
    () => ({
      contents: [
        {
          uri: DASHBOARD_UI_URI,
          mimeType: MCP_APP_MIME_TYPE,
          text: "<!doctype html><html><head><title>Deploy dashboard</title></head><body><main id=app></main></body></html>",
          _meta: UI_META,
        },
      ],
    }),
  );
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  runServer("dashboard-apps-mcp", () => createDashboardAppsServer());
