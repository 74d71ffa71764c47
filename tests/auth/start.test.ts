/**
 * Starting the workbench: a RELAY_REVIEW_TOKEN too short stops `node scripts/start.mjs` with the
 * reason (exit 1, nothing spawned) instead of a server that answers every request with 500; the
 * owner token is printed only by the start that generated it.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { signInLines } from "@/lib/auth/startup";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const TOKEN = "a-generated-owner-token-0123456789abcdefghij";

describe("start", () => {
  test("a RELAY_REVIEW_TOKEN shorter than 32 characters stops the start with the message", async () => {
    const failure = await run(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      env: { ...process.env, RELAY_REVIEW_TOKEN: "too-short-token", PORT: "1" },
      timeout: 30_000,
    }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain(
      "RELAY_REVIEW_TOKEN must be at least 32 characters with no spaces (it has 15)",
    );
    expect(failure?.stderr).not.toContain("too-short-token");
  });

  test("the sign-in link carries the token only on the start that generated it", () => {
    const generated = signInLines("127.0.0.1", "3000", {
      token: TOKEN,
      source: "generated",
      file: "/data/owner-token",
    });
    expect(generated.join("\n")).toContain(`http://127.0.0.1:3000/sign-in#token=${TOKEN}`);
    for (const owner of [
      { token: TOKEN, source: "file" as const, file: "/data/owner-token" },
      { token: TOKEN, source: "env" as const, file: null },
    ]) {
      const lines = signInLines("127.0.0.1", "3000", owner).join("\n");
      expect(lines).not.toContain(TOKEN);
      expect(lines).toContain("http://127.0.0.1:3000/sign-in with");
      expect(lines).toContain(owner.source === "env" ? "RELAY_REVIEW_TOKEN" : "/data/owner-token");
    }
  });
});
