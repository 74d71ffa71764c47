/**
 * The OAuth client against a real protected MCP server and authorization server on loopback
 * (tests/support/oauth-fixture.ts), through the one upstream session: the authorization-code
 * flow with PKCE and resource indicators, scope selection and step-up, refresh (early and on a
 * 401), client credentials, pre-registered and metadata-document clients; each refusal with the
 * step it names; and no token, code, verifier or secret in anything a caller may log or store.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { streamableHttpOpener } from "@/lib/mcp/http";
import {
  OAuthStepError,
  type AuthorizationRedirect,
  type OAuthEvent,
  type OAuthProviderOptions,
} from "@/lib/mcp/oauth/interface";
import { MemoryOAuthStorage } from "@/lib/mcp/oauth/memory-storage";
import { completeAuthorization, createOAuthProvider } from "@/lib/mcp/oauth/provider";
import { inspectWithOpeners, openUpstreamSession } from "@/lib/mcp/session";
import type { InspectResult } from "@/lib/mcp/types";
import {
  startOAuthFixture,
  type OAuthFixture,
  type OAuthFixtureOptions,
} from "@/tests/support/oauth-fixture";

const REDIRECT_URL = "http://127.0.0.1:9/callback";
let fixtures: OAuthFixture[] = [];
afterEach(async () => {
  await Promise.all(fixtures.map((f) => f.close()));
  fixtures = [];
});

async function fixture(options: OAuthFixtureOptions = {}): Promise<OAuthFixture> {
  const f = await startOAuthFixture(options);
  fixtures.push(f);
  return f;
}

function setup(fx: OAuthFixture, options: Partial<OAuthProviderOptions> = {}) {
  const storage = new MemoryOAuthStorage();
  const events: OAuthEvent[] = [];
  const redirects: string[] = [];
  const redirect: AuthorizationRedirect = {
    redirectUrl: REDIRECT_URL,
    newState: () => Promise.resolve(randomUUID()),
    redirect: (url) => {
      redirects.push(url.href);
      return Promise.resolve();
    },
  };
  const client = createOAuthProvider({
    serverUrl: fx.mcpUrl,
    storage,
    grant: "authorization_code",
    redirect,
    onEvent: (e) => events.push(e),
    ...options,
  });
  const inspect = (): Promise<InspectResult> =>
    inspectWithOpeners([streamableHttpOpener(fx.mcpUrl, { auth: client })], {
      limits: { settleQuietMs: 0 },
    });
  /** Approve the pending authorization as the user would and exchange the code. */
  const approve = async () => {
    const pending = client.pendingAuthorization();
    if (!pending) throw new Error("no pending authorization");
    const params = await fx.approve(pending.authorizationUrl);
    const state = params.get("state")!;
    const verifier = storage.takeCodeVerifier(state);
    if (!verifier) throw new Error("no verifier for the state");
    return completeAuthorization(client, {
      code: params.get("code")!,
      state,
      codeVerifier: verifier,
      iss: params.get("iss"),
      requestedScope: new URL(pending.authorizationUrl).searchParams.get("scope"),
    });
  };
  return { storage, events, redirects, client, inspect, approve };
}

/** Inspect; when the server wants consent, approve and inspect again (at most `rounds` times). */
async function inspectAuthorizing(s: ReturnType<typeof setup>, rounds = 3) {
  let result = await s.inspect();
  for (let i = 0; i < rounds && !result.ok && s.client.pendingAuthorization(); i++) {
    const done = await s.approve();
    if (!done.ok) throw done.error;
    result = await s.inspect();
  }
  return result;
}

function unauthorized(result: InspectResult) {
  expect(result.ok).toBe(false);
  if (result.ok) throw new Error("unreachable");
  expect(result.error.code).toBe("unauthorized");
  return result.error;
}

