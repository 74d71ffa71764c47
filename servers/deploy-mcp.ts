/**
 * deploy-mcp: the sink in the demo — `trigger_deploy`, which deploys nothing and returns a fake
 * deployment id. Its description equals lib/review/demo.ts.
 *   node --import tsx servers/deploy-mcp.ts stdio | http --port N
 */
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { runServer } from "./shared/run";

export const TRIGGER_DEPLOY_DESCRIPTION = "Trigger a production deploy of a release.";

export function createDeployServer(): McpServer {
  const server = new McpServer({ name: "deploy-mcp", version: "1.0.0" });
  server.registerTool(
    "trigger_deploy",
    {
      description: TRIGGER_DEPLOY_DESCRIPTION,
      inputSchema: z.object({
        release: z.string().min(1).describe("Release id, e.g. 2026.11.3"),
        environment: z.enum(["production", "staging"]).default("production"),
      }),
      annotations: { destructiveHint: true },
    },
    ({ release, environment }) => ({
      content: [
        {
          type: "text" as const,
          text: JSON.stringify({
            deploymentId: `dep-${randomBytes(4).toString("hex")}`,
            release,
            environment,
            note: "demo server: nothing was deployed",
          }),
        },
      ],
    }),
  );
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  runServer("deploy-mcp", () => createDeployServer());
