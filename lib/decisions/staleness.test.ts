import { describe, expect, test } from "vitest";
import type { AgentId, ServerId, Sha256 } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import type { Review, ToolRef } from "@/lib/review/schema";
import { buildDecision } from "@/lib/decisions/binding";
import { checkConditions, decisionStatus, type StaleChange } from "@/lib/decisions/staleness";

const SURFACE = "b21d7c".padEnd(64, "0");
const OTHER_SURFACE = "c0ffee".padEnd(64, "0");
const KM = "knowledge-mcp" as ServerId;

function decide(review: Review, extra: Partial<Parameters<typeof buildDecision>[1]> = {}) {
  return buildDecision(review, {
    serverId: "knowledge-mcp",
    agentId: "on-call",
    verdict: "approved_with_conditions",
    conditions: [
      { kind: "egress_default_deny", serverId: "knowledge-mcp" },
      { kind: "credential_read_only", serverId: "knowledge-mcp" },
    ],
    reviewer: "R. Reviewer",
    rationale: "Egress default-deny, read-only token.",
    now: "2026-01-05T10:00:00.000Z",
    revision: 4,
    surfaceSha256: SURFACE,
    ...extra,
  });
}

const whats = (changes: StaleChange[]) => changes.map((c) => c.what);

describe("decisionStatus", () => {
  test("current when nothing bound has changed, even after unrelated edits", () => {
    const review = createDemoReview();
    const decision = decide(review);
    review.sources[0]!.notes = "edited";
    review.controls.statementsOfIntent = [];
    expect(
      decisionStatus(decision, { review, currentSurfaceSha256: SURFACE, currentRevision: 9 }),
    ).toEqual({ state: "current" });
  });

  const cases: [string, (r: Review) => void, string | null, StaleChange["what"][], RegExp][] = [
    [
      "share_file added to on-call",
      (r) => {
        r.servers[1]!.declaredTools.push({ name: "share_file", description: "" });
        r.agents[0]!.tools.push({ serverId: "deploy-tools", tool: "share_file" } as ToolRef);
      },
      SURFACE,
      ["tool_set"],
      /added share_file on deploy-tools \(not under review\)/,
    ],
    [
      "trigger_deploy removed from on-call",
      (r) => void r.agents[0]!.tools.pop(),
      SURFACE,
      ["tool_set"],
      /removed trigger_deploy on deploy-tools \(not under review\)/,
    ],
    [
      "credential scopes changed",
      (r) => void r.controls.credentials[0]!.scopes.push("write:issue"),
      SURFACE,
      ["controls"],
      /credential or egress/,
    ],
    [
      "egress policy widened",
      (r) => void (r.controls.egress[0]!.policyYaml += "  - {}\n"),
      SURFACE,
      ["controls"],
      /controls changed/,
    ],
    [
      "approval moved in band",
      (r) => void (r.controls.approvals[0]!.outOfBand = false),
      SURFACE,
      ["controls"],
      /approval configuration/,
    ],
    [
      "surface changed",
      () => {},
      OTHER_SURFACE,
      ["surface"],
      /surface changed: b21d7c000000… → c0ffee000000…/,
    ],
    ["no inspection any more", () => {}, null, ["surface"], /no live inspection/],
    [
      "digest changed",
      (r) =>
        void (r.servers[0]!.imageDigest = `ghcr.io/atlas/knowledge-mcp@sha256:${"1".repeat(64)}`),
      SURFACE,
      ["image_digest"],
      /image changed: .*9f3c.* → .*1111/,
    ],
    [
      "digest removed",
      (r) => void (r.servers[0]!.imageDigest = null),
      SURFACE,
      ["image_digest"],
      /was removed/,
    ],
    [
      "agent removed",
      (r) => {
        r.agents = r.agents.filter((a) => a.id !== "on-call");
        r.controls.approvals = [];
      },
      SURFACE,
      ["agent_removed"],
      /agent on-call is no longer/,
    ],
    [
      "server removed",
      (r) => {
        r.servers = r.servers.filter((s) => s.id !== "knowledge-mcp");
      },
      SURFACE,
      ["server_removed"],
      /server knowledge-mcp is no longer/,
    ],
  ];

  test.each(cases)("stale when %s", (_label, mutate, currentSurface, expected, message) => {
    const review = createDemoReview();
    const decision = decide(review);
    mutate(review);
    const status = decisionStatus(decision, { review, currentSurfaceSha256: currentSurface });
    expect(status.state).toBe("stale");
    if (status.state !== "stale") return;
    expect(whats(status.changes)).toEqual(expected);
    expect(status.changes[0]!.message).toMatch(message);
  });

  test("a decision made against declared tools goes stale once the server is inspected", () => {
    const review = createDemoReview();
    const decision = decide(review, { surfaceSha256: null });
    expect(decisionStatus(decision, { review, currentSurfaceSha256: null })).toEqual({
      state: "current",
    });
    const status = decisionStatus(decision, { review, currentSurfaceSha256: SURFACE });
    expect(status).toMatchObject({
      state: "stale",
      changes: [{ what: "surface", before: null, after: SURFACE }],
    });
    if (status.state === "stale")
      expect(status.changes[0]!.message).toMatch(/made against declared tools, not a live surface/);
  });

  test("reports every change at once, and the tool-set diff", () => {
    const review = createDemoReview();
    const decision = decide(review);
    review.agents[0]!.tools = review.agents[0]!.tools.filter((t) => t.tool !== "trigger_deploy");
    review.controls.credentials[0]!.scopes = ["read:issue"];
    review.servers[0]!.imageDigest = null;
    const status = decisionStatus(decision, { review, currentSurfaceSha256: OTHER_SURFACE });
    expect(status.state === "stale" && whats(status.changes)).toEqual([
      "surface",
      "image_digest",
      "tool_set",
      "controls",
    ]);
    const toolSet =
      status.state === "stale" ? status.changes.find((c) => c.what === "tool_set") : undefined;
    expect(toolSet).toMatchObject({
      added: [],
      removed: [{ serverId: "deploy-tools", tool: "trigger_deploy" }],
    });
  });
});

