/**
 * The review summary and the reviews list's flags (issue 29, item 5), on a real store, read through
 * one review context (item 6): the demo's on-call agent holds critical paths and the trifecta; an
 * approval of knowledge-mcp into it that accepts them is shown as accepting critical risk, never as
 * plain current; a newer decision for the same pair supersedes it; the list's flags say the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DecideRequestSchema } from "@/lib/decisions/api";
import type { ReviewId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import { openStore, type Store } from "@/lib/store/db";
import { createReview, getReview } from "@/lib/store/reviews";
import { decide } from "@/lib/workbench/decisions";
import { openReview } from "@/lib/workbench/review-context";
import { stateIn } from "@/lib/workbench/review-state";
import { reviewsOverview, summaryIn } from "@/lib/workbench/summary";
import { pgliteBackend } from "@/tests/store/support/backends";

describe("review summary on pglite", () => {
  let store: Store;
  let drop: () => Promise<void>;
  let reviewId: ReviewId;

  beforeAll(async () => {
    const provisioned = await pgliteBackend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (await createReview(store.db, createDemoReview(), "test")).id;
  }, 240_000);
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  test("per agent: open paths by severity, trifecta, Rule of Two, controls; no decision yet", async () => {
    const ctx = await openReview(store.db, reviewId);
    const s = await summaryIn(ctx);
    const onCall = s.agents.find((a) => a.agentId === "on-call")!;
    expect(onCall.paths.critical).toBeGreaterThan(0);
    // The trifecta and the Rule of Two are the analysis's, word for word.
    const analysed = (await ctx.analysis()).agents.find((a) => a.agentId === "on-call")!;
    expect(onCall.trifecta.met).toBe(analysed.trifecta.met);
    expect(onCall.ruleOfTwo).toEqual({
      count: analysed.ruleOfTwo.count,
      violated: analysed.ruleOfTwo.violated,
    });
    expect(onCall.controls.length).toBe(
      new Set(analysed.controlsOnPath.map((c) => JSON.stringify([c.controlId, c.scope]))).size,
    );
    const docs = s.agents.find((a) => a.agentId === "docs-agent")!;
    expect(docs.paths.critical + docs.paths.high).toBe(0);
    expect(s.servers.every((x) => x.pin === "unpinned")).toBe(true);
    expect(s.decisions).toEqual([]);
    expect(s.flags).toMatchObject({ state: "current", stale: 0, pending: 0, verdict: null });
    expect(s.flags.acceptsCritical).toBe(false);
    expect(s.flags.openPaths.critical).toBe(onCall.paths.critical);
  }, 120_000);

  test("an approval accepting the critical paths says so, and a newer decision supersedes it", async () => {
    const before = await openReview(store.db, reviewId);
    const open = (await before.findings()).of("knowledge-mcp", "on-call");
    const approved = await decide(
      store.db,
      reviewId,
      DecideRequestSchema.parse({
        baseRevision: before.record.revision,
        serverId: "knowledge-mcp",
        agentId: "on-call",
        verdict: "approved",
        reviewer: "A. Author",
        rationale: "accepted for the incident window",
        acceptances: open
          .filter((f) => f.severity === "critical" || f.severity === "high")
          .map((f) => ({ findingId: f.id, owner: "Risk Owner", why: "incident window" })),
      }),
    );
    let s = await summaryIn(await openReview(store.db, reviewId));
    const d = s.decisions.find((x) => x.decisionId === approved.decision.decision.id)!;
    expect(d.status).toBe("current");
    expect(d.accepts.some((a) => a.severity === "critical")).toBe(true);
    expect(d.accepts[0]!.owner).toBe("Risk Owner");
    // The default end is 90 days away: not expiring yet.
    expect(d.expiresAt).toBeNull();
    expect(s.flags).toMatchObject({ acceptsCritical: true, verdict: "approved", stale: 0 });

    const rows = await reviewsOverview(store.db);
    expect(rows.find((r) => r.id === reviewId)?.flags).toEqual(s.flags);

    const record = (await getReview(store.db, reviewId))!;
    await decide(
      store.db,
      reviewId,
      DecideRequestSchema.parse({
        baseRevision: record.revision,
        serverId: "knowledge-mcp",
        agentId: "on-call",
        verdict: "rejected",
        reviewer: "B. Approver",
        rationale: "the on-call agent holds trigger_deploy",
      }),
    );
    s = await summaryIn(await openReview(store.db, reviewId));
    expect(s.decisions.map((x) => x.status)).toEqual(["superseded", "current"]);
    expect(s.flags).toMatchObject({ acceptsCritical: false, verdict: "rejected" });
    // The summary and the state route read the same context: they agree on the state.
    const ctx = await openReview(store.db, reviewId);
    expect((await stateIn(ctx)).state).toBe((await summaryIn(ctx)).flags.state);
  }, 240_000);
});
