/**
 * Import of the shipped example configs (examples/configs): each round-trips through review
 * entries and an exported client config, no secret value survives, malformed files name the line
 * and the field, and the decision exports are real files that validate.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseNetworkPolicies } from "@/lib/controls/egress/policy";
import { classifyEgress, wouldAllow } from "@/lib/controls/egress/evaluate";
import { buildDecision } from "@/lib/decisions/binding";
import { buildExport, clientConfigForServers } from "@/lib/exports/exports";
import { parseClientConfig, type ImportedConfig } from "@/lib/import/config";
import { applyImport, reviewFromImport } from "@/lib/import/merge";
import { createDemoReview } from "@/lib/review/demo";
import { ReviewSchema, type Review } from "@/lib/review/schema";
import { parse as parseYaml, parseAllDocuments } from "yaml";

const ROOT = path.resolve(import.meta.dirname, "../..");
export const EXAMPLES = {
  "claude-desktop": "examples/configs/claude_desktop_config.json",
  vscode: "examples/configs/.vscode/mcp.json",
  cursor: "examples/configs/.cursor/mcp.json",
  "mcp-servers": "examples/configs/mcp-servers.json",
} as const;
export const FAKE_SECRETS = [
  "ghp_FAKEexampleTOKEN0000000000000000000000",
  "lin_api_FAKEexample000000000000000000000000",
];

const read = (rel: string) => readFileSync(path.join(ROOT, rel), "utf8");
function load(rel: string): ImportedConfig {
  const r = parseClientConfig(read(rel), { fileName: rel });
  if (!r.ok) throw new Error(r.issues.map((i) => `${i.line}: ${i.path}: ${i.message}`).join("\n"));
  return r.config;
}
const servers = (c: ImportedConfig) =>
  c.servers.map((s) => ({ name: s.name, transport: s.transport }));

describe("shipped example configs", () => {
  test.each(Object.entries(EXAMPLES))(
    "%s round-trips: parse → review → exported config → parse gives the same servers",
    (shape, rel) => {
      const config = load(rel);
      expect(config.shape).toBe(shape);
      const { review } = reviewFromImport(config);
      const stored = ReviewSchema.parse(review); // what the store would accept
      const again = parseClientConfig(clientConfigForServers(stored.servers), {
        fileName: "mcp.json",
      });
      expect(again.ok).toBe(true);
      if (!again.ok) return;
      expect(servers(again.config)).toEqual(servers(config));
      expect(again.config.replacements).toEqual([]); // only references left
      for (const secret of FAKE_SECRETS) expect(JSON.stringify(stored)).not.toContain(secret);
      expect(JSON.stringify(config)).not.toContain("FAKE");
    },
  );

  test("secrets are replaced by variable names, and the result says which", () => {
    const claude = load(EXAMPLES["claude-desktop"]);
    expect(claude.replacements).toEqual([
      {
        server: "github",
        field: "env",
        name: "GITHUB_PERSONAL_ACCESS_TOKEN",
        variable: "GITHUB_PERSONAL_ACCESS_TOKEN",
        path: "mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN",
        line: 11,
      },
    ]);
    expect(claude.servers.find((s) => s.key === "github")?.transport).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      envNames: ["GITHUB_PERSONAL_ACCESS_TOKEN"],
    });
    const cursor = load(EXAMPLES.cursor);
    expect(cursor.replacements).toEqual([
      {
        server: "linear",
        field: "header",
        name: "Authorization",
        variable: "RR_LINEAR_AUTHORIZATION",
        path: "mcpServers.linear.headers.Authorization",
        line: 10,
      },
    ]);
    expect(cursor.servers.find((s) => s.key === "linear")?.transport).toEqual({
      kind: "http",
      url: "https://mcp.linear.example/mcp",
      headerEnv: { Authorization: "RR_LINEAR_AUTHORIZATION" },
    });
    // references are not secrets: ${env:X}, ${X}, ${input:…}
    expect(load(EXAMPLES["mcp-servers"]).replacements).toEqual([]);
    const vscode = load(EXAMPLES.vscode);
    expect(vscode.replacements).toEqual([]);
    expect(vscode.servers.find((s) => s.key === "docs-search")?.transport).toEqual({
      kind: "http",
      url: "https://docs.example.com/mcp",
      headerEnv: { Authorization: "RR_DOCS_SEARCH_AUTHORIZATION" },
    });
  });

  test("each file becomes one agent; a server the review already has brings its tools", () => {
    const demo = createDemoReview();
    const { review, summary } = applyImport(demo, load(EXAMPLES["claude-desktop"]));
    const parsed = ReviewSchema.parse(review);
    const agent = parsed.agents.find((a) => a.id === summary.agent.id)!;
    expect(agent.name).toBe("Claude Desktop (configs/claude_desktop_config.json)");
    expect(summary.servers.map((s) => [s.key, s.status, s.toolCount])).toEqual([
      ["knowledge-mcp", "existing", 4],
      ["github", "added", 0],
    ]);
    expect(agent.tools.map((t) => t.tool).sort()).toEqual([
      "get_comment",
      "knowledge_search",
      "list_spaces",
      "read_page",
    ]);
    expect(summary.servers[1]!.notes).toContain(
      "no tools known yet: inspect the server, then add its tools to the agent",
    );
    expect(parsed.servers).toHaveLength(demo.servers.length + 1);
  });
});

describe("malformed files name the line and the field", () => {
  test.each([
    [
      '{\n  "mcpServers": {\n    "a": { "command": "x", "args": "not-a-list" }\n  }\n}',
      3,
      "mcpServers.a.args",
      "args must be a list of strings",
    ],
    [
      '{\n  "mcpServers": {\n    "a": {\n      "command": "x",\n      "env": { "TOKEN": 42 }\n    }\n  }\n}',
      5,
      "mcpServers.a.env.TOKEN",
      "env.TOKEN must be a string",
    ],
    [
      '{\n  "mcpServers": {\n    "a": { "args": [] }\n  }\n}',
      3,
      "mcpServers.a",
      'a server needs "command" (stdio) or "url" (http/sse)',
    ],
    [
      '{\n  "mcpServers": {\n    "a": { "url": "ftp://x" }\n  }\n}',
      3,
      "mcpServers.a.url",
      "url must be http(s)",
    ],
    [
      '{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}',
      4,
      "mcpServers.a",
      'expected "," or "}"',
    ],
    [
      '{\n  "mcpServers": {\n    "a": { "command": "x" },\n    "a": { "command": "y" }\n  }\n}',
      4,
      "mcpServers.a",
      'duplicate key "a"',
    ],
    ['{ "servers": {} }\n/* unterminated', 2, "(root)", "unterminated /* comment"],
    ['{ "other": {} }', 1, "(root)", 'expected "mcpServers"'],
  ])("%#: line %i, %s", (text, line, field, message) => {
    const r = parseClientConfig(text, { fileName: "mcp.json" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]).toMatchObject({ line, path: field });
    expect(r.issues[0]!.message).toContain(message);
  });

  test("an issue never quotes a secret value", () => {
    const r = parseClientConfig(
      '{ "mcpServers": { "a": { "url": "https://x", "headers": { "bad header": "Bearer sk-SECRET" } } } }',
    );
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r)).not.toContain("sk-SECRET");
  });
});

describe("enforceable exports from the demo decision", () => {
  const demo = createDemoReview();
  const decision = buildDecision(demo, {
    serverId: "knowledge-mcp",
    agentId: "docs-agent",
    verdict: "approved",
    reviewer: "R. Reviewer",
    rationale: "Search and read only.",
    now: "2026-01-05T10:00:00.000Z",
    revision: 1,
    surfaceSha256: "47".repeat(32),
  });
  demo.decisions.push(decision);

  test("the NetworkPolicy parses and is an allowlist admitting 10.42.7.0/24:443 only", () => {
    const r = buildExport("networkpolicy", demo, decision);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const parsed = parseNetworkPolicies(r.file.text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(classifyEgress(parsed.policies).kind).toBe("allowlist");
    expect(
      wouldAllow(parsed.policies, { ip: "10.42.7.20", port: 443, protocol: "TCP" }).outcome,
    ).toBe("allowed");
    expect(
      wouldAllow(parsed.policies, { ip: "10.42.7.20", port: 80, protocol: "TCP" }).outcome,
    ).toBe("denied");
    expect(
      wouldAllow(parsed.policies, { ip: "10.42.8.1", port: 443, protocol: "TCP" }).outcome,
    ).toBe("denied");
    expect(
      wouldAllow(parsed.policies, { ip: "93.184.216.34", port: 443, protocol: "TCP" }).outcome,
    ).toBe("denied");
    expect(r.file.fileName).toBe("knowledge-mcp-egress.networkpolicy.yaml");
  });

  test("names cannot add lines to the NetworkPolicy: the review refuses a newline, and the header is written as YAML comments", () => {
    const review = structuredClone(demo);
    review.servers[0]!.name = "knowledge-mcp\nkind: Injected";
    const refused = ReviewSchema.safeParse(review);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.find((i) => i.path.join(".") === "servers.0.name")?.message).toBe(
      "must not contain control characters or line breaks (found U+000A at position 14)",
    );
    // Even a name that reaches the writer unchecked stays inside the comment.
    const r = buildExport("networkpolicy", review, { ...decision, reviewer: "R\n---\nkind: Pod" });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const lines = r.file.text.split("\n");
    expect(lines[0]).toBe("# Reviewed egress for knowledge-mcp");
    expect(lines[1]).toBe(`#kind: Injected: decision ${decision.id} (approved) by R`);
    expect(lines[2]).toBe("#---");
    expect(lines[3]).toMatch(/^#kind: Pod, /);
    expect(lines).not.toContain("kind: Injected");
    expect(lines).not.toContain("kind: Pod");
    const docs = parseAllDocuments(r.file.text);
    expect(Array.isArray(docs) && docs.map((d) => (d.toJS() as { kind: string }).kind)).toEqual([
      "NetworkPolicy",
    ]);
  });

  test.each(["0000", "001b", "007f", "0085", "009b", "2028", "2029", "000d", "0009"])(
    "a name with U+%s is refused",
    (hex) => {
      const ch = String.fromCharCode(parseInt(hex, 16));
      for (const edit of [
        (r: Review) => void (r.title = `a${ch}b`),
        (r: Review) => void (r.sources[0]!.name = `a${ch}b`),
        (r: Review) => void (r.agents[0]!.name = `a${ch}b`),
        (r: Review) => void r.servers[0]!.declaredTools.push({ name: `a${ch}b`, description: "" }),
      ]) {
        const review = structuredClone(demo);
        edit(review);
        const parsed = ReviewSchema.safeParse(review);
        expect(parsed.success).toBe(false);
        expect(parsed.error?.issues.map((i) => i.message).join()).toMatch(
          /must not contain control characters or line breaks \(found U\+[0-9A-F]{4} at position 2\)/,
        );
      }
    },
  );

  test("a denylist is refused with a reason, not turned into a guess", () => {
    const review = structuredClone(demo);
    review.controls.egress[0]!.policyYaml = review.controls.egress[0]!.policyYaml.replace(
      "cidr: 10.42.7.0/24 }",
      "cidr: 0.0.0.0/0, except: [169.254.0.0/16] }",
    );
    const r = buildExport("networkpolicy", review, decision);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toContain("not an allowlist (denylist");
  });

  test("the client config starts the server through the gate and re-imports to the same server", () => {
    const r = buildExport("client-config", demo, decision, {
      recordPath: "/etc/relay-review/dec.json",
      publicKeyPath: "/etc/relay-review/key.pem",
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const json = JSON.parse(r.file.text) as {
      mcpServers: Record<string, { command: string; args: string[] }>;
    };
    expect(json.mcpServers["knowledge-mcp"]).toEqual({
      command: "npx",
      // --no-install: a host without relay-review gets an error, never whatever the registry serves under that name.
      args: [
        "--no-install",
        "relay-review",
        "gate",
        "--record",
        "/etc/relay-review/dec.json",
        "--public-key",
        "/etc/relay-review/key.pem",
        "--",
        "node",
        "servers/dist/knowledge-mcp.js",
        "stdio",
      ],
    });
    const again = parseClientConfig(r.file.text, { fileName: "claude_desktop_config.json" });
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    expect(again.config.servers[0]).toMatchObject({
      gatedBy: { record: "/etc/relay-review/dec.json" },
      transport: demo.servers[0]!.transport,
    });
  });

  test("the credential request lists scopes, projects and TTL, and parses", () => {
    const r = buildExport("credential-request", demo, decision);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const doc = parseYaml(r.file.text) as {
      requests: {
        scopes: string[];
        projects: string[];
        ttl: string;
        rotation: string;
        excluded_projects: string[];
        review_findings: string[];
      }[];
    };
    expect(doc.requests[0]).toMatchObject({
      scopes: ["read:issue", "read:project", "read:comment"],
      projects: ["PAY", "SUP", "INFRA"],
      excluded_projects: ["SEC"],
      ttl: "30d",
      rotation: "rotated by the platform vault",
      review_findings: [],
    });
  });

  test("a decision without a live surface gets no gate config", () => {
    const d2 = { ...decision, bound: { ...decision.bound, surfaceSha256: null } };
    const r = buildExport("client-config", demo, d2);
    expect(r.ok).toBe(false);
  });
});
