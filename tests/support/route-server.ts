/**
 * The workbench's route handlers served over node:http on 127.0.0.1 with the real auth check in
 * front (as proxy.ts wires it), for tests where a real client (the gate's reporter, fetch) must
 * reach them over HTTP. Only the routes listed answer; anything else is 404.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { allowedHostsFor, checkRequest } from "@/lib/auth/check";

export type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;
/** A route module's handler for `method`; a module that exports none is a test bug, said at once. */
export function handlerOf(mod: Record<string, unknown>, method: string): RouteHandler {
  const h = mod[method];
  if (typeof h !== "function") throw new Error(`the route exports no ${method}`);
  return h as RouteHandler;
}
/** A path pattern (named groups are the route's params), its method and its handler. */
export type Route = [RegExp, string, RouteHandler];

export async function startRouteServer(
  ownerToken: string,
  routes: readonly Route[],
): Promise<{ server: Server; base: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const auth = checkRequest(
      { method: req.method ?? "GET", url: url.toString(), headers },
      {
        ownerToken,
        allowedHosts: allowedHostsFor(String((server.address() as AddressInfo).port), undefined),
      },
    );
    if (!auth.allow) {
      res.writeHead(auth.status, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "UNAUTHORIZED", message: auth.reason } }));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(url, { method: req.method, headers, body });
    let answer = Response.json(
      { error: { code: "NOT_FOUND", message: "no such route" } },
      { status: 404 },
    );
    for (const [re, method, h] of routes) {
      const m = re.exec(url.pathname);
      if (m && method === req.method) {
        // Next hands a route its params decoded.
        const params = Object.fromEntries(
          Object.entries(m.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]),
        );
        answer = await h(request, { params: Promise.resolve(params) });
        break;
      }
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    server,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
