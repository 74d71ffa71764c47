import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOOL_ROLES } from "@/lib/review/schema";
import { loadCorpus } from "./corpus";

const corpus = loadCorpus();
const tools = corpus.flatMap((server) => server.surface.tools.map((tool) => ({ server, tool })));

describe("labelled corpus of real MCP servers", () => {
  it("covers at least 8 servers and 250 tools, each from an exact npm version", () => {
    expect(corpus.length).toBeGreaterThanOrEqual(8);
    expect(tools.length).toBeGreaterThanOrEqual(250);
    expect(new Set(corpus.map((s) => s.package)).size).toBe(corpus.length);
    for (const server of corpus) expect(server.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("has a server with no annotations at all and one with more than 150 tools", () => {
    const unannotated = corpus.filter((s) =>
      s.surface.tools.every((t) => t.annotations === undefined),
    );
    expect(unannotated.map((s) => s.package)).toContain("@modelcontextprotocol/server-github");
    expect(corpus.some((s) => s.surface.tools.length > 150)).toBe(true);
  });

  it("has a server generated from OpenAPI (API-<method>-<operation> tools)", () => {
    const notion = corpus.find((s) => s.package === "@notionhq/notion-mcp-server");
    expect(notion?.surface.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(["API-post-search", "API-retrieve-a-comment"]),
    );
  });

  it("has annotations that contradict what the tools do, as the README lists", () => {
    const sinks = new Set(["writes", "deploys_or_destroys", "network_or_shares"]);
    const readOnlySinks: string[] = [];
    const harmlessDestroys: string[] = [];
    for (const { server, tool } of tools) {
      const roles = server.labels[tool.name]?.roles ?? [];
      if (tool.annotations?.readOnlyHint === true && roles.some((r) => sinks.has(r))) {
        readOnlySinks.push(`${server.slug}/${tool.name}`);
      }
      if (tool.annotations?.destructiveHint === false && roles.includes("deploys_or_destroys")) {
        harmlessDestroys.push(`${server.slug}/${tool.name}`);
      }
    }
    expect(readOnlySinks).toEqual(
      expect.arrayContaining([
        "playwright/browser_take_screenshot",
        "gitlab/download_job_artifacts",
        "kubernetes/kubectl_context",
      ]),
    );
    expect(harmlessDestroys).toContain("stripe/create_refund");
  });

  it("labels every tool with roles from TOOL_ROLES and a reason", () => {
    for (const { server, tool } of tools) {
      const label = server.labels[tool.name];
      expect(label, `${server.slug}/${tool.name}`).toBeDefined();
      for (const role of label?.roles ?? []) expect(TOOL_ROLES).toContain(role);
      expect(label?.why.trim().length, `${server.slug}/${tool.name} why`).toBeGreaterThan(10);
    }
  });

  it("labels every role at least once, and no deploy or destroy without a write", () => {
    const counts = new Map(TOOL_ROLES.map((role) => [role, 0]));
    for (const { server, tool } of tools) {
      const roles = server.labels[tool.name]?.roles ?? [];
      for (const role of roles) counts.set(role, (counts.get(role) ?? 0) + 1);
      if (roles.includes("deploys_or_destroys"))
        expect(roles, `${server.slug}/${tool.name}`).toContain("writes");
    }
    for (const [role, count] of counts) expect(count, role).toBeGreaterThan(0);
  });

  it("stores no credential values, only the names of the variables a server was started with", () => {
    for (const server of corpus) {
      expect(server.command).not.toMatch(
        /(TOKEN|KEY|SECRET|PASSWORD|EMAIL|TEAM_ID|SITE_NAME)=(?!<dummy>)/,
      );
    }
  });
});

describe("loadCorpus", () => {
  function scratch(labels: Record<string, unknown>): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "corpus-"));
    fs.mkdirSync(path.join(dir, "servers"));
    fs.mkdirSync(path.join(dir, "labels"));
    const surface = {
      tools: [
        { name: "get_issue", inputSchema: { type: "object" } },
        { name: "create_issue", inputSchema: { type: "object" } },
      ],
      resources: [],
      resourceTemplates: [],
      prompts: [],
      instructions: null,
    };
    const server = {
      package: "x",
      version: "1.0.0",
      capturedAt: "2026-12-03",
      command: "x",
      surface,
    };
    fs.writeFileSync(path.join(dir, "servers", "x.json"), JSON.stringify(server));
    fs.writeFileSync(path.join(dir, "labels", "x.json"), JSON.stringify(labels));
    return dir;
  }
  const ok = { roles: ["returns_untrusted_text"], why: "returns the issue body" };

  it("names a listed tool that has no label", () => {
    expect(() => loadCorpus(scratch({ get_issue: ok }))).toThrow(
      /x has no label for tool\(s\) "create_issue"/,
    );
  });

  it("names a label for a tool the server does not list", () => {
    const dir = scratch({ get_issue: ok, create_issue: ok, delete_issue: ok });
    expect(() => loadCorpus(dir)).toThrow(/x labels tool\(s\) it does not list: "delete_issue"/);
  });

  it("rejects a role outside TOOL_ROLES", () => {
    const dir = scratch({ get_issue: ok, create_issue: { roles: ["sink"], why: "made up role" } });
    expect(() => loadCorpus(dir)).toThrow(/labels\/x\.json is invalid/);
  });
});