describe("authorization code with PKCE", () => {
  test("401 → consent → code exchange → the surface, with the granted scopes recorded", async () => {
    const fx = await fixture({ scopesSupported: ["mcp:read", "mcp:tools"] });
    const s = setup(fx);
    const first = unauthorized(await s.inspect());
    expect(first.oauthStep).toBe("authorization_request");
    const url = new URL(s.client.pendingAuthorization()!.authorizationUrl);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("resource")).toBe(fx.mcpUrl);
    // No challenge scope: every scope the resource metadata lists.
    expect(url.searchParams.get("scope")).toBe("mcp:read mcp:tools");
    expect(s.redirects).toEqual([url.href]);
    const done = await s.approve();
    expect(done.ok).toBe(true);
    const result = await s.inspect();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.snapshot.tools.map((t) => t.name)).toEqual(["whoami"]);
    expect(result.authorization).toMatchObject({
      issuer: expect.stringContaining(fx.base) as unknown,
      scopes: ["mcp:read", "mcp:tools"],
      scopeSource: "response",
    });
    const token = fx.requests.find((r) => r.path === "/token")!;
    expect(token.body).toMatchObject({ grant_type: "authorization_code", resource: fx.mcpUrl });
    expect(token.body.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    // Registered dynamically as a public client (no secret to keep).
    expect(fx.requests.find((r) => r.path === "/register")?.body).toMatchObject({
      token_endpoint_auth_method: "none",
      redirect_uris: [REDIRECT_URL],
    });
    expect(s.events.map((e) => e.type)).toContain("registered");
  });

  test("the challenge's scope is asked for before scopes_supported; none at all omits the parameter", async () => {
    const fx = await fixture({ scopesSupported: ["a", "b"], challengeScope: "a" });
    const s = setup(fx);
    await s.inspect();
    expect(
      new URL(s.client.pendingAuthorization()!.authorizationUrl).searchParams.get("scope"),
    ).toBe("a");
    const bare = await fixture();
    const t = setup(bare);
    await t.inspect();
    expect(
      new URL(t.client.pendingAuthorization()!.authorizationUrl).searchParams.has("scope"),
    ).toBe(false);
  });

  test("a response that names no scope is recorded as granting what was asked", async () => {
    const fx = await fixture({ challengeScope: "mcp:read", grant: () => null });
    const s = setup(fx);
    const result = await inspectAuthorizing(s);
    expect(result.ok && result.authorization).toMatchObject({ scopes: ["mcp:read"] });
    expect(s.storage.facts).toMatchObject({ scopeSource: "requested", grantedScope: "mcp:read" });
  });

  test("step-up on insufficient_scope asks for the wider scope, bounded by maxAuthorizations", async () => {
    const fx = await fixture({
      challengeScope: "mcp:basic",
      listScopes: ["mcp:basic", "mcp:list"],
    });
    const s = setup(fx);
    const result = await inspectAuthorizing(s);
    expect(result.ok ? null : result.error).toBeNull();
    const asked = fx.requests.filter((r) => r.path === "/authorize").map((r) => r.query.scope);
    expect(asked).toEqual(["mcp:basic", "mcp:basic mcp:list"]);
    expect(result.ok && result.authorization?.scopes).toEqual(["mcp:basic", "mcp:list"]);

    // An authorization server that never grants enough: the flow stops after three consents.
    const stingy = await fixture({ challengeScope: "x", listScopes: ["y"], grant: () => "x" });
    const t = setup(stingy);
    const last = await inspectAuthorizing(t, 5);
    const error = unauthorized(last);
    expect(stingy.requests.filter((r) => r.path === "/authorize")).toHaveLength(3);
    expect(error.message).toMatch(/limit 3/);
  });

  test("an iss that is not the authorization server's is refused (RFC 9207)", async () => {
    const fx = await fixture({ issParameter: "https://evil.example" });
    const s = setup(fx);
    await s.inspect();
    const done = await s.approve();
    expect(done.ok).toBe(false);
    if (done.ok) return;
    expect(done.error.step).toBe("authorization_response");
    expect(done.error.message).toMatch(/evil\.example/);
    expect(fx.requests.some((r) => r.path === "/token")).toBe(false);
  });

  test("the callback's state must be the request's", async () => {
    const fx = await fixture();
    const s = setup(fx);
    await s.inspect();
    const params = await fx.approve(s.client.pendingAuthorization()!.authorizationUrl);
    const done = await completeAuthorization(s.client, {
      code: params.get("code")!,
      state: "forged",
      codeVerifier: s.storage.takeCodeVerifier(params.get("state")!)!,
    });
    expect(done.ok || done.error.step).toBe("authorization_response");
    expect(s.storage.takeCodeVerifier(params.get("state")!)).toBeNull(); // taken once
  });
});

