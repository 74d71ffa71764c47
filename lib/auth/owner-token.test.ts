import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { buildAuthConfig, OWNER_TOKEN_FILE, resolveOwnerToken } from "@/lib/auth/owner-token";

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "relay-review-token-"));
  dirs.push(d);
  return d;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("owner token", () => {
  test("generated once, ≥32 random bytes base64url, mode 0600, then reused", () => {
    const dir = path.join(tmp(), "data");
    const first = resolveOwnerToken({}, dir);
    expect(first.source).toBe("generated");
    expect(first.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, OWNER_TOKEN_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = resolveOwnerToken({}, dir);
    expect(again).toEqual({ token: first.token, source: "file", file });
    expect(resolveOwnerToken({}, path.join(tmp(), "other")).token).not.toBe(first.token);
  });

  test("RELAY_REVIEW_TOKEN wins and writes nothing; a short one is refused", () => {
    const dir = tmp();
    const token = "t".repeat(40);
    expect(resolveOwnerToken({ RELAY_REVIEW_TOKEN: token }, dir)).toEqual({
      token,
      source: "env",
      file: null,
    });
    expect(fs.existsSync(path.join(dir, OWNER_TOKEN_FILE))).toBe(false);
    expect(() => resolveOwnerToken({ RELAY_REVIEW_TOKEN: "short" }, dir)).toThrow(/at least 32/);
  });

  test("a token file readable by others is tightened to 0600", () => {
    const dir = tmp();
    const file = path.join(dir, OWNER_TOKEN_FILE);
    fs.writeFileSync(file, `${"k".repeat(43)}\n`, { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    expect(resolveOwnerToken({}, dir).token).toBe("k".repeat(43));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  test("config: allowed hosts follow PORT and RELAY_REVIEW_ALLOWED_HOSTS", () => {
    const cfg = buildAuthConfig({
      RELAY_REVIEW_DATA: tmp(),
      PORT: "3100",
      RELAY_REVIEW_ALLOWED_HOSTS: "Review.Internal",
    });
    expect(cfg.allowedHosts).toEqual([
      "127.0.0.1:3100",
      "localhost:3100",
      "[::1]:3100",
      "review.internal",
    ]);
  });
});
