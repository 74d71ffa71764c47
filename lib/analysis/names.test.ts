/**
 * What a person reads names servers, agents, tools and sources by name, never by id: the ids
 * below look like the app's generated ones, and no sentence of the analysis, the controls, a
 * decision's checks or the report may contain one. Keys and structured fields keep them.
 */
import { describe, expect, it } from "vitest";
import { ReviewSchema, type Review } from "@/lib/review/schema";
import { buildDecision } from "@/lib/decisions/binding";
import { checkConditions, decisionStatus } from "@/lib/decisions/staleness";
import { renderDecisionMarkdown } from "@/lib/decisions/report";
import { analyzeReview, type Analysis } from "./analyze";
import { toolListsFromReview } from "@/lib/model/input";

const SRV_KB = "srv-15f31645b5b2";
const SRV_OPS = "srv-0a9b8c7d6e5f";
const AGENT = "agent-a87fc0d1c2e6";
const SRC = "src-3f9a1c2b4d5e";
const ID_LIKE = /\b(?:srv|agent|src)-[0-9a-f]{12}\b/;

function fixture(): Review {
  return ReviewSchema.parse({
    schemaVersion: 2,
    title: "t",
    servers: [
      {
        id: SRV_KB,
        name: "Knowledge base",
        transport: { kind: "manual" },
        declaredTools: [
          { name: "get_issue", description: "Get an issue.", annotations: { readOnlyHint: true } },
          {
            name: "search_pages",
            description: "Search wiki pages.",
            annotations: { readOnlyHint: true },
          },
          {
            name: "read_env",
            description: "Read the environment.",
            annotations: { readOnlyHint: true },
          },
        ],
      },
      {
        id: SRV_OPS,
        name: "Ops",
        transport: { kind: "manual" },
        declaredTools: [{ name: "trigger_deploy" }, { name: "send_mail" }],
      },
    ],
    sources: [
      {
        id: SRC,
        name: "Support portal",
        writers: { externalAccounts: 10, selfServiceSignupOpen: true },
      },
    ],
    tools: [
      {
        serverId: SRV_KB,
        tool: "get_issue",
        sourceIds: [SRC],
        roles: ["returns_untrusted_text"],
        rolesConfirmed: true,
      },
      // search_pages: returning, no source mapped (an unmapped head).
      {
        serverId: SRV_KB,
        tool: "search_pages",
        roles: ["returns_untrusted_text"],
        rolesConfirmed: true,
      },
      { serverId: SRV_KB, tool: "read_env", roles: ["reads_private_data"], rolesConfirmed: true },
      {
        serverId: SRV_OPS,
        tool: "trigger_deploy",
        roles: ["deploys_or_destroys"],
        rolesConfirmed: true,
      },
      { serverId: SRV_OPS, tool: "send_mail", roles: ["network_or_shares"], rolesConfirmed: true },
    ],
    agents: [
      {
        id: AGENT,
        name: "Triage agent",
        tools: ["get_issue", "search_pages", "read_env"]
          .map((tool) => ({ serverId: SRV_KB, tool }))
          .concat([
            { serverId: SRV_OPS, tool: "trigger_deploy" },
            { serverId: SRV_OPS, tool: "send_mail" },
          ]),
      },
    ],
    controls: {
      credentials: [{ serverId: SRV_KB, scopes: ["write:all"] }],
      approvals: [
        {
          agentId: AGENT,
          tools: [{ serverId: SRV_OPS, tool: "trigger_deploy" }],
          promptsPerDay: 14,
          medianSecondsToApprove: 1.9,
        },
      ],
    },
  });
}

/** Every sentence of an analysis a person reads. */
function prose(a: Analysis): string[] {
  const c = a.controls;
  return [
    ...a.findings.flatMap((f) => [f.title, f.why.summary]),
    ...a.paths.listed.map((p) => p.head.label),
    ...a.graph.nodes.map((n) => n.label),
    ...[...c.credentials, ...c.egress, ...c.approvals, c.separation, ...c.absent].map(
      (e) => e.summary,
    ),
    c.residue.text,
    ...c.residue.caveats,
    ...a.agents.flatMap((ag) => ag.controlsOnPath.map((x) => x.summary)),
  ];
}

