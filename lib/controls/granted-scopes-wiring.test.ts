/**
 * The granted scopes wired in: the credential control reads them as evidence through the analysis
 * input, a decision binds them, a wider grant makes it stale, and the signed record carries them
 * while records without them still verify.
 */
import { describe, expect, test } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { buildDecision } from "@/lib/decisions/binding";
import {
  parseDecisionRecord,
  signRecord,
  signingKeyId,
  verifyRecord,
} from "@/lib/decisions/record";
import { decisionStatus } from "@/lib/decisions/staleness";
import type { ServerId } from "@/lib/ids";
import { toolListsFromReview } from "@/lib/model/input";
import { createDemoReview } from "@/lib/review/demo";
import type { Review } from "@/lib/review/schema";
import { newKeyPair, unsignedOnCallRecord } from "@/tests/decisions/fixtures";
import { evaluateCredential } from "./credential";

const KM = "knowledge-mcp" as ServerId;
const demo = createDemoReview();
const seed = demo.controls.credentials[0]!;
const SURFACE = "b21d7c".padEnd(64, "0");

const withGrant = (review: Review, granted: string[] | undefined) => {
  const lists = toolListsFromReview(review);
  if (granted) lists.find((l) => l.serverId === KM)!.grantedScopes = granted;
  return analyzeReview(review, lists);
};
const credentialFindings = (granted: string[] | undefined) =>
  withGrant(demo, granted).findings.filter((f) => f.controlId === "credential");

describe("the credential control reads the granted scopes", () => {
  test("a granted write:* is a finding though the reviewer typed read-only scopes", () => {
    const e = evaluateCredential(seed, 0, [], [...seed.scopes, "write:*"]);
    expect(e.status).toBe("fails");
    const write = e.findings.find((f) => f.kind === "credential.scope_write");
    expect(write?.why.config).toEqual([
      { path: `inspections.${KM}.authorization.scopes.3`, value: "write:*" },
    ]);
  });

  test("a grant wider than reviewed names the extra scopes, even when they are read-only", () => {
    const e = evaluateCredential(seed, 0, [], [...seed.scopes, "read:wiki", "read:board"]);
    expect(e.findings.map((f) => f.kind)).toEqual(["credential.grant_beyond_review"]);
    expect(e.findings[0]!.title).toBe(
      "The OAuth grant is wider than the reviewed scopes: +read:board +read:wiki",
    );
    expect(e.status).toBe("fails");
  });

  test("a scope typed and granted is one finding; a grant as reviewed or narrower finds nothing", () => {
    const typedWrite = { ...seed, scopes: [...seed.scopes, "write:issue"] };
    const e = evaluateCredential(typedWrite, 0, [], ["write:issue", "read:issue"]);
    expect(e.findings.map((f) => f.kind)).toEqual(["credential.scope_write"]);
    expect(e.findings[0]!.why.config[0]!.path).toBe("controls.credentials.0.scopes.3");
    expect(evaluateCredential(seed, 0, [], [...seed.scopes].reverse()).findings).toEqual([]);
    expect(evaluateCredential(seed, 0, [], ["read:issue"]).status).toBe("holds");
  });

  test("the analysis passes a server's grant to its credential; without one it is unchanged", () => {
    expect(withGrant(demo, undefined)).toEqual(analyzeReview(demo, toolListsFromReview(demo)));
    expect(withGrant(demo, [...seed.scopes])).toEqual(withGrant(demo, undefined));
    const kinds = credentialFindings([...seed.scopes, "write:issue"]).map((f) => f.kind);
    expect(kinds.sort()).toEqual(["credential.grant_beyond_review", "credential.scope_write"]);
  });
});

