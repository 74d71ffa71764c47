/**
 * The demo servers: knowledge-mcp's tools and descriptions equal the demo review's declared
 * tools, its surface is the seed's registration shape, and stdio and Streamable HTTP give the
 * same fingerprint. deploy-mcp offers trigger_deploy.
 */
import { request } from "node:http";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { resolveInspectTarget } from "@/lib/mcp/node/resolve-target";
import { createDemoReview } from "@/lib/review/demo";
import { COMPILED_SERVERS_DIR } from "@/lib/mcp/node/resolve-target";
import { buildRegistrationRecord } from "@/lib/surface/registration";
import { DEPLOY, KNOWLEDGE, ROOT, startHttp } from "./helpers";

const demo = createDemoReview();
const declared = (id: string) => demo.servers.find((s) => s.id === id)!.declaredTools;

describe("demo servers", { timeout: 90_000 }, () => {
  test("knowledge-mcp over stdio and HTTP: declared tools, template, no prompts, same fingerprint", async () => {
    const http = await startHttp(["--import", "tsx", KNOWLEDGE, "http", "--port", "0"]);
    try {
      const [stdio, overHttp] = await Promise.all([
        inspectServer({
          kind: "stdio",
          command: process.execPath,
          args: ["--import", "tsx", KNOWLEDGE, "stdio"],
        }),
        inspectServer({ kind: "http", url: http.url }),
      ]);
      expect(stdio.ok && overHttp.ok).toBe(true);
      if (!stdio.ok || !overHttp.ok) return;
      const s = stdio.snapshot;
      expect(
        s.tools.map((t) => ({
          name: t.name,
          description: t.description ?? "",
          annotations: t.annotations,
        })),
      ).toEqual(
        declared("knowledge-mcp").map((t) => ({
          name: t.name,
          description: t.description,
          annotations: t.annotations,
        })),
      );
      expect(s.resourceTemplates.map((t) => t.uriTemplate)).toEqual(["atlas://spaces/{key}"]);
      expect(s.prompts).toEqual([]);
      expect(s.instructions).toMatch(/Atlas issue tracker/);
      expect(overHttp.snapshot.transport).toBe("streamable-http");
      expect(overHttp.snapshot.surfaceSha256).toBe(s.surfaceSha256);
      const record = buildRegistrationRecord(s, { image: demo.servers[0]!.imageDigest });
      expect(record.surface).toEqual({
        tools: ["get_comment", "knowledge_search", "list_spaces", "read_page"],
        resources: ["atlas://spaces/{key}"],
        prompts: [],
      });
      expect(record.on_surface_change).toBe("block");
    } finally {
      await http.stop();
    }
  });

  test("the workbench's HTTP path (resolveInspectTarget: egress check, then a fetch pinned to checked addresses) inspects knowledge-mcp", async () => {
    const http = await startHttp(["--import", "tsx", KNOWLEDGE, "http", "--port", "0"]);
    try {
      const server = {
        transport: {
          kind: "http" as const,
          url: http.url.replace("127.0.0.1", "localhost"),
          headerEnv: {},
        },
      };
      const port = new URL(http.url).port;
      // Loopback is admitted only by an entry naming its port; the refusal names the entry to add.
      const unnamed = await resolveInspectTarget(server, {});
      expect(unnamed.ok || unnamed.error.message).toMatch(
        new RegExp(`RELAY_REVIEW_EGRESS_ALLOW=.*127\\.0\\.0\\.1:${port}`),
      );
      const resolved = await resolveInspectTarget(server, {
        RELAY_REVIEW_EGRESS_ALLOW: `127.0.0.1:${port},[::1]:${port}`,
      });
      expect(resolved.ok).toBe(true);
      if (!resolved.ok) return;
      expect(resolved.target.kind === "http" && typeof resolved.target.fetch).toBe("function");
      const r = await inspectServer(resolved.target);
      expect(r.ok && r.snapshot.tools.map((t) => t.name).sort()).toEqual([
        "get_comment",
        "knowledge_search",
        "list_spaces",
        "read_page",
      ]);
      // The same server is refused before any request when loopback is not on the allowlist.
      const refused = await resolveInspectTarget(server, {
        RELAY_REVIEW_EGRESS_ALLOW: "10.0.0.0/8",
      });
      expect(refused.ok || refused.error.message).toMatch(
        /egress refused: localhost resolves to .*loopback/,
      );
    } finally {
      await http.stop();
    }
  });

  test("knowledge-mcp over HTTP refuses a foreign Host or Origin (DNS rebinding) and answers its own", async () => {
    const http = await startHttp(["--import", "tsx", KNOWLEDGE, "http", "--port", "0"]);
    const port = Number(new URL(http.url).port);
    // node:http, not fetch: fetch does not let a caller set Host.
    const post = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
        const req = request(
          {
            host: "127.0.0.1",
            port,
            path: "/mcp",
            method: "POST",
            headers: {
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              ...headers,
            },
          },
          (res) => {
            let text = "";
            res.on("data", (d: Buffer) => (text += d.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      const foreign = await post({ host: `evil.example:${port}` });
      expect(foreign.status).toBe(403);
      expect(foreign.body).toContain("Invalid Host header");
      expect((await post({ host: `127.0.0.1:${port + 1}` })).status).toBe(403);
      const crossOrigin = await post({ host: `127.0.0.1:${port}`, origin: "http://evil.example" });
      expect(crossOrigin.status).toBe(403);
      expect(crossOrigin.body).toContain("Invalid Origin header");
      expect(
        (await post({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).status,
      ).toBe(200);
      expect((await inspectServer({ kind: "http", url: http.url })).ok).toBe(true);
    } finally {
      await http.stop();
    }
  });

  test("the compiled demo servers (servers/dist, what the demo review's launchers run) serve their TypeScript source's surface", async () => {
    // knowledge-mcp-v4.2 bundles knowledge-mcp: only its own main may start, serving v4.2 once.
    for (const name of ["knowledge-mcp", "knowledge-mcp-v4.2", "deploy-mcp"]) {
      const inspect = (args: string[]) =>
        inspectServer({ kind: "stdio", command: process.execPath, args });
      const [compiled, source] = await Promise.all([
        inspect([path.join(ROOT, COMPILED_SERVERS_DIR, `${name}.js`), "stdio"]),
        inspect(["--import", "tsx", path.join(ROOT, "servers", `${name}.ts`), "stdio"]),
      ]);
      expect(compiled.ok && source.ok, JSON.stringify([compiled, source])).toBe(true);
      if (!compiled.ok || !source.ok) return;
      expect(
        compiled.snapshot.surfaceSha256,
        `servers/dist/${name}.js serves another surface than servers/${name}.ts: run \`npm run build:servers\``,
      ).toBe(source.snapshot.surfaceSha256);
    }
  });

  test("deploy-mcp offers trigger_deploy with the demo description", async () => {
    const r = await inspectServer({
      kind: "stdio",
      command: process.execPath,
      args: ["--import", "tsx", DEPLOY, "stdio"],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.snapshot.tools.map((t) => [t.name, t.description, t.annotations])).toEqual(
      declared("deploy-tools").map((t) => [t.name, t.description, t.annotations]),
    );
  });
});