describe("names, never ids, where a person reads", () => {
  it("every finding, path, label and control summary names servers, agents, tools and sources", () => {
    const a = analyzeReview(fixture(), toolListsFromReview(fixture()));
    const offending = prose(a).filter((t) => ID_LIKE.test(t));
    expect(offending).toEqual([]);
    // The structured fields keep the ids.
    expect(a.paths.listed[0]?.agentId).toBe(AGENT);
    expect(a.findings.find((f) => f.kind === "path.to_sensitive_sink")?.why.tools).toContain(
      `${SRV_KB}/get_issue`,
    );
    // The unmapped head and its server's finding say the names.
    expect(a.paths.listed.map((p) => p.head.label)).toContain(
      "unmapped text returned by search_pages",
    );
    expect(a.findings.find((f) => f.kind === "tools.unmapped_sources")?.title).toBe(
      "1 tool of Knowledge base returns text from no mapped source",
    );
  });

  it("the lethal trifecta and the Rule of Two say in words which tools stand on each leg", () => {
    const a = analyzeReview(fixture(), toolListsFromReview(fixture()));
    const trifecta = a.findings.find((f) => f.kind === "agent.lethal_trifecta")!.why.summary;
    expect(trifecta).toBe(
      "untrusted input, private data and outbound communication in one session: untrusted input: get_issue (Support portal), search_pages; private data: read_env; outbound communication: send_mail",
    );
    const rule = a.findings.find((f) => f.kind === "agent.rule_of_two")!.why.summary;
    expect(rule).toBe(
      "at most two of untrusted input, sensitive data or systems, state change and outbound communication; this agent has 4: untrusted input: get_issue (Support portal), search_pages; sensitive data or systems: trigger_deploy, read_env; state change: trigger_deploy; outbound communication: send_mail",
    );
    expect(rule).not.toMatch(
      /untrustedInput|sensitiveDataOrSystems|stateChange|outboundCommunication/,
    );
  });

  it("a decision's checks, staleness and report name the tools and servers", () => {
    const review = fixture();
    const decision = buildDecision(review, {
      serverId: SRV_KB,
      agentId: AGENT,
      verdict: "approved_with_conditions",
      conditions: [
        { kind: "tool_absent_from_agent", tool: { serverId: SRV_OPS, tool: "send_mail" } },
        { kind: "egress_default_deny", serverId: SRV_KB },
        { kind: "credential_read_only", serverId: SRV_KB },
        { kind: "approval_out_of_band", agentId: AGENT },
      ],
      reviewer: "r",
      rationale: "r",
      now: "2026-12-03T00:00:00.000Z",
      revision: 1,
      surfaceSha256: null,
    });
    const checks = checkConditions(decision, review);
    expect(checks.map((c) => c.reason).filter((t) => ID_LIKE.test(t))).toEqual([]);
    expect(checks[0]?.reason).toBe("Triage agent holds send_mail on Ops");
    const changed: Review = {
      ...review,
      agents: [
        {
          ...review.agents[0]!,
          tools: review.agents[0]!.tools.filter((t) => t.tool !== "send_mail"),
        },
      ],
    };
    const status = decisionStatus(decision, { review: changed, currentSurfaceSha256: null });
    expect(status.state).toBe("stale");
    const messages = status.state === "stale" ? status.changes.map((c) => c.message) : [];
    expect(messages.join(" ")).toContain("removed send_mail on Ops");
    expect(messages.filter((t) => ID_LIKE.test(t))).toEqual([]);
    const md = renderDecisionMarkdown({ review, decision, status: { state: "current" } });
    expect(md.match(new RegExp(ID_LIKE.source, "g")) ?? []).toEqual([]);
    expect(md).toContain("`send_mail` on Ops is not in the agent");
  });
});
