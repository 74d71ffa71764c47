/**
 * The seed's worked example (shared/seed/002_e2f23ab2b6b209f1.txt) as tests: knowledge-mcp, the
 * on-call agent and the documentation agent, exactly as lib/review/demo.ts ships them.
 */
import { describe, expect, it, test } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import { ReviewSchema } from "@/lib/review/schema";
import { sourceWriterBound } from "@/lib/sources/writer-bound";
import { CONTROL_CATALOG } from "@/lib/controls/registry";
import { evaluateCredential } from "@/lib/controls/credential";
import { attentionSecondsPerDay } from "@/lib/controls/approval";
import { parseNetworkPolicies } from "@/lib/controls/egress/policy";
import { admittedDestinations, wouldAllow } from "@/lib/controls/egress/evaluate";
import { applySplit } from "@/lib/controls/split";
import { analyzeReview, type Analysis } from "./analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { SEED_CONTROLS } from "@/tests/support/seed-controls";

// The seed's four controls: its sentences are composed from them (tests/support/seed-controls.ts).
const analyse = (review: Review): Analysis =>
  analyzeReview(review, toolListsFromReview(review), SEED_CONTROLS);
const demo = createDemoReview();
const analysis = analyse(demo);
const SEED_RESIDUE =
  "a payload already in the source, reaching the tools that stayed in the session, in front of a person reading a sentence the payload helped write";

const policies = () => {
  const parsed = parseNetworkPolicies(demo.controls.egress[0]!.policyYaml);
  if (!parsed.ok) throw new Error("demo policy must parse");
  return parsed.policies;
};

describe("writer bounds of the seed's sources", () => {
  const bound = (id: string) => sourceWriterBound(demo.sources.find((s) => s.id === id)!);

  it("the portal's bound is everyone with an email address; 31,400 is a floor; one account suffices", () => {
    const b = bound("support-portal");
    expect(b.bound).toEqual({
      kind: "everyone_with_an_email_address",
      label: "everyone with an email address",
      floor: 31_400,
    });
    expect(b.reachesOutsideBoundary).toBe(true);
    expect(b.minAccountsAnAttackNeeds).toBe(1);
    expect(b.reasons.join(" ")).toContain("floor");
  });

  it("2,100 of 31,400 is a usage fact, not part of the bound", () => {
    const b = bound("support-portal");
    expect(b.usage?.label).toBe("2,100 of 31,400 external accounts wrote in the last year");
    expect(b.usage?.note).toMatch(/not part of the bound/);
    expect(JSON.stringify(b.bound)).not.toContain("2100");
  });

  test.each([
    ["tracker-internal", "412 accounts", true],
    ["wiki", "380 accounts", false],
    ["wiki-partner", "24 accounts", true],
    ["wiki-comments", "404 accounts", true],
  ])("%s is bounded by %s (outside the boundary: %s)", (id, label, outside) => {
    expect(bound(id).bound.label).toBe(label);
    expect(bound(id).reachesOutsideBoundary).toBe(outside);
  });

  it("the graph labels each writers node with its bound", () => {
    const node = analysis.graph.nodes.find((n) => n.id === "writers:support-portal");
    expect(node).toMatchObject({
      kind: "writers",
      label: "everyone with an email address",
      minAccountsAnAttackNeeds: 1,
    });
  });
});

