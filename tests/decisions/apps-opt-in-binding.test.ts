/**
 * The server entry's "the agent's host renders MCP Apps" opt-in in the review document and the
 * decision binding: a review written before the field parses without it and keeps every controls
 * fingerprint (so no existing decision goes stale), and turning it on makes a decision stale,
 * naming why, since the agent's host is then another kind of client the server may show more to.
 */
import { describe, expect, test } from "vitest";
import { buildDecision, controlsSha256 } from "@/lib/decisions/binding";
import { decisionStatus } from "@/lib/decisions/staleness";
import { createDemoReview } from "@/lib/review/demo";
import { ReviewSchema, type Review } from "@/lib/review/schema";

/** A review document as stored before the field existed (JSON, no `hostRendersApps` anywhere). */
const oldReview = (): Review => {
  const json = JSON.stringify(createDemoReview());
  expect(json).not.toContain("hostRendersApps");
  return ReviewSchema.parse(JSON.parse(json));
};

describe("hostRendersApps on a server entry", () => {
  test("an old review parses without it, and its controls fingerprints are unchanged by it", () => {
    const review = oldReview();
    for (const s of review.servers) expect(s).not.toHaveProperty("hostRendersApps");
    const off = structuredClone(review);
    for (const s of off.servers) s.hostRendersApps = false;
    for (const s of review.servers)
      for (const a of review.agents)
        expect(controlsSha256(off, s.id, a.id)).toBe(controlsSha256(review, s.id, a.id));
  });

  test("a bad value is refused, naming the field", () => {
    const raw = JSON.parse(JSON.stringify(createDemoReview())) as {
      servers: Record<string, unknown>[];
    };
    raw.servers[0]!.hostRendersApps = "yes";
    const parsed = ReviewSchema.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(["servers", 0, "hostRendersApps"]);
  });

  test("turning it on makes a decision about that server stale; turning it off again does not", () => {
    const review = oldReview();
    const server = review.servers[0]!;
    const agent = review.agents[0]!;
    const decision = buildDecision(review, {
      serverId: server.id,
      agentId: agent.id,
      verdict: "rejected",
      reviewer: "R. Reviewer",
      rationale: "not needed",
      now: "2026-12-01T10:00:00.000Z",
      revision: 1,
      surfaceSha256: null,
    });
    const status = (r: Review) =>
      decisionStatus(decision, { review: r, currentSurfaceSha256: null });
    expect(status(review)).toEqual({ state: "current" });

    const on = structuredClone(review);
    on.servers[0]!.hostRendersApps = true;
    const stale = status(on);
    expect(stale.state).toBe("stale");
    if (stale.state === "stale") {
      expect(stale.changes.map((c) => c.what)).toEqual(["controls"]);
      expect(stale.changes[0]!.message).toContain("MCP Apps declaration");
    }

    const off = structuredClone(on);
    off.servers[0]!.hostRendersApps = false;
    expect(status(off)).toEqual({ state: "current" });
  });
});
