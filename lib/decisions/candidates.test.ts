import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { ReviewSchema, type DecisionCondition, type Review } from "@/lib/review/schema";
import { candidateConditions } from "@/lib/workbench/decisions";
import { toolConditionOffers } from "./candidates";

const review: Review = ReviewSchema.parse({
  schemaVersion: 2,
  title: "t",
  servers: [
    {
      id: "srv-15f31645b5b2",
      name: "Tracker",
      transport: { kind: "manual" },
      declaredTools: [
        { name: "get_issue" },
        { name: "list_labels" },
        { name: "add_label" },
        { name: "create_issue" },
        { name: "delete_project" },
      ],
    },
    {
      id: "srv-0a9b8c7d6e5f",
      name: "Chat",
      transport: { kind: "manual" },
      declaredTools: [{ name: "post_message" }],
    },
  ],
  sources: [
    {
      id: "portal",
      name: "Support portal",
      writers: { externalAccounts: 10, selfServiceSignupOpen: true },
    },
  ],
  tools: [
    {
      serverId: "srv-15f31645b5b2",
      tool: "get_issue",
      sourceIds: ["portal"],
      roles: ["returns_untrusted_text"],
      rolesConfirmed: true,
    },
    { serverId: "srv-15f31645b5b2", tool: "list_labels", roles: [], rolesConfirmed: true },
    { serverId: "srv-15f31645b5b2", tool: "add_label", roles: ["writes"], rolesConfirmed: true },
    { serverId: "srv-15f31645b5b2", tool: "create_issue", roles: ["writes"], rolesConfirmed: true },
    {
      serverId: "srv-15f31645b5b2",
      tool: "delete_project",
      roles: ["deploys_or_destroys"],
      rolesConfirmed: true,
    },
    {
      serverId: "srv-0a9b8c7d6e5f",
      tool: "post_message",
      roles: ["network_or_shares"],
      rolesConfirmed: true,
    },
  ],
  agents: [
    {
      id: "agent-a87fc0d1c2e6",
      name: "Triage agent",
      tools: [
        { serverId: "srv-15f31645b5b2", tool: "get_issue" },
        { serverId: "srv-15f31645b5b2", tool: "list_labels" },
        { serverId: "srv-15f31645b5b2", tool: "add_label" },
      ],
    },
  ],
});
const analysis = analyzeReview(review, toolListsFromReview(review));
const names = (offer: string, list: { offer?: string; condition: DecisionCondition }[]) =>
  list
    .filter((o) => o.offer === offer)
    .map((o) => (o.condition.kind === "tool_absent_from_agent" ? o.condition.tool.tool : ""));

describe("'tool absent from agent' is offered for what to keep out and what is on the paths", () => {
  it("offers the sinks of any server the agent does not hold (deploys first), then the held tools on its paths; never the rest of its tool set", () => {
    const offers = toolConditionOffers(review, analysis, "agent-a87fc0d1c2e6");
    expect(names("keep_out", offers)).toEqual(["delete_project", "post_message", "create_issue"]);
    expect(names("on_path", offers)).toEqual(["get_issue", "add_label"]);
    expect(offers.some((o) => o.condition.tool.tool === "list_labels")).toBe(false);
    expect(offers.find((o) => o.condition.tool.tool === "create_issue")?.note).toBe(
      "a sensitive sink (writes) Triage agent does not hold: the condition keeps it out",
    );
  });

  it("as checked candidates: every keep-out condition holds now, every on-path one is marked and does not", () => {
    const checks = candidateConditions(review, "srv-15f31645b5b2", "agent-a87fc0d1c2e6", analysis);
    const keepOut = checks.filter((c) => c.offer === "keep_out");
    expect(keepOut.length).toBe(3);
    expect(keepOut.every((c) => c.holds === true)).toBe(true);
    expect(
      keepOut.find(
        (c) =>
          c.condition.kind === "tool_absent_from_agent" && c.condition.tool.tool === "create_issue",
      )?.reason,
    ).toBe("Triage agent does not hold create_issue on Tracker");
    const onPath = checks.filter((c) => c.offer === "on_path");
    expect(onPath.map((c) => c.holds)).toEqual([false, false]);
    // The controls' conditions are still offered, unmarked.
    expect(checks.filter((c) => c.offer === undefined).map((c) => c.condition.kind)).toEqual([
      "egress_default_deny",
      "credential_read_only",
      "surface_pinned_block",
      "approval_out_of_band",
    ]);
  });

  it("an agent on no path gets only the sinks to keep out", () => {
    const quiet: Review = {
      ...review,
      agents: [{ ...review.agents[0]!, tools: [review.agents[0]!.tools[1]!] }],
    };
    const offers = toolConditionOffers(
      quiet,
      analyzeReview(quiet, toolListsFromReview(quiet)),
      "agent-a87fc0d1c2e6",
    );
    expect(names("on_path", offers)).toEqual([]);
    expect(names("keep_out", offers)).toEqual([
      "delete_project",
      "post_message",
      "add_label",
      "create_issue",
    ]);
  });
});
