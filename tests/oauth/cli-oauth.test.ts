/**
 * `relay-review inspect --url` against a real OAuth-protected server (tests/support/oauth-fixture.ts),
 * as a child process: the interactive flow (the URL printed, approved through the loopback
 * redirect, never a browser), the client-credentials mode with the secret named by variable, and
 * neither a token, a code nor a secret in anything the command prints. Also the loopback redirect
 * on its own: an unknown or replayed state is refused.
 */
import { spawn } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { startLoopbackRedirect } from "@/lib/mcp/node/oauth-loopback";
import { BIN, ROOT } from "@/tests/support/cli";
import { startOAuthFixture, type OAuthFixture } from "@/tests/support/oauth-fixture";

let fx: OAuthFixture | null = null;
afterEach(async () => {
  await fx?.close();
  fx = null;
});

/** Run the CLI; `onStderrLine` sees each stderr line as it arrives. */
function run(
  args: string[],
  env: Record<string, string>,
  onStderrLine: (line: string) => void = () => {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    let partial = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      partial += d.toString();
      const lines = partial.split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) onStderrLine(line);
    });
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

// Each test starts the CLI one to three times; a loaded machine takes its time.
describe("relay-review inspect --url with OAuth", { timeout: 120_000 }, () => {
  test("interactive: prints the authorization URL, takes the redirect on loopback, inspects", async () => {
    fx = await startOAuthFixture({ scopesSupported: ["mcp:read"] });
    const fixture = fx;
    const codes: string[] = [];
    const result = await run(["inspect", "--json", "--url", fixture.mcpUrl], {}, (line) => {
      const m = /authorize at: (\S+)/.exec(line);
      if (!m) return;
      void (async () => {
        // The person at the browser: approve, and the browser follows the redirect to the CLI.
        const res = await fetch(m[1]!, { redirect: "manual" });
        const back = res.headers.get("location")!;
        codes.push(new URL(back).searchParams.get("code")!);
        await fetch(back);
      })();
    });
    expect(result.code).toBe(0);
    const out = JSON.parse(result.stdout) as {
      snapshot: { tools: { name: string }[] };
      authorization: { scopes: string[] };
    };
    expect(out.snapshot.tools.map((t) => t.name)).toEqual(["whoami"]);
    expect(out.authorization.scopes).toEqual(["mcp:read"]);
    expect(result.stderr).toMatch(/open this URL in a browser/);
    const secrets = [
      ...codes,
      ...fixture.issued.flatMap((i) => [i.accessToken, i.refreshToken ?? "none-none"]),
    ];
    for (const s of secrets) expect(result.stdout + result.stderr).not.toContain(s);
  });

  test("client credentials for CI: the secret by variable name, never printed", async () => {
    fx = await startOAuthFixture({ client: { id: "ci-bot", secret: "ci-bot-secret-0123456789" } });
    const result = await run(
      [
        "inspect",
        "--json",
        "--issuer",
        fx.base,
        "--client-credentials",
        "--client-id",
        "ci-bot",
        "--client-secret-env",
        "CI_BOT_SECRET",
        "--url",
        fx.mcpUrl,
      ],
      { CI_BOT_SECRET: "ci-bot-secret-0123456789" },
    );
    expect(result.code).toBe(0);
    expect(fx.issued.map((i) => i.grant)).toEqual(["client_credentials"]);
    expect(fx.requests.some((r) => r.path === "/authorize")).toBe(false);
    for (const s of ["ci-bot-secret-0123456789", fx.issued[0]!.accessToken])
      expect(result.stdout + result.stderr).not.toContain(s);
    const missing = await run(
      ["inspect", "--client-credentials", "--client-secret-env", "NOPE_UNSET", "--url", fx.mcpUrl],
      {},
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/NOPE_UNSET: the variable is not set/);
    expect(missing.stderr).toMatch(/--client-credentials needs --client-id/);
  });
});

describe("loopback redirect", () => {
  test("accepts a state it made, once; refuses anything else", async () => {
    const urls: string[] = [];
    const loopback = await startLoopbackRedirect({ onAuthorizationUrl: (u) => urls.push(u.href) });
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const state = await loopback.newState();
      await loopback.redirect(new URL("https://as.example/authorize"), state);
      expect(urls).toEqual(["https://as.example/authorize"]);
      const forged = await fetch(`${loopback.redirectUrl}?code=c&state=forged`);
      expect(forged.status).toBe(400);
      const waiting = loopback.waitForCallback(state, 5_000);
      const ok = await fetch(`${loopback.redirectUrl}?code=the-code&state=${state}`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).not.toContain("the-code");
      await expect(waiting).resolves.toMatchObject({ code: "the-code", state });
      const replay = await fetch(`${loopback.redirectUrl}?code=the-code&state=${state}`);
      expect(replay.status).toBe(400);
      await expect(loopback.waitForCallback("other", 50)).rejects.toThrow(
        /no authorization arrived/,
      );
    } finally {
      await loopback.close();
    }
  });
});