describe("refresh", () => {
  test("a token about to expire is refreshed before the request; an expired one on the 401", async () => {
    const fx = await fixture({ expiresIn: 120 });
    let now = Date.now();
    const s = setup(fx, { now: () => now });
    expect((await inspectAuthorizing(s)).ok).toBe(true);
    now += 119_000; // inside the 60 s skew
    expect((await s.inspect()).ok).toBe(true);
    expect(fx.issued.map((i) => i.grant)).toEqual(["authorization_code", "refresh_token"]);
    // The server forgets the token early: the 401 makes the SDK refresh, then the request is retried.
    fx.expire(fx.issued.at(-1)!.accessToken);
    expect((await s.inspect()).ok).toBe(true);
    expect(fx.issued.map((i) => i.grant)).toEqual([
      "authorization_code",
      "refresh_token",
      "refresh_token",
    ]);
    expect(
      fx.requests.filter((r) => r.path === "/token").every((r) => r.body.resource === fx.mcpUrl),
    ).toBe(true);
  });

  test("a refused refresh falls back to asking the user", async () => {
    const fx = await fixture({ refuseRefresh: true });
    const s = setup(fx);
    expect((await inspectAuthorizing(s)).ok).toBe(true);
    fx.expire(fx.issued[0]!.accessToken);
    const error = unauthorized(await s.inspect());
    expect(error.oauthStep).toBe("authorization_request");
  });

  test("headless from a refresh token given by the operator", async () => {
    const fx = await fixture({ client: { id: "ci", secret: "ci-secret-value" } });
    const seedClient = setup(fx, {
      client: { preRegistered: { clientId: "ci", clientSecret: "ci-secret-value" } },
    });
    expect((await inspectAuthorizing(seedClient)).ok).toBe(true);
    const refreshToken = fx.issued[0]!.refreshToken!;
    const storage = new MemoryOAuthStorage({ refreshToken });
    const client = createOAuthProvider({
      serverUrl: fx.mcpUrl,
      storage,
      grant: "authorization_code",
      client: { preRegistered: { clientId: "ci", clientSecret: "ci-secret-value" } },
    });
    const result = await inspectWithOpeners([streamableHttpOpener(fx.mcpUrl, { auth: client })], {
      limits: { settleQuietMs: 0 },
    });
    expect(result.ok).toBe(true);
    expect(fx.issued.at(-1)!.grant).toBe("refresh_token");
  });
});

describe("a long session (the gate's)", () => {
  test("one open session stays authorized: refreshed before expiry, and on a 401", async () => {
    const fx = await fixture({
      client: { id: "gate", secret: "gate-secret-9876" },
      expiresIn: 300,
    });
    let now = Date.now();
    const client = createOAuthProvider({
      serverUrl: fx.mcpUrl,
      storage: new MemoryOAuthStorage(),
      grant: "client_credentials",
      client: { preRegistered: { clientId: "gate", clientSecret: "gate-secret-9876" } },
      now: () => now,
    });
    const opened = await openUpstreamSession([streamableHttpOpener(fx.mcpUrl, { auth: client })], {
      keepOpen: true,
      limits: { settleQuietMs: 0 },
    });
    if (!opened.ok) throw new Error(opened.error.message);
    const session = opened.session;
    try {
      expect(session.authorization?.expiresAt).toBeTruthy();
      now += 250_000; // within a minute of expiry: the next request gets a fresh token first
      await session.relist(["tools"]);
      expect(fx.issued).toHaveLength(2);
      fx.expire(fx.issued[1]!.accessToken); // revoked early: the 401 gets a new one, the request is retried
      const again = await session.relist(["tools"]);
      expect(again.surface.tools.map((t) => t.name)).toEqual(["whoami"]);
      expect(fx.issued.map((i) => i.grant)).toEqual([
        "client_credentials",
        "client_credentials",
        "client_credentials",
      ]);
    } finally {
      await session.close();
    }
  });
});

