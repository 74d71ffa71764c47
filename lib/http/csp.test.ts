import { describe, expect, test } from "vitest";
import { contentSecurityPolicy, newNonce } from "@/lib/http/csp";

describe("contentSecurityPolicy", () => {
  test("strict: nonce-only scripts, no eval outside next dev, no plugins, no base, no framing", () => {
    const nonce = newNonce();
    const csp = contentSecurityPolicy(nonce);
    expect(csp).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`);
    expect(csp).not.toContain("unsafe-eval");
    for (const d of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "worker-src 'self' blob:",
    ])
      expect(csp).toContain(d);
    expect(contentSecurityPolicy(nonce, { dev: true })).toContain("'unsafe-eval'");
  });

  test("a nonce is 16 random bytes, new every time", () => {
    const a = newNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(newNonce()).not.toBe(a);
  });
});
