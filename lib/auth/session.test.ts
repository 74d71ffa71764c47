import { describe, expect, test } from "vitest";
import {
  clearSessionCookieHeader,
  constantTimeEqual,
  createSessionValue,
  readCookie,
  readSessionCookie,
  sessionCookieHeader,
  SESSION_TTL_SECONDS,
  verifySessionValue,
} from "@/lib/auth/session";

const TOKEN = "owner-token-for-unit-tests-0123456789abcdef";
const NOW = 1_780_000_000_000;

describe("session cookie", () => {
  test("verifies until it expires, under the same token only", () => {
    const v = createSessionValue(TOKEN, NOW);
    expect(verifySessionValue(v, TOKEN, NOW)).toEqual({
      ok: true,
      expiresAt: Math.floor(NOW / 1000) * 1000 + SESSION_TTL_SECONDS * 1000,
    });
    expect(verifySessionValue(v, TOKEN, NOW + SESSION_TTL_SECONDS * 1000 + 1000)).toEqual({
      ok: false,
      reason: "expired",
    });
    expect(verifySessionValue(v, `${TOKEN}x`, NOW)).toEqual({ ok: false, reason: "bad_signature" });
  });

  test("two instances with the same token accept each other's cookies (stateless)", () => {
    expect(verifySessionValue(createSessionValue(TOKEN, NOW), TOKEN, NOW + 1000).ok).toBe(true);
  });

  test.each([
    "",
    "v1",
    "v1.1.a",
    "v2.1.a.b",
    "v1.x.a.b",
    `v1.${"9".repeat(13)}.a.b`,
    "v2.0.1.a",
    `v2.0.${"9".repeat(13)}.a.b`,
    "v2.a b.1.a.b",
    "v3.0.1.a.b",
  ])("malformed %j", (v) => {
    expect(verifySessionValue(v, TOKEN, NOW)).toEqual({ ok: false, reason: "malformed" });
  });

  test("extending the expiry breaks the signature", () => {
    const [ver, epoch, , nonce, mac] = createSessionValue(TOKEN, NOW).split(".");
    expect(verifySessionValue(`${ver}.${epoch}.9999999999.${nonce}.${mac}`, TOKEN, NOW)).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  test("a cookie of an earlier session epoch is revoked (sign out everywhere); its epoch cannot be rewritten", () => {
    const v = createSessionValue(TOKEN, NOW, SESSION_TTL_SECONDS, "0");
    expect(verifySessionValue(v, TOKEN, NOW, "0").ok).toBe(true);
    expect(verifySessionValue(v, TOKEN, NOW, "k3Jq9xYb")).toEqual({ ok: false, reason: "revoked" });
    const [ver, , expiry, nonce, mac] = v.split(".");
    expect(
      verifySessionValue(`${ver}.k3Jq9xYb.${expiry}.${nonce}.${mac}`, TOKEN, NOW, "k3Jq9xYb"),
    ).toEqual({ ok: false, reason: "bad_signature" });
    expect(
      verifySessionValue(
        createSessionValue(TOKEN, NOW, SESSION_TTL_SECONDS, "k3Jq9xYb"),
        TOKEN,
        NOW,
        "k3Jq9xYb",
      ).ok,
    ).toBe(true);
  });

  test("the lifetime is 12 hours", () => {
    expect(SESSION_TTL_SECONDS).toBe(12 * 60 * 60);
    expect(
      verifySessionValue(createSessionValue(TOKEN, NOW), TOKEN, NOW + 13 * 3600 * 1000),
    ).toEqual({ ok: false, reason: "expired" });
  });

  test("cookie attributes", () => {
    const h = sessionCookieHeader("abc", { secure: false });
    expect(h).toBe(
      `relay_review_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_SECONDS}`,
    );
    // Over https: __Host- (the browser then requires Secure and Path=/, and refuses a Domain).
    const secure = sessionCookieHeader("abc", { secure: true });
    expect(secure).toBe(
      `__Host-relay_review_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_TTL_SECONDS}; Secure`,
    );
    expect(secure).not.toMatch(/Domain=/i);
    expect(clearSessionCookieHeader({ secure: true })).toMatch(
      /^__Host-relay_review_session=; .*Max-Age=0; Secure$/,
    );
    expect(clearSessionCookieHeader({ secure: false })).toMatch(
      /^relay_review_session=; .*Max-Age=0$/,
    );
  });

  test("readCookie and constantTimeEqual", () => {
    expect(readCookie("a=1; relay_review_session=v1.2.3.4; b=2", "relay_review_session")).toBe(
      "v1.2.3.4",
    );
    expect(readCookie("xrelay_review_session=1", "relay_review_session")).toBeNull();
    expect(readCookie(null, "a")).toBeNull();
    expect(readSessionCookie("relay_review_session=plain; __Host-relay_review_session=host")).toBe(
      "host",
    );
    expect(readSessionCookie("relay_review_session=plain")).toBe("plain");
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
});