describe("the on-call agent", () => {
  it("has a path from a portal ticket body through knowledge_search to trigger_deploy", () => {
    const path = analysis.paths.listed.find(
      (p) =>
        p.id ===
        "path:on-call:support-portal:knowledge-mcp/knowledge_search->deploy-tools/trigger_deploy",
    );
    expect(path).toBeDefined();
    expect(path?.head.boundLabel).toBe("everyone with an email address");
    expect(path?.nodeIds).toEqual([
      "writers:support-portal",
      "source:support-portal",
      "returning:knowledge-mcp/knowledge_search",
      "agent:on-call",
      "sink:deploy-tools/trigger_deploy",
    ]);
    expect(path?.reliesOnSuggestions).toBe(false);
  });

  it("raises a critical path finding whose why names roles, tools and sources, all confirmed", () => {
    const f = analysis.findings.find((x) => x.id === "finding:path.to_sensitive_sink:on-call");
    expect(f?.severity).toBe("critical");
    expect(f?.why.tools).toContain("knowledge-mcp/knowledge_search");
    expect(f?.why.tools).toContain("deploy-tools/trigger_deploy");
    expect(f?.why.sources).toContain("support-portal");
    expect(f?.why.roles).toContainEqual(
      expect.objectContaining({
        tool: "deploy-tools/trigger_deploy",
        role: "deploys_or_destroys",
        origin: "confirmed",
      }),
    );
    expect(f?.why.reliesOnSuggestions).toBe(false);
  });

  it("counts 8 paths: 3 returning tools × their outside-writable sources × 1 sink (the internal wiki is not a head)", () => {
    const agent = analysis.agents.find((a) => a.agentId === "on-call");
    expect(agent?.pathCount).toBe(8);
    expect(analysis.paths.total).toBe(8);
    expect(agent?.heads).not.toContain("source:wiki");
  });

  it("[control:separation] separation cuts the path; [control:credential] [control:egress] [control:approval] the other three narrow it without cutting it", () => {
    const agent = analysis.agents.find((a) => a.agentId === "on-call")!;
    const byId = Object.fromEntries(agent.controlsOnPath.map((c) => [c.controlId, c]));
    expect(byId.separation?.effect).toBe("cuts");
    for (const id of ["credential", "egress", "approval"]) expect(byId[id]?.effect).toBe("narrows");
    // The three are present and the path is still there: they narrow its ends.
    expect(byId.credential?.status).toBe("holds");
    expect(byId.egress?.status).toBe("holds");
    expect(agent.pathCount).toBeGreaterThan(0);
    expect(CONTROL_CATALOG.filter((c) => c.canCutPath).map((c) => c.id)).toEqual(["separation"]);
    // Applying separation removes it.
    expect(analyse(applySplit(demo, "on-call")).paths.total).toBe(0);
  });
});

describe("the documentation agent", () => {
  it("the same server, unchanged, raises no path finding for an agent that can only search and read", () => {
    const docs = analysis.agents.find((a) => a.agentId === "docs-agent");
    expect(docs?.pathCount).toBe(0);
    expect(docs?.sinkTools).toEqual([]);
    expect(docs?.returningTools.length).toBeGreaterThan(0);
    expect(analysis.findings.filter((f) => f.subject.agentId === "docs-agent")).toEqual([]);
    // Unchanged: the server and its tools are the same objects the on-call analysis used.
    expect(
      demo.agents
        .find((a) => a.id === "docs-agent")
        ?.tools.every((t) => t.serverId === "knowledge-mcp"),
    ).toBe(true);
  });
});

