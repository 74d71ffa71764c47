import { describe, expect, test } from "vitest";
import {
  clearSessionCookieHeader,
  constantTimeEqual,
  createSessionValue,
  readCookie,
  sessionCookieHeader,
  SESSION_TTL_SECONDS,
  verifySessionValue,
} from "@/lib/auth/session";

const TOKEN = "owner-token-for-unit-tests-0123456789abcdef";
const NOW = 1_780_000_000_000;

describe("session cookie", () => {
  test("verifies until it expires, under the same token only", () => {
    const v = createSessionValue(TOKEN, NOW);
    expect(verifySessionValue(v, TOKEN, NOW)).toEqual({ ok: true, expiresAt: Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECONDS * 1000 });
    expect(verifySessionValue(v, TOKEN, NOW + SESSION_TTL_SECONDS * 1000 + 1000)).toEqual({ ok: false, reason: "expired" });
    expect(verifySessionValue(v, `${TOKEN}x`, NOW)).toEqual({ ok: false, reason: "bad_signature" });
  });

  test("two instances with the same token accept each other's cookies (stateless)", () => {
    expect(verifySessionValue(createSessionValue(TOKEN, NOW), TOKEN, NOW + 1000).ok).toBe(true);
  });

  test.each(["", "v1", "v1.1.a", "v2.1.a.b", "v1.x.a.b", `v1.${"9".repeat(13)}.a.b`])("malformed %j", (v) => {
    expect(verifySessionValue(v, TOKEN, NOW)).toEqual({ ok: false, reason: "malformed" });
  });

  test("extending the expiry breaks the signature", () => {
    const [ver, , nonce, mac] = createSessionValue(TOKEN, NOW).split(".");
    expect(verifySessionValue(`${ver}.9999999999.${nonce}.${mac}`, TOKEN, NOW)).toEqual({ ok: false, reason: "bad_signature" });
  });

  test("cookie attributes", () => {
    const h = sessionCookieHeader("abc", { secure: false });
    expect(h).toBe(`relay_review_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_SECONDS}`);
    expect(sessionCookieHeader("abc", { secure: true })).toMatch(/; Secure$/);
    expect(clearSessionCookieHeader({ secure: false })).toMatch(/^relay_review_session=; .*Max-Age=0$/);
  });

  test("readCookie and constantTimeEqual", () => {
    expect(readCookie("a=1; relay_review_session=v1.2.3.4; b=2", "relay_review_session")).toBe("v1.2.3.4");
    expect(readCookie("xrelay_review_session=1", "relay_review_session")).toBeNull();
    expect(readCookie(null, "a")).toBeNull();
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
});
