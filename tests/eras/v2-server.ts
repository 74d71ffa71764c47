/**
 * A small MCP server on the SDK's v2 line (@modelcontextprotocol/server 2.4.0), served over
 * Streamable HTTP on loopback by `createMcpHandler`: the 2026-07-28 era per request, and by default
 * the 2025 era too (stateless). Its tool list depends on the bearer token a request carries, as a
 * 2026 server's may (a surface per credential); `cacheScope` is what its tools/list declares.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createMcpHandler, McpServer, type McpHttpHandler } from "@modelcontextprotocol/server";
import * as z from "zod/v4";

export type V2Server = { url: string; close: () => Promise<void> };

export type V2ServerOptions = {
  /** Refuse 2025-era requests (`legacy: 'reject'`). */
  modernOnly?: boolean;
  /** Extra tools listed for a request that carries this bearer token. */
  adminToken?: string;
  /** The `cacheScope` its 2026 tools/list declares (the SDK's default is `private`, ttlMs 0). */
  toolsCacheScope?: "public" | "private";
};

function build(authorization: string | undefined, options: V2ServerOptions): McpServer {
  const server = new McpServer(
    { name: "v2-fixture", version: "1.0.0" },
    options.toolsCacheScope
      ? { cacheHints: { "tools/list": { ttlMs: 60_000, cacheScope: options.toolsCacheScope } } }
      : {},
  );
  server.registerTool(
    "forecast",
    { description: "Forecast for a city", inputSchema: z.object({ city: z.string() }) },
    ({ city }) => ({ content: [{ type: "text", text: `${city}: sunny` }] }),
  );
  if (options.adminToken && authorization === `Bearer ${options.adminToken}`)
    server.registerTool(
      "delete_city",
      { description: "Remove a city", inputSchema: z.object({ city: z.string() }) },
      () => ({ content: [{ type: "text", text: "deleted" }] }),
    );
  return server;
}

/** Start it on 127.0.0.1 with an ephemeral port. */
export async function startV2Server(options: V2ServerOptions = {}): Promise<V2Server> {
  const handler = createMcpHandler(
    ({ requestInfo }) => build(requestInfo?.headers.get("authorization") ?? undefined, options),
    {
      ...(options.modernOnly ? { legacy: "reject" as const } : {}),
    },
  );
  return await serveHandler(handler);
}

/** Serve a v2 handler (createMcpHandler) over HTTP on 127.0.0.1 with an ephemeral port. */
export async function serveHandler(handler: McpHttpHandler): Promise<V2Server> {
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers))
          if (typeof v === "string") headers.set(k, v);
        const body = chunks.length ? Buffer.concat(chunks) : undefined;
        const response = await handler.fetch(
          new Request(`http://127.0.0.1${req.url ?? "/"}`, {
            method: req.method ?? "GET",
            headers,
            ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
          }),
        );
        res.writeHead(response.status, Object.fromEntries(response.headers));
        res.end(Buffer.from(await response.arrayBuffer()));
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await handler.close?.();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