describe("the four controls on the seed's configuration", () => {
  it("[control:approval] 14 prompts × 1.9 s = 26.6 s of attention a day: a click, not a review", () => {
    expect(attentionSecondsPerDay(14, 1.9)).toBe(26.6);
    const a = analysis.controls.approvals[0]!;
    expect(a.attentionSecondsPerDay).toBe(26.6);
    expect(a.verdict).toBe("a click, not a review");
    expect(a.habituation).toBe("high");
    expect(a.status).toBe("fails");
  });

  it("[control:credential] the seed's token scopes pass; adding write:issue fails", () => {
    const config = demo.controls.credentials[0]!;
    expect(evaluateCredential(config, 0).status).toBe("holds");
    expect(evaluateCredential(config, 0).findings).toEqual([]);
    const widened = evaluateCredential({ ...config, scopes: [...config.scopes, "write:issue"] }, 0);
    expect(widened.status).toBe("fails");
    expect(widened.findings.map((f) => f.kind)).toEqual(["credential.scope_write"]);
  });

  it("[control:egress] the seed's policy admits 10.42.7.0/24 on TCP 443 only and denies an external fetch", () => {
    const p = policies();
    expect(admittedDestinations(p).map((d) => [d.to, d.ports])).toEqual([
      [["10.42.7.0/24"], ["TCP 443"]],
    ]);
    expect(wouldAllow(p, { ip: "10.42.7.12", port: 443 }).outcome).toBe("allowed");
    expect(wouldAllow(p, { ip: "10.42.7.12", port: 80 }).outcome).toBe("denied");
    expect(wouldAllow(p, { ip: "10.42.7.12", port: 443, protocol: "UDP" }).outcome).toBe("denied");
    expect(wouldAllow(p, { ip: "10.42.8.1", port: 443 }).outcome).toBe("denied");
    expect(wouldAllow(p, { ip: "93.184.216.34", port: 443 }).outcome).toBe("denied");
    expect(analysis.controls.egress[0]?.deniesUnlistedByConstruction).toBe(true);
  });

  it("[control:egress] a default-allow version of the policy admits the external fetch", () => {
    const open = demo.controls.egress[0]!.policyYaml.replace(
      "  # no default-allow rule; everything else is denied",
      "    - {}",
    );
    const parsed = parseNetworkPolicies(open);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(wouldAllow(parsed.policies, { ip: "93.184.216.34", port: 443 }).outcome).toBe("allowed");
    const review = ReviewSchema.parse({
      ...demo,
      controls: { ...demo.controls, egress: [{ serverId: "knowledge-mcp", policyYaml: open }] },
    });
    const e = analyse(review).controls.egress[0]!;
    expect(e.status).toBe("fails");
    expect(e.shape?.kind).toBe("default_allow");
    expect(e.newExternalFetch?.outcome).toBe("allowed");
  });

  it("the statement of intent is shown with no position in the path", () => {
    expect(analysis.controls.statementsOfIntent).toEqual([
      expect.objectContaining({
        text: demo.controls.statementsOfIntent[0]!.text,
        position: null,
        effect: "none",
      }),
    ]);
  });
});

describe("splitting the on-call agent", () => {
  const split = applySplit(demo, "on-call");
  const after = analyse(split);

  it("produces a valid review: a reference agent, a deploy agent, the approval moved with the sink", () => {
    expect(() => ReviewSchema.parse(split)).not.toThrow();
    expect(split.agents.map((a) => [a.id, a.tools.map((t) => t.tool)])).toEqual([
      ["on-call", ["knowledge_search", "read_page", "list_spaces", "get_comment"]],
      ["on-call-deploy", ["trigger_deploy"]],
      ["docs-agent", ["knowledge_search", "read_page"]],
    ]);
    expect(split.controls.approvals[0]?.agentId).toBe("on-call-deploy");
    const plan = analysis.controls.separation.agents.find((a) => a.agentId === "on-call")?.split;
    expect(plan?.handoff).toMatchObject({ from: "on-call", to: "on-call-deploy", by: "human" });
    expect(plan?.handoff.carries).toMatch(/typed themselves/);
  });

  it("removes the path and puts separation in place", () => {
    expect(after.paths.total).toBe(0);
    expect(after.findings.some((f) => f.kind === "path.to_sensitive_sink")).toBe(false);
    expect(after.controls.separation.inPlace).toBe(true);
    expect(after.controls.separation.cutsPath).toBe(true);
  });

  it("changes the residue statement to the seed's composition", () => {
    expect(analysis.controls.residue.text).toBe(
      "a payload already in the source, reaching every tool in the session, trigger_deploy among them, in front of a person reading a sentence the payload helped write",
    );
    expect(after.controls.residue.text).toBe(SEED_RESIDUE);
  });
});
