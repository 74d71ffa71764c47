/**
 * Issue 28, finding 5: a static credential of the organisation (a client-credentials secret or
 * key, a pre-registered client's secret, a refresh token) is presented only to the authorization
 * server the operator named with --issuer. The real CLI against a hostile loopback MCP server
 * that names its own authorization server (tests/support/oauth-fixture.ts), which records every
 * request: without --issuer the CLI stops with a usage error naming the flag before sending
 * anything; with another --issuer, or metadata whose issuer is not it, the secret never arrives.
 */
import { afterEach, describe, expect, test } from "vitest";
import { runCli } from "@/tests/support/cli";
import { startOAuthFixture, type OAuthFixture } from "@/tests/support/oauth-fixture";

const SECRET = "org-secret-0123456789abcdef";
const REFRESH = "rt-org-refresh-0123456789";
/** A PEM the CLI would sign client assertions with; its text must never reach the server either. */
const KEY =
  "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----";

let fx: OAuthFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

/** Whether the hostile server saw the secret in any request (body, query or Authorization). */
function received(fixture: OAuthFixture, secret: string): boolean {
  return fixture.requests.some((r) => {
    const basic = r.authorization?.startsWith("Basic ")
      ? Buffer.from(r.authorization.slice(6), "base64").toString()
      : "";
    return [JSON.stringify(r.body), JSON.stringify(r.query), r.authorization ?? "", basic].some(
      (s) => s.includes(secret) || s.includes(encodeURIComponent(secret)),
    );
  });
}

const ENV = { ...process.env, ORG_SECRET: SECRET, ORG_REFRESH: REFRESH, ORG_KEY: KEY };
const MODES: [string, string[]][] = [
  [
    "--client-credentials with a secret",
    ["--client-credentials", "--client-id", "ci-bot", "--client-secret-env", "ORG_SECRET"],
  ],
  [
    "--client-credentials with a key",
    ["--client-credentials", "--client-id", "ci-bot", "--client-key-env", "ORG_KEY"],
  ],
  [
    "a pre-registered client's secret",
    ["--client-id", "ci-bot", "--client-secret-env", "ORG_SECRET"],
  ],
  ["--refresh-token-env", ["--refresh-token-env", "ORG_REFRESH", "--client-id", "ci-bot"]],
];

describe(
  "static credentials go only to the authorization server the operator named",
  { timeout: 120_000 },
  () => {
    test.each(MODES)(
      "%s without --issuer: a usage error naming --issuer, and no request at all",
      async (_, flags) => {
        fx = await startOAuthFixture({ client: { id: "ci-bot", secret: SECRET } });
        for (const command of ["inspect", "verify"]) {
          const r = await runCli([command, ...flags, "--url", fx.mcpUrl], ENV);
          expect(r.code, r.stderr).toBe(2);
          expect(r.stderr).toContain("--issuer");
        }
        expect(fx.requests).toEqual([]);
      },
    );

    test("another --issuer than the server names: refused, the secret never sent", async () => {
      fx = await startOAuthFixture({ client: { id: "ci-bot", secret: SECRET } });
      const r = await runCli(
        ["inspect", ...MODES[0]![1], "--issuer", "https://sso.corp.example", "--url", fx.mcpUrl],
        ENV,
      );
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain("credentials are for https://sso.corp.example");
      expect(fx.requests.some((q) => q.path === "/token")).toBe(false);
      expect(received(fx, SECRET)).toBe(false);
    });

    test("metadata whose issuer is not --issuer: refused, the secret never sent", async () => {
      fx = await startOAuthFixture({
        client: { id: "ci-bot", secret: SECRET },
        metadata: (md) => ({ ...md, issuer: "https://evil.example" }),
      });
      const r = await runCli(
        ["inspect", ...MODES[0]![1], "--issuer", fx.base, "--url", fx.mcpUrl],
        ENV,
      );
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/issuer/);
      expect(received(fx, SECRET)).toBe(false);
    });

    test("with the operator's --issuer, the grant works as before", async () => {
      fx = await startOAuthFixture({ client: { id: "ci-bot", secret: SECRET } });
      const r = await runCli(
        ["inspect", "--json", ...MODES[0]![1], "--issuer", fx.base, "--url", fx.mcpUrl],
        ENV,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(fx.issued.map((i) => i.grant)).toEqual(["client_credentials"]);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    });
  },
);
