import { describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import {
  grantWidening,
  grantedScopeEvidence,
  grantedScopesBinding,
  lintGrantedScopes,
  scopesBeyondReview,
} from "./granted-scopes";

describe("granted scopes as credential evidence", () => {
  test("each granted scope cites the inspection's authorization", () => {
    expect(
      grantedScopeEvidence("knowledge" as ServerId, ["read:wiki", "read:issues", "read:wiki"]),
    ).toEqual([
      { scope: "read:issues", path: "inspections.knowledge.authorization.scopes.0" },
      { scope: "read:wiki", path: "inspections.knowledge.authorization.scopes.1" },
    ]);
  });

  test.each([
    [["read:issues"], ["read:issues"], [], []],
    [["read:issues"], ["read:issues", "write:issues"], ["write:issues"], ["write:issues"]],
    [["read:issues", "read:user"], ["read:user"], ["read:user"], []],
    // The lint reads a scope case-insensitively; the comparison with the review does not (RFC 6749 §3.3).
    [["read:issues"], ["Read:Issues"], [], ["Read:Issues"]],
    [[], ["admin"], ["admin"], ["admin"]],
  ])(
    "reviewed %j, granted %j: not read-only %j, beyond review %j",
    (reviewed, granted, bad, wider) => {
      const lint = lintGrantedScopes(reviewed, granted);
      expect(lint.notReadOnly.map((v) => v.scope)).toEqual(bad);
      expect(lint.beyondReview).toEqual(wider);
    },
  );

  test("a wider grant than the bound one makes a decision stale; a narrower one does not", () => {
    const bound = grantedScopesBinding(["read:wiki", "read:issues"]);
    expect(bound).toEqual(["read:issues", "read:wiki"]);
    expect(grantWidening(bound, ["read:issues"])).toBeNull();
    expect(grantWidening(bound, ["read:wiki", "read:issues"])).toBeNull();
    expect(grantWidening(bound, ["read:issues", "write:wiki"])).toEqual({
      added: ["write:wiki"],
      message: "the OAuth grant widened: +write:wiki",
    });
    expect(grantWidening(null, ["read:wiki"])?.added).toEqual(["read:wiki"]);
    expect(grantWidening(bound, null)).toBeNull();
    expect(grantedScopesBinding(null)).toBeNull();
    expect(scopesBeyondReview(["a"], ["a", " ", "b"])).toEqual(["b"]);
  });
});
