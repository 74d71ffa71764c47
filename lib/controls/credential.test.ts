import { describe, expect, it, test } from "vitest";
import { createDemoReview } from "@/lib/review/demo";
import { CredentialConfigSchema } from "@/lib/review/schema";
import { classifyScope, evaluateCredential } from "./credential";

const seed = createDemoReview().controls.credentials[0]!;
const kinds = (overrides: Record<string, unknown>) =>
  evaluateCredential(CredentialConfigSchema.parse({ ...seed, ...overrides }), 0).findings.map(
    (f) => f.kind,
  );

describe("[control:credential] the scoped credential", () => {
  it("the seed's token holds: read-only scopes, named projects without SEC, a service identity, 30 days, rotated", () => {
    const e = evaluateCredential(seed, 0);
    expect(e.status).toBe("holds");
    expect(e.cutsPath).toBe(false);
    expect(e.sitsAt).toBe("server_credential");
    expect(e.residue).toBe("everything the server legitimately reads");
  });

  test.each([
    ["write:issue", { scopes: [...seed.scopes, "write:issue"] }, "credential.scope_write"],
    ["write:*", { scopes: ["write:*"] }, "credential.scope_write"],
    ["admin", { scopes: ["admin"] }, "credential.scope_admin"],
    ["admin:org", { scopes: ["read:issue", "admin:org"] }, "credential.scope_admin"],
    ["a non-read scope", { scopes: ["repo"] }, "credential.scope_not_read_only"],
    ["read:*", { scopes: ["read:*"] }, "credential.scope_wildcard"],
    ["read:user", { scopes: [...seed.scopes, "read:user"] }, "credential.scope_private_read"],
    ["the sensitive project SEC", { projects: ["PAY", "SEC"] }, "credential.sensitive_project"],
    ["no named projects", { projects: [] }, "credential.no_projects"],
    ["a person's token", { identity: "person" }, "credential.person_identity"],
    ["no expiry", { ttlDays: null }, "credential.no_expiry"],
    ["a year-long TTL", { ttlDays: 365 }, "credential.long_ttl"],
    ["no rotation", { rotation: null }, "credential.no_rotation"],
  ])("%s is a finding", (_name, overrides, kind) => {
    expect(kinds(overrides)).toContain(kind);
    expect(
      evaluateCredential(CredentialConfigSchema.parse({ ...seed, ...overrides }), 0).status,
    ).toBe("fails");
  });

  it("every finding names the configuration field it comes from", () => {
    const e = evaluateCredential(
      CredentialConfigSchema.parse({ ...seed, scopes: ["read:issue", "write:issue"] }),
      3,
    );
    expect(e.findings[0]?.why.config).toEqual([
      { path: "controls.credentials.3.scopes.1", value: "write:issue" },
    ]);
  });

  test.each([
    ["read:issue", "read_only"],
    ["READ:Comment", "read_only"],
    ["write:issue", "write"],
    ["issues:write", "write"],
    ["read:user", "private_read"],
    ["*", "wildcard"],
  ])("classifyScope(%s) = %s", (scope, verdict) => {
    expect(classifyScope(scope).verdict).toBe(verdict);
  });
});
