import { describe, expect, test } from "vitest";
import { credentialKey, credentialOf, credentialText } from "@/lib/credential";
import { sharedCacheFindings } from "@/lib/surface/credential";

describe("credential labels", () => {
  test("an OAuth grant is labelled by issuer, subject and scopes; otherwise by the variables' names", () => {
    const oauth = credentialOf({
      authorization: { issuer: "https://as", subject: "alice", scopes: ["b", "a", "a"] },
      variables: [{ name: "IGNORED" }],
    });
    expect(oauth).toEqual({
      kind: "oauth",
      issuer: "https://as",
      subject: "alice",
      scopes: ["a", "b"],
    });
    expect(credentialOf({ variables: [{ name: "B" }, { name: "A" }] })).toEqual({
      kind: "secret",
      names: ["A", "B"],
    });
    expect(credentialOf({})).toEqual({ kind: "none" });
    expect(credentialText(oauth)).toBe("OAuth alice from https://as, scopes a b");
  });

  test("keys are equal exactly when the credentials are; a separator in a field cannot forge one", () => {
    const k = (names: string[]) => credentialKey({ kind: "secret", names });
    expect(k(["A", "B"])).toBe(k(["B", "A"]));
    expect(k(["A"])).not.toBe(k(["B"]));
    expect(credentialKey({ kind: "oauth", issuer: "x", subject: "y z", scopes: [] })).not.toBe(
      credentialKey({ kind: "oauth", issuer: "x y", subject: "z", scopes: [] }),
    );
    // A wider grant is the same party: the decision's grant binding, not a new pin, catches it.
    expect(credentialKey({ kind: "oauth", issuer: "x", subject: "y", scopes: ["read"] })).toBe(
      credentialKey({ kind: "oauth", issuer: "x", subject: "y", scopes: ["read", "write"] }),
    );
    expect(credentialKey({ kind: "oauth", issuer: "x", subject: "y", scopes: [] })).not.toBe(
      credentialKey({ kind: "oauth", issuer: "x", subject: "z", scopes: [] }),
    );
  });
});

describe("a public cache scope on a list that varies by credential", () => {
  const reader = { kind: "secret" as const, names: ["READER"] };
  const admin = { kind: "secret" as const, names: ["ADMIN"] };
  test("is a finding naming the list and both credentials", () => {
    const findings = sharedCacheFindings(
      [
        {
          credential: reader,
          keys: { tools: ["forecast"] },
          cacheHints: { tools: { cacheScope: "public" } },
        },
        { credential: admin, keys: { tools: ["forecast", "delete_city"] } },
      ],
      ["tools", "prompts"],
    );
    expect(findings.map((f) => f.message)).toEqual([
      'tools differs between secret READER and secret ADMIN, yet the server declared it cacheScope "public" under secret READER: a shared cache may serve one credential\'s tools to the other',
    ]);
  });
  test("is not a finding when the lists agree or the scope is private", () => {
    const hints = { tools: { cacheScope: "public" } };
    expect(
      sharedCacheFindings(
        [
          { credential: reader, keys: { tools: ["a"] }, cacheHints: hints },
          { credential: admin, keys: { tools: ["a"] }, cacheHints: hints },
        ],
        ["tools"],
      ),
    ).toEqual([]);
    expect(
      sharedCacheFindings(
        [
          {
            credential: reader,
            keys: { tools: ["a"] },
            cacheHints: { tools: { cacheScope: "private" } },
          },
          { credential: admin, keys: { tools: ["a", "b"] } },
        ],
        ["tools"],
      ),
    ).toEqual([]);
  });
});