describe("checkConditions", () => {
  const allKinds = [
    { kind: "tool_absent_from_agent", tool: { serverId: "deploy-tools", tool: "trigger_deploy" } },
    { kind: "egress_default_deny", serverId: "knowledge-mcp" },
    { kind: "credential_read_only", serverId: "knowledge-mcp" },
    { kind: "approval_out_of_band", agentId: "on-call" },
    { kind: "surface_pinned_block", serverId: "knowledge-mcp" },
  ] as const;

  test("each kind against the demo review", () => {
    const review = createDemoReview();
    const decision = decide(review, { conditions: allKinds });
    const checks = checkConditions(decision, review, {
      evaluateEgressDefaultDeny: (yaml) => yaml.includes("10.42.7.0/24"),
    });
    expect(checks.map((c) => [c.condition.kind, c.holds])).toEqual([
      ["tool_absent_from_agent", false],
      ["egress_default_deny", true],
      ["credential_read_only", true],
      ["approval_out_of_band", true],
      ["surface_pinned_block", false],
    ]);
    expect(checks[0]!.reason).toBe(
      "on-call agent holds trigger_deploy on deploy-tools (not under review)",
    );
    expect(checks[3]!.reason).toMatch(/not shown resolved/);
  });

  test("they follow the review as it changes", () => {
    const review = createDemoReview();
    const decision = decide(review, { conditions: allKinds });
    review.agents[0]!.tools = review.agents[0]!.tools.filter((t) => t.tool !== "trigger_deploy");
    review.controls.credentials[0]!.scopes.push("write:comment");
    review.controls.approvals[0]!.outOfBand = false;
    review.servers[0]!.pin = {
      surfaceSha256: SURFACE as Sha256,
      declaredCapabilities: [],
      pinnedAt: "2026-01-05T10:00:00.000Z",
      pinnedBy: "R. Reviewer",
      reason: "",
      onSurfaceChange: "block",
    };
    const checks = checkConditions(decision, review, { evaluateEgressDefaultDeny: () => false });
    expect(checks.map((c) => c.holds)).toEqual([true, false, false, false, true]);
    expect(checks[2]!.reason).toBe("scopes that are not read-only: write:comment");
    review.servers[0]!.pin.onSurfaceChange = "warn";
    expect(checkConditions(decision, review)[4]!.holds).toBe(false);
  });

  test("what cannot be checked is null with a reason, never a pass", () => {
    const review = createDemoReview();
    const decision = decide(review, { conditions: allKinds });
    expect(checkConditions(decision, review)[1]).toMatchObject({
      holds: null,
      reason: "egress policy evaluation was not available to this check",
    });
    expect(
      checkConditions(decision, review, { evaluateEgressDefaultDeny: () => null })[1]!.holds,
    ).toBeNull();
    review.controls.credentials = [];
    review.controls.egress = [];
    review.controls.approvals = [];
    const checks = checkConditions(decision, review, { evaluateEgressDefaultDeny: () => true });
    expect(checks.slice(1, 4).map((c) => c.holds)).toEqual([false, null, false]);
    review.controls.credentials = [
      {
        serverId: KM,
        scopes: [],
        projects: [],
        sensitiveProjects: [],
        identity: "service",
        ttlDays: null,
        rotation: null,
      },
    ];
    expect(checkConditions(decision, review)[2]).toMatchObject({
      holds: null,
      reason: "the credential for knowledge-mcp lists no scopes",
    });
    review.agents = review.agents.filter((a) => a.id !== ("on-call" as AgentId));
    expect(checkConditions(decision, review)[0]!.holds).toBeNull();
  });
});
