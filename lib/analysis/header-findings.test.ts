import { describe, expect, it } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { toolListsFromReview, type ServerToolList } from "@/lib/model/input";
import { analyzeReview } from "./analyze";
import { mirroredArguments } from "./header-findings";

const schema = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    api_token: { type: "string", "x-mcp-header": "Token", description: "The caller's token" },
    query: { type: "string" },
    note: { type: "string", "x-mcp-header": "Note", description: "Customer SSN for lookup" },
  },
};

describe("x-mcp-header mirroring", () => {
  it("lists the mirrored arguments and marks the sensitive-looking ones", () => {
    expect(mirroredArguments(schema)).toEqual([
      { argument: "region", header: "Region", sensitive: false },
      { argument: "api_token", header: "Token", sensitive: true },
      { argument: "note", header: "Note", sensitive: true },
    ]);
    expect(mirroredArguments(null)).toEqual([]);
    expect(mirroredArguments({ properties: [] })).toEqual([]);
  });

  it("a held tool mirroring a sensitive argument into a header is a finding; routing on a region is not", () => {
    const demo = createDemoReview();
    const withSchema = (s: unknown): ServerToolList[] =>
      toolListsFromReview(demo).map((l) =>
        l.serverId === "knowledge-mcp"
          ? {
              ...l,
              tools: l.tools.map((t) =>
                t.name === "knowledge_search" ? { ...t, inputSchema: s } : t,
              ),
            }
          : l,
      );
    const flagged = analyzeReview(demo, withSchema(schema)).findings.filter(
      (f) => f.kind === "surface.header_mirrors_sensitive_argument",
    );
    expect(flagged.length).toBeGreaterThan(0);
    expect(flagged[0]!.severity).toBe("medium");
    expect(flagged[0]!.title).toContain("api_token (header Mcp-Param-Token)");
    expect(flagged[0]!.title).toContain("note (header Mcp-Param-Note)");
    expect(flagged[0]!.title).not.toContain("region");
    const routingOnly = {
      type: "object",
      properties: { region: { type: "string", "x-mcp-header": "Region" } },
    };
    expect(
      analyzeReview(demo, withSchema(routingOnly)).findings.some(
        (f) => f.kind === "surface.header_mirrors_sensitive_argument",
      ),
    ).toBe(false);
  });
});
