/** Domain fixtures for decision tests: the demo review with one decision, and its record. */
import { generateKeyPairSync } from "node:crypto";
import type { Review } from "@/lib/review/schema";
import { createDemoReview } from "@/lib/review/demo";
import { buildDecision, type BuildDecisionInput } from "@/lib/decisions/binding";
import { buildDecisionRecord, type RecordSurface } from "@/lib/decisions/record";

export const SURFACE_SHA = "b21d7c".padEnd(64, "0");

export const SEED_SURFACE: RecordSurface = {
  surfaceSha256: SURFACE_SHA,
  tools: ["knowledge_search", "read_page", "list_spaces", "get_comment"],
  resources: [],
  resourceTemplates: ["atlas://spaces/{key}"],
  prompts: [],
  declaredCapabilities: [],
};

export const onCallDecisionInput: BuildDecisionInput = {
  id: "dec-on-call",
  serverId: "knowledge-mcp",
  agentId: "on-call",
  verdict: "approved_with_conditions",
  conditions: [
    { kind: "egress_default_deny", serverId: "knowledge-mcp" },
    { kind: "credential_read_only", serverId: "knowledge-mcp" },
    { kind: "approval_out_of_band", agentId: "on-call" },
  ],
  reviewer: "R. Reviewer",
  rationale:
    "Egress is default-deny and the token is read-only; trigger_deploy stays behind an out-of-band approval.",
  now: "2026-01-05T10:00:00.000Z",
  revision: 4,
  surfaceSha256: SURFACE_SHA,
};

/** The demo review with the on-call decision recorded in it. */
export function reviewWithDecision(input: Partial<BuildDecisionInput> = {}): {
  review: Review;
  decision: ReturnType<typeof buildDecision>;
} {
  const review = createDemoReview();
  const decision = buildDecision(review, { ...onCallDecisionInput, ...input });
  review.decisions.push(decision);
  return { review, decision };
}

export function unsignedOnCallRecord(
  input: Partial<BuildDecisionInput> = {},
  extra: Partial<Parameters<typeof buildDecisionRecord>[0]> = {},
) {
  const { review, decision } = reviewWithDecision(input);
  return buildDecisionRecord({
    review,
    reviewId: "rev-demo",
    revision: 5,
    decision,
    issuedAt: "2026-01-06T09:30:00.000Z",
    currentSurfaceSha256: decision.bound.surfaceSha256,
    surface: decision.bound.surfaceSha256 === null ? null : SEED_SURFACE,
    evaluateEgressDefaultDeny: () => true,
    ...extra,
  });
}

export function newKeyPair() {
  return generateKeyPairSync("ed25519");
}