describe("a decision binds the granted set", () => {
  const decide = (grantedScopes?: string[] | null) =>
    buildDecision(demo, {
      serverId: KM,
      agentId: "docs-agent",
      verdict: "approved",
      reviewer: "R. Reviewer",
      rationale: "read-only grant",
      now: "2026-01-05T10:00:00.000Z",
      revision: 1,
      surfaceSha256: SURFACE,
      ...(grantedScopes !== undefined ? { grantedScopes } : {}),
    });
  const status = (
    d: ReturnType<typeof decide>,
    currentGrantedScopes: string[] | null | undefined,
  ) =>
    decisionStatus(d, {
      review: demo,
      currentSurfaceSha256: SURFACE,
      ...(currentGrantedScopes !== undefined ? { currentGrantedScopes } : {}),
    });

  test("bound as a sorted set; absent without a grant", () => {
    expect(decide(["read:issue", "read:comment", "read:issue"]).bound.grantedScopes).toEqual([
      "read:comment",
      "read:issue",
    ]);
    expect("grantedScopes" in decide(null).bound).toBe(false);
    expect("grantedScopes" in decide().bound).toBe(false);
  });

  test("a wider grant makes it stale naming the added scopes; the same or a narrower one does not", () => {
    const d = decide(["read:issue", "read:comment"]);
    const stale = status(d, ["read:comment", "read:issue", "write:issue", "read:user"]);
    expect(stale).toEqual({
      state: "stale",
      changes: [
        {
          what: "granted_scopes",
          before: ["read:comment", "read:issue"],
          after: ["read:comment", "read:issue", "read:user", "write:issue"],
          addedScopes: ["read:user", "write:issue"],
          message: "knowledge-mcp: the OAuth grant widened: +read:user +write:issue",
        },
      ],
    });
    expect(status(d, ["read:issue", "read:comment"]).state).toBe("current");
    expect(status(d, ["read:issue"]).state).toBe("current");
    // Not reached through OAuth now: a grant cannot be wider than one bound.
    expect(status(d, null).state).toBe("current");
    // A caller that does not read inspections does not check the grant.
    expect(status(d, undefined).state).toBe("current");
  });

  test("a first grant on a decision that bound none is stale; no grant before or after is current", () => {
    const d = decide(null);
    const s = status(d, ["read:issue"]);
    expect(s.state === "stale" && s.changes[0]!.message).toBe(
      "knowledge-mcp: the server is now reached with an OAuth grant (read:issue); the decision bound none",
    );
    expect(status(d, null).state).toBe("current");
  });
});

describe("the signed record carries the bound grant", () => {
  const keys = newKeyPair();
  const sign = (r: ReturnType<typeof unsignedOnCallRecord>) =>
    signRecord(r, keys.privateKey, signingKeyId(keys.publicKey));

  test("a record with a grant verifies and names it; one without omits the field and verifies", () => {
    const granted = sign(unsignedOnCallRecord({ grantedScopes: ["read:issue", "read:comment"] }));
    expect(granted.decision.bound.grantedScopes).toEqual(["read:comment", "read:issue"]);
    expect(verifyRecord(granted, keys.publicKey).ok).toBe(true);
    expect(parseDecisionRecord(JSON.stringify(granted)).ok).toBe(true);

    const plain = sign(unsignedOnCallRecord());
    expect("grantedScopes" in plain.decision.bound).toBe(false);
    expect(verifyRecord(plain, keys.publicKey).ok).toBe(true);
  });

  test("a record of a decision whose grant has since widened is refused", () => {
    expect(() =>
      unsignedOnCallRecord({ grantedScopes: ["read:issue"] }, { currentGrantedScopes: ["admin"] }),
    ).toThrow(/\+admin/);
  });

  test("tampering with the bound grant breaks the signature", () => {
    const r = sign(unsignedOnCallRecord({ grantedScopes: ["read:issue"] }));
    const tampered = structuredClone(r);
    tampered.decision.bound.grantedScopes = ["read:issue", "write:issue"];
    expect(verifyRecord(tampered, keys.publicKey).ok).toBe(false);
  });
});
