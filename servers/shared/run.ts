/**
 * Runs a demo MCP server over stdio (`… stdio`) or Streamable HTTP on 127.0.0.1
 * (`… http --port N`, port 0 picks one; prints `listening http://127.0.0.1:PORT/mcp` on stdout),
 * on the SDK's v2 line (@modelcontextprotocol/server 2.4.0), so each speaks both protocol eras
 * from one factory: a 2026-07-28 client (`server/discover`, the per-request `_meta` envelope)
 * and a 2025 one (`initialize`). Over stdio `serveStdio` pins the connection to the era its
 * opening message chose; over HTTP `createMcpHandler` serves each request with a fresh instance
 * (modern per request, 2025 traffic through its stateless legacy leg, GET/DELETE 405).
 * Over HTTP it answers only requests whose Host is a loopback name on its own port, and whose
 * Origin, when sent, is such a URL too: a page on evil.example that rebinds its name to 127.0.0.1
 * sends `Host: evil.example`, and a page calling from another origin sends its Origin (403, as the
 * SDK's hostHeaderValidation middleware answers).
 */
import { createServer, type IncomingMessage } from "node:http";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, type McpServerFactory } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Why a request is refused for its Host or Origin, or null when both name this server on loopback.
 * `ownHost`: the loopback address the server listens on when it is not one of the usual names
 * (the OAuth demo's authorization server on 127.0.0.2).
 */
export function rebindingRefusal(
  headers: IncomingMessage["headers"],
  port: number,
  ownHost?: string,
): string | null {
  const isLoopbackAuthority = (authority: string, scheme = "http:") => {
    try {
      const url = new URL(`${scheme}//${authority}`);
      return (
        (LOOPBACK_NAMES.has(url.hostname) || url.hostname === ownHost) &&
        Number(url.port || (scheme === "https:" ? 443 : 80)) === port
      );
    } catch {
      return false;
    }
  };
  const host = headers.host;
  if (!host || !isLoopbackAuthority(host))
    return `Invalid Host header: ${JSON.stringify(host ?? null)}`;
  const origin = headers.origin;
  if (origin !== undefined) {
    let url: URL | null = null;
    try {
      url = new URL(origin);
    } catch {
      url = null;
    }
    if (
      !url ||
      (url.protocol !== "http:" && url.protocol !== "https:") ||
      !isLoopbackAuthority(url.host, url.protocol)
    ) {
      return `Invalid Origin header: ${JSON.stringify(origin)}`;
    }
  }
  return null;
}

export function runServer(
  name: string,
  create: McpServerFactory,
  argv = process.argv.slice(2),
): void {
  const mode = argv[0] ?? "stdio";
  if (mode === "stdio") {
    const handle = serveStdio(create, {
      onerror: (error) => process.stderr.write(`${name}: ${String(error)}\n`),
    });
    process.stdin.on("end", () => void handle.close().finally(() => process.exit(0)));
    return;
  }
  if (mode !== "http") {
    process.stderr.write(`usage: ${name} stdio | http [--port N]\n`);
    process.exit(2);
  }
  const i = argv.indexOf("--port");
  const port = i >= 0 ? Number(argv[i + 1] ?? 0) : 0;
  const mcp = createMcpHandler(create, {
    onerror: (error) => process.stderr.write(`${name}: ${String(error)}\n`),
  });
  const serve = toNodeHandler(mcp);
  const http = createServer((req, res) => {
    const address = http.address();
    const refusal = rebindingRefusal(
      req.headers,
      typeof address === "object" && address ? address.port : port,
    );
    if (refusal) {
      res
        .writeHead(403, { "content-type": "application/json" })
        .end(
          JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: refusal }, id: null }),
        );
      return;
    }
    serve(req, res).catch((error: unknown) => {
      process.stderr.write(`${name}: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  http.listen(port, "127.0.0.1", () => {
    const addr = http.address();
    process.stdout.write(
      `listening http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : port}/mcp\n`,
    );
  });
  const stop = () => {
    void mcp.close();
    http.close(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