describe("one authorization in flight", () => {
  const provider = () =>
    createOAuthProvider({
      serverUrl: "https://mcp.example/mcp",
      storage: new MemoryOAuthStorage(),
      grant: "client_credentials",
      client: { preRegistered: { clientId: "gate", clientSecret: "gate-secret-9876" } },
    });

  test("the first refusal authorizes; the next ones wait for its outcome, then the next authorizes", async () => {
    const client = provider();
    const stepUp = 'Bearer error="insufficient_scope", scope="mcp:write"';
    expect(client.joinAuthorization(403, stepUp, "Bearer old")).toBeNull();
    const second = client.joinAuthorization(403, stepUp, "Bearer old");
    const third = client.joinAuthorization(401, null, "Bearer old");
    expect(second).toBeInstanceOf(Promise);
    client.endAuthorization({ step: "token_request", message: "OAuth token request failed: no" });
    for (const waiting of [second, third])
      await expect(waiting).resolves.toEqual({
        step: "token_request",
        message: "OAuth token request failed: no",
      });
    expect(client.joinAuthorization(401, null, "Bearer old")).toBeNull();
  });

  test("a 403 that asks for no wider grant puts nothing in flight", () => {
    const client = provider();
    expect(client.joinAuthorization(403, 'Bearer error="invalid_token"', null)).toBeNull();
    expect(client.joinAuthorization(403, null, null)).toBeNull();
  });

  test("a request sent with a token since replaced is sent again, not authorized again", async () => {
    const fx = await fixture({ client: { id: "gate", secret: "gate-secret-9876" } });
    const client = createOAuthProvider({
      serverUrl: fx.mcpUrl,
      storage: new MemoryOAuthStorage(),
      grant: "client_credentials",
      client: { preRegistered: { clientId: "gate", clientSecret: "gate-secret-9876" } },
    });
    const result = await inspectWithOpeners([streamableHttpOpener(fx.mcpUrl, { auth: client })], {
      limits: { settleQuietMs: 0 },
    });
    expect(result.ok).toBe(true);
    const saved = fx.issued.at(-1)!.accessToken;
    await expect(client.joinAuthorization(401, null, "Bearer an-older-token")).resolves.toBeNull();
    expect(client.joinAuthorization(401, null, `Bearer ${saved}`)).toBeNull();
  });
});

