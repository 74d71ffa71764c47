import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { SESSION_PROOF_HEADER } from "@/lib/auth/session";
import {
  SESSION_PROOF_CACHE,
  SESSION_PROOF_HEADER_NAME,
  SESSION_PROOF_KEY,
  SESSION_WORKER_PATH,
} from "@/lib/auth/session-origin";
import { isExemptPath } from "@/lib/auth/check";

const worker = readFileSync(path.join(process.cwd(), "public", SESSION_WORKER_PATH), "utf8");

describe("the session worker and the app agree", () => {
  test("on the header, the cache and the key the proof is kept under", () => {
    expect(SESSION_PROOF_HEADER_NAME).toBe(SESSION_PROOF_HEADER);
    expect(worker).toContain(`const SESSION_PROOF_HEADER_NAME = "${SESSION_PROOF_HEADER_NAME}";`);
    expect(worker).toContain(`const SESSION_PROOF_CACHE = "${SESSION_PROOF_CACHE}";`);
    expect(worker).toContain(`const SESSION_PROOF_KEY = "${SESSION_PROOF_KEY}";`);
  });

  test("the worker leaves alone only paths the proxy serves to anyone", () => {
    const list = /const PUBLIC_PREFIXES = (\[[^\]]*\]);/.exec(worker)?.[1];
    const prefixes = JSON.parse(list ?? "null") as string[];
    expect(prefixes.length).toBeGreaterThan(0);
    for (const prefix of prefixes)
      expect(isExemptPath(prefix) || isExemptPath(`${prefix}x.js`), prefix).toBe(true);
    expect(isExemptPath("/api/reviews")).toBe(false);
  });

  test("the worker's script is served without a session (it holds no secret)", () => {
    expect(isExemptPath(SESSION_WORKER_PATH)).toBe(true);
    expect(worker).not.toMatch(/[A-Za-z0-9_-]{40,}/);
  });
});
