/**
 * Runs a demo MCP server over stdio (`… stdio`) or Streamable HTTP on 127.0.0.1
 * (`… http --port N`, port 0 picks one; prints `listening http://127.0.0.1:PORT/mcp` on stdout).
 * HTTP runs stateless: a fresh server and transport per POST, as the SDK's stateless example does.
 */
import { createServer } from "node:http";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export async function runServer(name: string, create: () => McpServer, argv = process.argv.slice(2)): Promise<void> {
  const mode = argv[0] ?? "stdio";
  if (mode === "stdio") {
    const server = create();
    await server.connect(new StdioServerTransport());
    process.stdin.on("end", () => void server.close().finally(() => process.exit(0)));
    return;
  }
  if (mode !== "http") {
    process.stderr.write(`usage: ${name} stdio | http [--port N]\n`);
    process.exit(2);
  }
  const i = argv.indexOf("--port");
  const port = i >= 0 ? Number(argv[i + 1] ?? 0) : 0;
  const http = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const server = create();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        process.stderr.write(`${name}: ${String(error)}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  http.listen(port, "127.0.0.1", () => {
    const addr = http.address();
    process.stdout.write(`listening http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : port}/mcp\n`);
  });
  const stop = () => http.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
