/**
 * A 2025-only MCP server on the v1 SDK (@modelcontextprotocol/sdk 1.32.2), stateless Streamable
 * HTTP on loopback: it answers `server/discover` as an unknown request, so a 2026 client falls
 * back to `initialize`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export async function startDemoHttp(): Promise<{ url: string; close: () => Promise<void> }> {
  const http = createServer((req, res) => {
    const server = new McpServer({ name: "v1-fixture", version: "1.0.0" });
    server.registerTool(
      "forecast",
      { description: "Forecast for a city", inputSchema: { city: z.string() } },
      ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny` }] }),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void transport.close());
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
