import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import type { AgentId, ServerId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import type { ToolRef } from "@/lib/review/schema";
import {
  DECLARED_TOOLS_BASIS,
  buildDecision,
  controlsSha256,
  decisionBasis,
  normalizeToolSet,
  toolSetSha256,
} from "@/lib/decisions/binding";

const ref = (serverId: string, tool: string) => ({ serverId, tool }) as ToolRef;
const KM = "knowledge-mcp" as ServerId;
const ON_CALL = "on-call" as AgentId;
const SURFACE = "b21d7c".padEnd(64, "0");

const base = {
  serverId: "knowledge-mcp",
  agentId: "docs-agent",
  verdict: "approved" as const,
  reviewer: "R. Reviewer",
  rationale: "Reads only; holds no sink.",
  now: "2026-01-05T10:00:00.000Z",
  revision: 3,
  surfaceSha256: SURFACE,
};

describe("toolSetSha256", () => {
  test("is SHA-256 of the canonical JSON of the sorted, de-duplicated refs", () => {
    const expected = createHash("sha256")
      .update('[{"serverId":"a","tool":"x"},{"serverId":"b","tool":"y"}]')
      .digest("hex");
    expect(toolSetSha256([ref("b", "y"), ref("a", "x"), ref("b", "y")])).toBe(expected);
  });

  test("ignores order and extra fields", () => {
    const withExtra = { ...ref("a", "x"), note: "ignored" } as ToolRef;
    expect(toolSetSha256([ref("b", "y"), withExtra])).toBe(
      toolSetSha256([ref("a", "x"), ref("b", "y")]),
    );
  });

  test("sorts by code unit, not locale", () => {
    expect(
      normalizeToolSet([ref("s", "b"), ref("s", "B"), ref("s", "a")]).map((r) => r.tool),
    ).toEqual(["B", "a", "b"]);
  });
});

describe("controlsSha256", () => {
  test("changes with the credential scopes, the egress policy text and the agent's approval config", () => {
    const review = createDemoReview();
    const before = controlsSha256(review, KM, ON_CALL);
    const scopes = structuredClone(review);
    scopes.controls.credentials[0]!.scopes.push("write:issue");
    const egress = structuredClone(review);
    egress.controls.egress[0]!.policyYaml += "\n# widened\n";
    const approval = structuredClone(review);
    approval.controls.approvals[0]!.outOfBand = false;
    for (const changed of [scopes, egress, approval])
      expect(controlsSha256(changed, KM, ON_CALL)).not.toBe(before);
  });

  test("ignores statements of intent (prose is not a control), scope order and other agents' approvals", () => {
    const review = createDemoReview();
    const before = controlsSha256(review, KM, ON_CALL);
    const changed = structuredClone(review);
    changed.controls.statementsOfIntent.push({ text: "Never used for deploys.", where: "wiki" });
    changed.controls.credentials[0]!.scopes.reverse();
    changed.controls.approvals.push({
      ...changed.controls.approvals[0]!,
      agentId: "docs-agent" as AgentId,
    });
    expect(controlsSha256(changed, KM, ON_CALL)).toBe(before);
  });
});

describe("buildDecision", () => {
  test("binds the agent's whole tool set and the current fingerprints", () => {
    const review = createDemoReview();
    const d = buildDecision(review, {
      ...base,
      agentId: "on-call",
      verdict: "rejected",
      id: "dec-1",
    });
    expect(d.id).toBe("dec-1");
    expect(d.toolSet.map((t) => `${t.serverId}/${t.tool}`)).toEqual([
      "deploy-tools/trigger_deploy",
      "knowledge-mcp/get_comment",
      "knowledge-mcp/knowledge_search",
      "knowledge-mcp/list_spaces",
      "knowledge-mcp/read_page",
    ]);
    expect(d.bound).toEqual({
      surfaceSha256: SURFACE,
      imageDigest: review.servers[0]!.imageDigest,
      toolSetSha256: toolSetSha256(review.agents[0]!.tools),
      controlsSha256: controlsSha256(review, KM, ON_CALL),
      revision: 3,
    });
    expect(d.decidedAt).toBe("2026-01-05T10:00:00.000Z");
  });

  test("a decision never inspected says it was made against declared tools", () => {
    const d = buildDecision(createDemoReview(), { ...base, surfaceSha256: null });
    expect(d.bound.surfaceSha256).toBeNull();
    expect(decisionBasis(d)).toEqual({
      kind: "declared_tools",
      surfaceSha256: null,
      label: DECLARED_TOOLS_BASIS,
    });
    expect(DECLARED_TOOLS_BASIS).toBe("made against declared tools, not a live surface");
  });

  test.each([
    ["unknown server", { serverId: "nope" }, "serverId"],
    ["unknown agent", { agentId: "nope" }, "agentId"],
    [
      "conditions without conditions",
      { verdict: "approved_with_conditions" as const },
      "conditions",
    ],
    [
      "conditions on a plain approval",
      { conditions: [{ kind: "surface_pinned_block" as const, serverId: "knowledge-mcp" }] },
      "conditions",
    ],
    [
      "condition on an unknown server",
      {
        verdict: "approved_with_conditions" as const,
        conditions: [{ kind: "credential_read_only" as const, serverId: "x" }],
      },
      "conditions.0",
    ],
    [
      "approval into an agent holding none of the server's tools",
      { serverId: "deploy-tools" },
      "agentId",
    ],
    ["empty rationale", { rationale: "  " }, "rationale"],
    ["invalid time", { now: "yesterday" }, "now"],
  ])("rejects %s", (_label, patch, path) => {
    try {
      buildDecision(createDemoReview(), { ...base, ...patch });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BAD_REQUEST");
      expect((error as AppError).issues?.map((i) => i.path)).toContain(path);
    }
  });
});
