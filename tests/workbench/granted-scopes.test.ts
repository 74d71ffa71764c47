/**
 * The granted OAuth scopes as evidence, on a real store: a server inspected twice with the same
 * surface and different grants. The first grant is what the reviewer typed (nothing to find, a
 * decision binds it); the second adds a write scope, so the credential control finds it and names
 * the grant as wider than reviewed, and the decision is stale naming the added scopes everywhere
 * its status is read (the list, the share view, the export and the signed record refuse it).
 */
import { beforeAll, describe, expect, test } from "vitest";
import { buildDecisionRecord } from "@/lib/decisions/record";
import { AppError } from "@/lib/errors";
import type { ReviewId, ServerId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import { createReview, getReview } from "@/lib/store/reviews";
import { analyzeReviewDocument } from "@/lib/workbench/analysis";
import {
  currentGrants,
  currentSurfaces,
  decisionExport,
  decisionView,
  loadStoredDecision,
} from "@/lib/workbench/decisions";
import { BACKENDS, useStore } from "@/tests/store/support/backends";
import {
  decideForDocsAgent,
  recordOkInspection,
  toolsSnapshot,
} from "@/tests/support/decision-setup";

const SERVER = "knowledge-mcp" as ServerId;
const REVIEWED = ["read:comment", "read:issue", "read:project"];
const SNAPSHOT = toolsSnapshot(["knowledge_search", "read_page"]);
const at = (minute: number) => new Date(Date.UTC(2026, 11, 4, 12, minute));

describe.each(BACKENDS)("granted scopes as credential evidence on $name", (backend) => {
  const store = useStore(backend);
  let reviewId: ReviewId;

  const inspect = async (scopes: string[], minute: number) =>
    recordOkInspection(store.db, {
      reviewId,
      serverId: SERVER,
      snapshot: SNAPSHOT,
      inspectedAt: at(minute),
      authorization: {
        issuer: "http://127.0.0.1:1/",
        subject: "svc-knowledge",
        scopes,
        scopeSource: "response",
        expiresAt: null,
      },
    });
  const grantFindings = async () => {
    const record = (await getReview(store.db, reviewId))!;
    const analysis = await analyzeReviewDocument(store.db, reviewId, record.review);
    return analysis.findings
      .filter((f) => f.controlId === "credential" && f.subject.serverId === SERVER)
      .map((f) => ({ kind: f.kind, title: f.title, paths: f.why.config.map((c) => c.path) }));
  };

  beforeAll(async () => {
    reviewId = (await createReview(store.db, createDemoReview(), "test")).id;
  });

  test("a grant as reviewed finds nothing, a wider one is found and makes the decision stale", async () => {
    await inspect([...REVIEWED].reverse(), 1);
    expect(await grantFindings()).toEqual([]);

    const made = await decideForDocsAgent(store.db, reviewId, SERVER, {
      verdict: "approved",
      rationale: "read-only grant",
    });
    const decision = made.decision.decision;
    expect(decision.bound.grantedScopes).toEqual(REVIEWED);
    expect(made.decision.status.state).toBe("current");

    // The authorization server now grants a write scope the reviewer never typed.
    await inspect([...REVIEWED, "write:issue"], 2);
    const findings = await grantFindings();
    expect(findings).toContainEqual({
      kind: "credential.scope_write",
      title: "Token scope write:issue is not read-only",
      paths: [`inspections.${SERVER}.authorization.scopes.3`],
    });
    expect(findings).toContainEqual({
      kind: "credential.grant_beyond_review",
      title: "The OAuth grant is wider than the reviewed scopes: +write:issue",
      paths: [`inspections.${SERVER}.authorization.scopes`],
    });

    const after = (await getReview(store.db, reviewId))!;
    const surfaces = await currentSurfaces(store.db, reviewId, after.review);
    const grants = await currentGrants(store.db, reviewId, after.review);
    expect(grants.get(SERVER)).toEqual([...REVIEWED, "write:issue"].sort());
    const status = decisionView(decision, after.review, surfaces, { grants }).status;
    expect(status.state).toBe("stale");
    const changes = status.state === "stale" ? status.changes : [];
    // Same surface: the grant alone makes it stale.
    expect(changes.map((c) => c.what)).toEqual(["granted_scopes"]);
    expect(changes[0]).toMatchObject({ addedScopes: ["write:issue"], before: REVIEWED });
    expect(changes[0]!.message).toContain("+write:issue");

    const exported = await decisionExport(store.db, reviewId, decision.id, "credential-request")
      .then(() => "exported")
      .catch((e: unknown) => (e instanceof AppError ? e.code : String(e)));
    expect(exported).toBe("CONFLICT");
    const stored = await loadStoredDecision(store.db, reviewId, decision.id);
    expect(stored.currentGrantedScopes).toEqual([...REVIEWED, "write:issue"].sort());
    expect(() =>
      buildDecisionRecord({
        review: stored.record.review,
        reviewId,
        revision: stored.record.revision,
        decision: stored.decision,
        issuedAt: at(3),
        currentSurfaceSha256: stored.currentSurfaceSha256,
        currentGrantedScopes: stored.currentGrantedScopes,
      }),
    ).toThrow(/\+write:issue/);

    // A narrower grant than the bound one can only do less: the decision is current again.
    await inspect(["read:issue"], 4);
    const narrower = await currentGrants(store.db, reviewId, after.review);
    expect(decisionView(decision, after.review, surfaces, { grants: narrower }).status.state).toBe(
      "current",
    );
  });
});