describe("machines and pre-registered clients", () => {
  test("client credentials: no user, Basic authentication, the grant recorded", async () => {
    const fx = await fixture({
      client: { id: "svc", secret: "svc-secret-1234" },
      scopesSupported: ["mcp:read"],
    });
    const storage = new MemoryOAuthStorage();
    const client = createOAuthProvider({
      serverUrl: fx.mcpUrl,
      storage,
      grant: "client_credentials",
      client: { preRegistered: { clientId: "svc", clientSecret: "svc-secret-1234" } },
    });
    const result = await inspectWithOpeners([streamableHttpOpener(fx.mcpUrl, { auth: client })], {
      limits: { settleQuietMs: 0 },
    });
    expect(result.ok).toBe(true);
    const token = fx.requests.find((r) => r.path === "/token")!;
    expect(token.body).toMatchObject({
      grant_type: "client_credentials",
      scope: "mcp:read",
      resource: fx.mcpUrl,
    });
    expect(token.authorization).toMatch(/^Basic /);
    expect(fx.requests.some((r) => r.path === "/authorize" || r.path === "/register")).toBe(false);
    expect(storage.facts).toMatchObject({ grant: "client_credentials", grantedScope: "mcp:read" });
    // The pre-registered secret is never handed to storage.
    expect(JSON.stringify(await storage.loadClientInformation())).not.toContain("svc-secret-1234");
  });

  test("a pre-registered client is used without registering, bound to the first authorization server", async () => {
    const fx = await fixture({
      client: { id: "pre", secret: "pre-secret-5678" },
      dynamicRegistration: false,
    });
    const s = setup(fx, {
      client: { preRegistered: { clientId: "pre", clientSecret: "pre-secret-5678" } },
    });
    expect((await inspectAuthorizing(s)).ok).toBe(true);
    expect(fx.requests.some((r) => r.path === "/register")).toBe(false);
    expect(await s.storage.loadClientInformation()).toEqual({ client_id: "pre", issuer: fx.base });
  });

  test("a client metadata document URL is the client_id when the server supports it", async () => {
    const fx = await fixture({ clientIdMetadataDocuments: true });
    const doc = "https://workbench.example/oauth/client-metadata.json";
    const s = setup(fx, { client: { metadataDocumentUrl: doc } });
    await s.inspect();
    expect(
      new URL(s.client.pendingAuthorization()!.authorizationUrl).searchParams.get("client_id"),
    ).toBe(doc);
    expect(fx.requests.some((r) => r.path === "/register")).toBe(false);
  });
});

describe("refusals (every URL of the flow is the server's to choose)", () => {
  test.each<[string, OAuthFixtureOptions, Partial<OAuthProviderOptions>, string, RegExp]>([
    [
      "an issuer that is not the authorization server's URL",
      { metadata: (md) => ({ ...md, issuer: "https://other-issuer.example" }) },
      {},
      "authorization_server_metadata",
      /names issuer https:\/\/other-issuer\.example\/.*RFC 8414/,
    ],
    [
      "a resource that is not this server",
      { resourceMetadata: (prm) => ({ ...prm, resource: "https://elsewhere.example/mcp" }) },
      {},
      "resource_metadata",
      /resource https:\/\/elsewhere\.example\/mcp.*not this server/,
    ],
    [
      "a token endpoint on plain http off loopback",
      { metadata: (md) => ({ ...md, token_endpoint: "http://tokens.example/token" }) },
      {},
      "authorization_server_metadata",
      /token endpoint http:\/\/tokens\.example\/token is plain http off loopback/,
    ],
    [
      "an authorization server on plain http off loopback",
      { resourceMetadata: (prm) => ({ ...prm, authorization_servers: ["http://sso.example"] }) },
      {},
      "authorization_server_metadata",
      /http:\/\/sso\.example\/\S* is plain http off loopback/,
    ],
    [
      "another authorization server than the expected issuer",
      {},
      { expectedIssuer: "https://sso.corp.example" },
      "authorization_server_metadata",
      /credentials are for https:\/\/sso\.corp\.example\/ only/,
    ],
    [
      "no PKCE S256",
      { metadata: (md) => ({ ...md, code_challenge_methods_supported: ["plain"] }) },
      {},
      "authorization_server_metadata",
      /PKCE S256/,
    ],
    [
      "metadata larger than the byte limit",
      { metadataBytes: 300_000 },
      {},
      "authorization_server_metadata",
      /256-byte|262144 bytes/,
    ],
    [
      "more redirects than the limit",
      { metadataRedirects: 5 },
      {},
      "authorization_server_metadata",
      /redirected more than 3 times/,
    ],
    [
      "a URL the egress guard refuses",
      {},
      {
        egress: (url: URL) =>
          Promise.resolve(
            url.pathname.includes("oauth-authorization-server")
              ? `egress refused: ${url.host} is outside the allowlist`
              : null,
          ),
      },
      "authorization_server_metadata",
      /egress refused: 127\.0\.0\.1:\d+ is outside the allowlist/,
    ],
  ])("%s", async (_name, fxOptions, providerOptions, step, message) => {
    const fx = await fixture(fxOptions);
    const s = setup(fx, providerOptions);
    const error = unauthorized(await s.inspect());
    expect(error.oauthStep).toBe(step);
    expect(error.message).toMatch(message);
    // Refused before anything was registered, authorized or posted to a token endpoint.
    expect(fx.requests.some((r) => ["/register", "/authorize", "/token"].includes(r.path))).toBe(
      false,
    );
    expect(s.client.pendingAuthorization()).toBeNull();
  });

  test("a resource metadata URL the egress guard refuses is not swallowed by the legacy fallback", async () => {
    const fx = await fixture();
    const s = setup(fx, {
      egress: (url) =>
        Promise.resolve(
          url.pathname.includes("oauth-protected-resource") ? "egress refused: PRM" : null,
        ),
    });
    const error = unauthorized(await s.inspect());
    expect(error.oauthStep).toBe("resource_metadata");
    expect(error.message).toMatch(/egress refused: PRM/);
  });

  test("a slow endpoint trips the time limit", async () => {
    const fx = await fixture();
    const s = setup(fx, {
      limits: { requestTimeoutMs: 200 },
      fetch: (url, init) =>
        String(url).includes("oauth-authorization-server")
          ? new Promise<Response>((_resolve, reject) =>
              init?.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
            )
          : fetch(url, init),
    });
    const error = unauthorized(await s.inspect());
    expect(error.oauthStep).toBe("authorization_server_metadata");
    expect(error.message).toMatch(/no answer within 200 ms/);
  });

  test("the provider refuses an authorization URL off https (the browser would carry the state there)", async () => {
    const fx = await fixture({
      metadata: (md) => ({ ...md, authorization_endpoint: "http://login.example/authorize" }),
    });
    const s = setup(fx);
    const error = unauthorized(await s.inspect());
    expect(error.message).toMatch(/authorization endpoint http:\/\/login\.example\/authorize/);
    expect(s.redirects).toEqual([]);
  });
});

