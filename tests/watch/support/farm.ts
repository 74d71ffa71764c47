/**
 * Many small MCP servers on one loopback port, for the schedule tests: `/mcp/<name>` is a
 * stateless Streamable HTTP server with one tool whose description the test can change between
 * runs (a surface change), and whose tools/list can be slowed down (so a process can be killed
 * in the middle of a job). Real servers over a real transport; each request gets a fresh McpServer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export type Farm = {
  url: (name: string) => string;
  /** The description of `name`'s tool; change it to change its surface. */
  describe: (name: string, description: string) => void;
  /** Milliseconds each tools/list of `name` waits before answering. */
  slow: (name: string, ms: number) => void;
  /** tools/list calls per server so far. */
  lists: Map<string, number>;
  close: () => Promise<void>;
};

export async function startFarm(): Promise<Farm> {
  const descriptions = new Map<string, string>();
  const delays = new Map<string, number>();
  const lists = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const m = /^\/mcp\/([a-z0-9-]+)$/.exec(req.url ?? "");
    if (!m) return void res.writeHead(404).end();
    const name = m[1]!;
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const body: unknown = text ? JSON.parse(text) : undefined;
        if (text.includes('"tools/list"')) {
          lists.set(name, (lists.get(name) ?? 0) + 1);
          const delay = delays.get(name) ?? 0;
          if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        }
        const mcp = new McpServer({ name, version: "1.0.0" });
        mcp.registerTool(
          "read_page",
          {
            description: descriptions.get(name) ?? "Read a page.",
            inputSchema: {},
            annotations: { readOnlyHint: true },
          },
          () => ({ content: [{ type: "text", text: "page" }] }),
        );
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        res.on("close", () => {
          void transport.close();
          void mcp.close();
        });
        await mcp.connect(transport);
        await transport.handleRequest(req, res, body);
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (name) => `http://127.0.0.1:${port}/mcp/${name}`,
    describe: (name, description) => void descriptions.set(name, description),
    slow: (name, ms) => void delays.set(name, ms),
    lists,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
