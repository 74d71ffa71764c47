/**
 * The reviewer's URL-elicitation hosts travel from the review document into the signed record:
 * a decision recorded for a server with hosts issues a record whose registration lists them,
 * that verifies, and whose gate policy admits exactly them; adding a host after the decision makes
 * it stale, so no signed record admits a host nobody decided on.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DecideRequestSchema } from "@/lib/decisions/api";
import { AppError } from "@/lib/errors";
import { signingKeyId, verifyRecord } from "@/lib/decisions/record";
import { inputPolicyFromRecord } from "@/lib/gate/input-required";
import type { ReviewId, ServerId } from "@/lib/ids";
import { DECLARED_CAPABILITY_NAMES } from "@/lib/mcp/capabilities";
import { createDemoReview } from "@/lib/review/demo";
import { openStore, type Store } from "@/lib/store/db";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";
import { putSnapshot, recordInspection } from "@/lib/store/snapshots";
import type { Surface } from "@/lib/surface/types";
import { decide, decisionReport, issueDecisionRecord } from "@/lib/workbench/decisions";
import { newKeyPair } from "@/tests/decisions/fixtures";
import { BACKENDS } from "@/tests/store/support/backends";
import { snapshotOfSurface } from "@/tests/support/snapshot";

const SERVER = "knowledge-mcp" as ServerId;
const HOSTS = ["pay.example.com", "login.example.com"];

const surface: Surface = {
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
};

describe.each(BACKENDS)("URL-elicitation hosts in the signed record on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let reviewId: ReviewId;
  const keys = newKeyPair();
  const key = { privateKey: keys.privateKey, keyId: signingKeyId(keys.publicKey) };

  /** Approve SERVER into docs-agent against its inspected surface; the decision's id. */
  async function approve(): Promise<string> {
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
        rationale: "read-only tools",
      }),
    );
    return made.decision.decision.id;
  }

  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    const review = createDemoReview();
    const server = review.servers.find((s) => s.id === SERVER)!;
    server.elicitationUrlHosts = HOSTS;
    server.pin = null;
    reviewId = (await createReview(store.db, review, "test")).id;
    const snapshot = snapshotOfSurface(surface, {
      declaredCapabilities: DECLARED_CAPABILITY_NAMES,
    });
    await recordInspection(store.db, {
      reviewId,
      serverId: SERVER,
      snapshotSha256: await putSnapshot(store.db, snapshot),
      surfaceSha256: snapshot.surfaceSha256,
      declaredCapabilities: DECLARED_CAPABILITY_NAMES,
      status: "ok",
      inspectedAt: new Date(Date.UTC(2026, 11, 2, 12, 0)),
    });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  test("a decision for a server with hosts issues a verifying record that lists them", async () => {
    const decisionId = await approve();
    const record = await issueDecisionRecord(store.db, reviewId, decisionId, key);
    expect(record.registration?.elicitation_url_domains).toEqual([...HOSTS].sort());
    expect(verifyRecord(JSON.stringify(record), keys.publicKey)).toMatchObject({ ok: true });
    expect(inputPolicyFromRecord(record).elicitationUrlDomains).toEqual([...HOSTS].sort());
    // Altering the hosts after signing breaks the signature: the gate trusts only signed hosts.
    const widened = structuredClone(record);
    widened.registration!.elicitation_url_domains!.push("evil.example");
    expect(verifyRecord(JSON.stringify(widened), keys.publicKey).ok).toBe(false);
    expect(await decisionReport(store.db, reviewId, decisionId)).toContain(
      "**URL elicitation allowed to:** `pay.example.com`, `login.example.com`",
    );
  });

  test("adding a host after the decision makes it stale: no record is issued until decided again", async () => {
    const decisionId = await approve();
    const before = (await getReview(store.db, reviewId))!;
    const review = structuredClone(before.review);
    review.servers.find((s) => s.id === SERVER)!.elicitationUrlHosts = [...HOSTS, "evil.example"];
    expect((await saveReview(store.db, reviewId, before.revision, review, "test"))?.ok).toBe(true);
    const refused = await issueDecisionRecord(store.db, reviewId, decisionId, key).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe("CONFLICT");
    expect((refused as AppError).message).toContain("URL-elicitation hosts");

    const again = await issueDecisionRecord(store.db, reviewId, await approve(), key);
    expect(again.registration?.elicitation_url_domains).toEqual([...HOSTS, "evil.example"].sort());
  });
});