describe("secrets", () => {
  test("no token, code, verifier or client secret reaches an event, an error, a result or the facts", async () => {
    const fx = await fixture({
      echoTokenErrors: true,
      client: { id: "pre", secret: "pre-secret-abcdef" },
    });
    const s = setup(fx, {
      client: { preRegistered: { clientId: "pre", clientSecret: "pre-secret-abcdef" } },
    });
    const first = await s.inspect();
    const pending = s.client.pendingAuthorization()!;
    const params = await fx.approve(pending.authorizationUrl);
    const verifier = s.storage.takeCodeVerifier(params.get("state")!)!;
    // A wrong verifier: the hostile token endpoint echoes the whole request body in its error.
    const bad = await completeAuthorization(s.client, {
      code: params.get("code")!,
      state: params.get("state")!,
      codeVerifier: `${verifier}x`,
    });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.step).toBe("token_request");
    expect(bad.error.message).toContain("[redacted]");
    await s.inspect(); // consent again
    const good = await s.approve();
    const result = await s.inspect();
    expect(result.ok).toBe(true);
    const secrets = [
      params.get("code")!,
      verifier,
      "pre-secret-abcdef",
      ...fx.issued.flatMap((i) => [i.accessToken, i.refreshToken ?? "none-none"]),
    ];
    const shown = JSON.stringify([
      s.events,
      first,
      bad.error.message,
      good,
      result,
      s.storage.facts,
    ]);
    for (const secret of secrets) expect(shown).not.toContain(secret);
  });

  test("OAuthStepError names its step", () => {
    expect(new OAuthStepError("token_refresh", "x").message).toBe("OAuth token refresh failed: x");
  });
});
