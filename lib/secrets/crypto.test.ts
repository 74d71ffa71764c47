import { describe, expect, test } from "vitest";
import {
  newSecretKey,
  openSecret,
  parseSecretKey,
  sealSecret,
  secretKeyId,
} from "@/lib/secrets/crypto";

const key = newSecretKey();
const value = "glpat-crypto-test-value-0001";

describe("sealSecret / openSecret", () => {
  test("round trip, and the stored parts do not hold the value", () => {
    const sealed = sealSecret(key, "GITLAB_TOKEN", value);
    expect(openSecret(key, "GITLAB_TOKEN", sealed)).toBe(value);
    expect(JSON.stringify(sealed)).not.toContain(value);
    expect(Buffer.from(sealed.sealed, "base64").toString("latin1")).not.toContain("glpat");
    expect(Buffer.from(sealed.nonce, "base64")).toHaveLength(12);
    expect(sealed.keyId).toBe(secretKeyId(key));
  });

  test("a fresh nonce per value: the same value sealed twice differs", () => {
    const a = sealSecret(key, "N", value);
    const b = sealSecret(key, "N", value);
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.sealed).not.toBe(b.sealed);
  });

  const flip = (b64: string, at: number) => {
    const b = Buffer.from(b64, "base64");
    b[(at + b.length) % b.length]! ^= 1;
    return b.toString("base64");
  };
  const sealed = sealSecret(key, "GITLAB_TOKEN", value);
  test.each([
    ["another key", () => openSecret(newSecretKey(), "GITLAB_TOKEN", sealed)],
    ["another name (the name is associated data)", () => openSecret(key, "OTHER_TOKEN", sealed)],
    [
      "a flipped ciphertext bit",
      () => openSecret(key, "GITLAB_TOKEN", { ...sealed, sealed: flip(sealed.sealed, 0) }),
    ],
    [
      "a flipped tag bit",
      () => openSecret(key, "GITLAB_TOKEN", { ...sealed, sealed: flip(sealed.sealed, -1) }),
    ],
    [
      "a flipped nonce bit",
      () => openSecret(key, "GITLAB_TOKEN", { ...sealed, nonce: flip(sealed.nonce, 3) }),
    ],
    ["a truncated body", () => openSecret(key, "GITLAB_TOKEN", { ...sealed, sealed: "AAAA" })],
  ])("does not open with %s", (_label, open) => {
    expect(open()).toBeNull();
  });

  test("a key of the wrong length is refused", () => {
    expect(() => sealSecret(Buffer.alloc(16), "N", "v")).toThrow(/32 bytes/);
  });
});

describe("parseSecretKey", () => {
  test.each([
    [key.toString("base64"), true],
    [`  ${key.toString("base64")}\n`, true],
    [Buffer.alloc(16).toString("base64"), false],
    ["not base64!", false],
    ["", false],
  ])("%j → ok %s", (text, ok) => {
    const r = parseSecretKey(text, "RELAY_REVIEW_SECRET_KEY");
    expect(r.ok).toBe(ok);
    if (!r.ok) expect(r.message).toMatch(/^RELAY_REVIEW_SECRET_KEY .*openssl rand -base64 32/);
  });
});
