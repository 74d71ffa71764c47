/**
 * The demo servers on the SDK's v2 line answer both protocol eras over both transports: a
 * 2026-07-28 client (server/discover, then stateless requests carrying their `_meta` envelope)
 * and a 2025 client (initialize). Real processes and the v2 client; nothing is mocked.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { describe, expect, test } from "vitest";
import { DEPLOY, KNOWLEDGE, startHttp } from "../surface/helpers";

type Mode = "auto" | "legacy";
const KNOWLEDGE_TOOLS = ["get_comment", "knowledge_search", "list_spaces", "read_page"];

async function talk(
  mode: Mode,
  transport: StdioClientTransport | StreamableHTTPClientTransport,
  tool: { name: string; arguments: Record<string, unknown> },
) {
  const client = new Client(
    { name: "eras-test", version: "1.0.0" },
    { versionNegotiation: { mode } },
  );
  await client.connect(transport);
  try {
    const list = await client.listTools();
    const call = await client.callTool(tool);
    return {
      version: client.getNegotiatedProtocolVersion(),
      discovered: client.getDiscoverResult() !== undefined,
      tools: list.tools.map((t) => t.name).sort(),
      hasCacheHint: "ttlMs" in list || "cacheScope" in list,
      isError: call.isError === true,
      text: JSON.stringify(call.content),
    };
  } finally {
    await client.close();
  }
}

const stdio = (file: string) =>
  new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", file, "stdio"] });
const listSpaces = { name: "list_spaces", arguments: {} };

describe("demo servers in both protocol eras", { timeout: 90_000 }, () => {
  test("knowledge-mcp over stdio: 2026-07-28 through server/discover, 2025 through initialize", async () => {
    const modern = await talk("auto", stdio(KNOWLEDGE), listSpaces);
    const legacy = await talk("legacy", stdio(KNOWLEDGE), listSpaces);
    expect(modern).toMatchObject({ version: "2026-07-28", discovered: true, isError: false });
    expect(modern.hasCacheHint).toBe(true); // a 2026 list carries cache hints
    expect(legacy).toMatchObject({ discovered: false, isError: false, hasCacheHint: false });
    expect(legacy.version).toMatch(/^2025-/);
    expect(modern.tools).toEqual(KNOWLEDGE_TOOLS);
    expect(legacy.tools).toEqual(KNOWLEDGE_TOOLS);
    expect(modern.text).toContain("ENG");
    expect(legacy.text).toBe(modern.text);
  });

  test("knowledge-mcp over Streamable HTTP answers both eras on one endpoint", async () => {
    const http = await startHttp(["--import", "tsx", KNOWLEDGE, "http", "--port", "0"]);
    try {
      const url = new URL(http.url);
      const modern = await talk("auto", new StreamableHTTPClientTransport(url), listSpaces);
      const legacy = await talk("legacy", new StreamableHTTPClientTransport(url), listSpaces);
      expect(modern).toMatchObject({ version: "2026-07-28", discovered: true, isError: false });
      expect(legacy).toMatchObject({ discovered: false, isError: false });
      expect(legacy.version).toMatch(/^2025-/);
      expect(modern.tools).toEqual(KNOWLEDGE_TOOLS);
      expect(legacy.tools).toEqual(KNOWLEDGE_TOOLS);
    } finally {
      await http.stop();
    }
  });

  test("deploy-mcp calls trigger_deploy in both eras", async () => {
    const call = { name: "trigger_deploy", arguments: { release: "2026.11.3" } };
    const modern = await talk("auto", stdio(DEPLOY), call);
    const legacy = await talk("legacy", stdio(DEPLOY), call);
    expect(modern.version).toBe("2026-07-28");
    expect(legacy.version).toMatch(/^2025-/);
    for (const r of [modern, legacy]) {
      expect(r.tools).toEqual(["trigger_deploy"]);
      expect(r.text).toContain("nothing was deployed");
    }
  });
});
