/**
 * The reviewer's URL-elicitation hosts travel from the review document into the signed record:
 * a decision recorded for a server with hosts issues a record whose registration lists them,
 * that verifies, and whose gate policy admits exactly them; adding a host after the decision makes
 * it stale, so no signed record admits a host nobody decided on.
 */
import { beforeAll, describe, expect, test } from "vitest";
import { AppError } from "@/lib/errors";
import { signingKeyId, verifyRecord } from "@/lib/decisions/record";
import { inputPolicyFromRecord } from "@/lib/gate/input-required";
import type { ReviewId, ServerId } from "@/lib/ids";
import { createDemoReview } from "@/lib/review/demo";
import { createReview, getReview, saveReview } from "@/lib/store/reviews";
import { decisionReport, issueDecisionRecord } from "@/lib/workbench/decisions";
import { newKeyPair } from "@/tests/decisions/fixtures";
import { BACKENDS, useStore } from "@/tests/store/support/backends";
import {
  decideForDocsAgent,
  recordOkInspection,
  toolsSnapshot,
} from "@/tests/support/decision-setup";

const SERVER = "knowledge-mcp" as ServerId;
const HOSTS = ["pay.example.com", "login.example.com"];

describe.each(BACKENDS)("URL-elicitation hosts in the signed record on $name", (backend) => {
  const store = useStore(backend);
  let reviewId: ReviewId;
  const keys = newKeyPair();
  const key = { privateKey: keys.privateKey, keyId: signingKeyId(keys.publicKey) };

  /** Approve SERVER into docs-agent against its inspected surface; the decision's id. */
  const approve = async () =>
    (
      await decideForDocsAgent(store.db, reviewId, SERVER, {
        verdict: "approved",
        rationale: "read-only tools",
      })
    ).decision.decision.id;

  beforeAll(async () => {
    const review = createDemoReview();
    const server = review.servers.find((s) => s.id === SERVER)!;
    server.elicitationUrlHosts = HOSTS;
    server.pin = null;
    reviewId = (await createReview(store.db, review, "test")).id;
    await recordOkInspection(store.db, {
      reviewId,
      serverId: SERVER,
      snapshot: toolsSnapshot(["knowledge_search", "read_page"]),
      inspectedAt: new Date(Date.UTC(2026, 11, 2, 12, 0)),
    });
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
