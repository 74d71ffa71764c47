/**
 * The granted OAuth scopes as evidence, on a real store: a server inspected twice with the same
 * surface and different grants. The first grant is what the reviewer typed (nothing to find, a
 * decision binds it); the second adds a write scope, so the credential control finds it and names
 * the grant as wider than reviewed, and the decision is stale naming the added scopes everywhere
 * its status is read (the list, the share view, the export and the signed record refuse it).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DecideRequestSchema } from "@/lib/decisions/api";
import { buildDecisionRecord } from "@/lib/decisions/record";
import { AppError } from "@/lib/errors";
import type { ReviewId, ServerId } from "@/lib/ids";
import { DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { createDemoReview } from "@/lib/review/demo";
import { openStore, type Store } from "@/lib/store/db";
import { createReview, getReview } from "@/lib/store/reviews";
import { putSnapshot, recordInspection } from "@/lib/store/snapshots";
import type { Surface } from "@/lib/surface/types";
import { analyzeReviewDocument } from "@/lib/workbench/analysis";
import {
  currentGrants,
  currentSurfaces,
  decide,
  decisionExport,
  decisionView,
  loadStoredDecision,
} from "@/lib/workbench/decisions";
import { BACKENDS } from "@/tests/store/support/backends";
import { snapshotOfSurface } from "@/tests/support/snapshot";

const SERVER = "knowledge-mcp" as ServerId;
const REVIEWED = ["read:comment", "read:issue", "read:project"];
const SNAPSHOT = snapshotOfSurface(
  {
    instructions: null,
    tools: ["knowledge_search", "read_page"].map((name) => ({
      name,
      description: `The ${name} tool.`,
      inputSchema: { type: "object" },
    })),
    resources: [],
    resourceTemplates: [],
    prompts: [],
    rejects: [],
  } satisfies Surface,
  { declaredCapabilities: DECLARED_CAPABILITY_NAMES },
);
const at = (minute: number) => new Date(Date.UTC(2026, 11, 4, 12, minute));

describe.each(BACKENDS)("granted scopes as credential evidence on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let reviewId: ReviewId;

  const inspect = async (scopes: string[], minute: number) =>
    recordInspection(store.db, {
      reviewId,
      serverId: SERVER,
      snapshotSha256: await putSnapshot(store.db, SNAPSHOT),
      surfaceSha256: SNAPSHOT.surfaceSha256,
      declaredCapabilities: DECLARED_CAPABILITY_NAMES,
      status: "ok",
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
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (await createReview(store.db, createDemoReview(), "test")).id;
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  test("a grant as reviewed finds nothing, a wider one is found and makes the decision stale", async () => {
    await inspect([...REVIEWED].reverse(), 1);
    expect(await grantFindings()).toEqual([]);

    const record = (await getReview(store.db, reviewId))!;
    const made = await decide(
      store.db,
      reviewId,
      DecideRequestSchema.parse({
        baseRevision: record.revision,
        serverId: SERVER,
        agentId: "docs-agent",
        verdict: "approved",
        conditions: [],
        reviewer: "R. Reviewer",
        rationale: "read-only grant",
      }),
    );
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
