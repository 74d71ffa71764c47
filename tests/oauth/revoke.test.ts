/**
 * The provider's RFC 7009 revocation (lib/mcp/oauth/provider.ts `revoke`) against the demo
 * authorization server (the SDK's mcpAuthRouter): the request goes through the flow's fetch, so
 * the egress guard refuses a revocation endpoint outside the allowlist exactly as it refuses a
 * token endpoint, and the outcome says so; allowed, both tokens are revoked. No token reaches an
 * event or the outcome.
 */
import { randomUUID } from "node:crypto";
import { afterEach, expect, test } from "vitest";
import { streamableHttpOpener } from "@/lib/mcp/http";
import type { EgressGuard } from "@/lib/mcp/types";
import type { OAuthEvent } from "@/lib/mcp/oauth/interface";
import { MemoryOAuthStorage } from "@/lib/mcp/oauth/memory-storage";
import { completeAuthorization, createOAuthProvider } from "@/lib/mcp/oauth/provider";
import { inspectWithOpeners } from "@/lib/mcp/session";
import { startOAuthDemo, type OAuthDemo } from "@/servers/knowledge-mcp-oauth";

const REDIRECT_URL = "http://127.0.0.1:9/callback";
let demo: OAuthDemo | null = null;
afterEach(async () => {
  await demo?.close();
  demo = null;
});

/** Connect a provider to the demo (consent answered over HTTP) with `egress` in force throughout. */
async function connected(egress: EgressGuard | null) {
  demo = await startOAuthDemo({ port: 0, authPort: 0 });
  const d = demo;
  const storage = new MemoryOAuthStorage();
  const events: OAuthEvent[] = [];
  const client = createOAuthProvider({
    serverUrl: d.mcpUrl,
    storage,
    grant: "authorization_code",
    redirect: {
      redirectUrl: REDIRECT_URL,
      newState: () => Promise.resolve(randomUUID()),
      redirect: () => Promise.resolve(),
    },
    egress,
    onEvent: (e) => events.push(e),
  });
  const inspect = () =>
    inspectWithOpeners([streamableHttpOpener(d.mcpUrl, { auth: client })], {
      limits: { settleQuietMs: 0 },
    });
  expect((await inspect()).ok).toBe(false);
  const pending = client.pendingAuthorization()!;
  const html = await (await fetch(pending.authorizationUrl)).text();
  const form = new URLSearchParams({
    pending: /name="pending" value="([^"]+)"/.exec(html)![1]!,
    scope: "knowledge:read",
    decision: "approve",
  });
  const answer = await fetch(new URL("/consent", pending.authorizationUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  const params = new URL(answer.headers.get("location")!).searchParams;
  const state = params.get("state")!;
  const done = await completeAuthorization(client, {
    code: params.get("code")!,
    state,
    codeVerifier: storage.takeCodeVerifier(state)!,
    iss: params.get("iss"),
  });
  expect(done.ok).toBe(true);
  expect((await inspect()).ok).toBe(true);
  return { client, events, demo: d };
}

test("allowed by the egress guard: both tokens revoked through the flow's fetch, step token_revocation", async () => {
  const { client, events, demo: d } = await connected(() => Promise.resolve(null));
  const outcome = await client.revoke();
  expect(outcome).toEqual({
    endpoint: `${d.issuer}revoke`,
    revoked: ["refresh_token", "access_token"],
    notRevoked: [],
  });
  expect(d.provider.revocations()).toBe(2);
  expect(events.filter((e) => e.type === "fetch" && e.step === "token_revocation")).toHaveLength(2);
  const text = JSON.stringify([outcome, events]);
  for (const t of d.provider.issuedTokens()) expect(text).not.toContain(t);
});

test("a revocation endpoint the egress guard refuses is not contacted, and the outcome says why", async () => {
  let asked = 0;
  const guard: EgressGuard = (url) => {
    if (url.pathname !== "/revoke") return Promise.resolve(null);
    asked++;
    return Promise.resolve(`egress refused: ${url.host}/revoke is outside the allowlist`);
  };
  const { client, demo: d } = await connected(guard);
  const outcome = await client.revoke();
  expect(outcome.revoked).toEqual([]);
  expect(outcome.notRevoked.map((n) => n.token)).toEqual(["refresh_token", "access_token"]);
  for (const n of outcome.notRevoked)
    expect(n.reason).toMatch(/^egress refused: 127\.0\.0\.2:\d+\/revoke is outside the allowlist$/);
  expect(d.provider.revocations()).toBe(0);
  // Refused once, the access token is not tried again against the same endpoint.
  expect(asked).toBe(1);
  expect(client.lastError()?.step).toBe("token_revocation");
});
