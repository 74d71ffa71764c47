/**
 * Disconnect revokes, on both backends, against the real demo authorization server (the SDK's
 * mcpAuthRouter, servers/knowledge-mcp-oauth.ts): the workbench asks its RFC 7009 endpoint to
 * revoke the refresh token and the access token, so neither works afterwards; against a demo
 * without a revocation endpoint, one that cannot be reached, and one that refuses the request, the
 * tokens are deleted all the same and the answer says plainly that the authorization server was
 * not told, with the reason and never a token.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReviewId, ServerId } from "@/lib/ids";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey } from "@/lib/secrets/crypto";
import { getSecretKey } from "@/lib/secrets/key";
import { openStore, type Store } from "@/lib/store/db";
import { saveOAuthClient } from "@/lib/store/oauth";
import { createReview } from "@/lib/store/reviews";
import { oauthConnectionState } from "@/lib/workbench/oauth";
import { beginConnect, disconnectServer, finishConnect } from "@/lib/workbench/oauth-flow";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { loadReviewServer } from "@/lib/workbench/surface";
import { startOAuthDemo, type OAuthDemo } from "@/servers/knowledge-mcp-oauth";
import { BACKENDS } from "@/tests/store/support/backends";
import { egressAllowFor } from "@/tests/support/egress";

process.env.RELAY_REVIEW_SECRET_KEY ??= newSecretKey().toString("base64");

const ORIGIN = "http://127.0.0.1:3298";
const SESSION = "v2.0.1999999999.disconnect-test-nonce.mac";

/** Answer the demo's consent page with plain HTTP; returns the callback's query. */
async function approve(authorizationUrl: string, scopes: readonly string[]) {
  const html = await (await fetch(authorizationUrl)).text();
  const pending = /name="pending" value="([^"]+)"/.exec(html)?.[1];
  expect(pending).toBeTruthy();
  const form = new URLSearchParams({ pending: pending!, decision: "approve" });
  for (const s of scopes) form.append("scope", s);
  const answer = await fetch(new URL("/consent", authorizationUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
  });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.get("location")!).searchParams;
}

/** A refresh-token grant at the demo's token endpoint, as its client: the HTTP status. */
async function refreshStatus(demo: OAuthDemo, clientId: string, refreshToken: string) {
  const r = await fetch(new URL("/token", demo.issuer), {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: refreshToken,
      client_id: clientId,
    }),
  });
  return { status: r.status, body: await r.text() };
}

/** An MCP request with the access token: 401 when the token no longer works. */
async function mcpStatus(demo: OAuthDemo, accessToken: string) {
  const r = await fetch(demo.mcpUrl, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${accessToken}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "t", version: "0" },
      },
    }),
  });
  await r.body?.cancel();
  return r.status;
}

describe.each(BACKENDS)("Disconnect on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let reviewId: ReviewId;
  const demos: Record<"revoking" | "without" | "gone" | "refusing", OAuthDemo | null> = {
    revoking: null,
    without: null,
    gone: null,
    refusing: null,
  };

  beforeAll(async () => {
    demos.revoking = await startOAuthDemo({ port: 0, authPort: 0 });
    demos.without = await startOAuthDemo({ port: 0, authPort: 0, revocation: false });
    demos.gone = await startOAuthDemo({ port: 0, authPort: 0 });
    demos.refusing = await startOAuthDemo({ port: 0, authPort: 0 });
    // The demos' listeners, granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = egressAllowFor(
      ...Object.values(demos).flatMap((d) => (d ? [d.mcpUrl, d.issuer] : [])),
    );
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (
      await createReview(
        store.db,
        {
          schemaVersion: REVIEW_SCHEMA_VERSION,
          title: "oauth disconnect",
          servers: Object.entries(demos).map(([id, demo]) => ({
            id,
            name: `knowledge-mcp (${id})`,
            transport: { kind: "http" as const, url: demo!.mcpUrl, headerEnv: {} },
            declaredTools: [],
          })),
        },
        "t",
      )
    ).id;
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
    for (const demo of Object.values(demos)) await demo?.close();
  });

  /** Connect `serverId` through its demo; returns the client id and the tokens the demo issued. */
  async function connect(serverId: string, demo: OAuthDemo) {
    const before = new Set(demo.provider.issuedTokens());
    const { authorizationUrl } = await beginConnect(store.db, {
      reviewId,
      serverId: serverId as ServerId,
      origin: ORIGIN,
      sessionCookieValue: SESSION,
    });
    const clientId = new URL(authorizationUrl).searchParams.get("client_id")!;
    const finished = await finishConnect(store.db, {
      params: await approve(authorizationUrl, ["knowledge:read"]),
      sessionCookieValue: SESSION,
      origin: ORIGIN,
    });
    expect(finished.ok).toBe(true);
    const issued = demo.provider.issuedTokens().filter((t) => !before.has(t));
    const access = issued.find((t) => t.startsWith("demo_at_"))!;
    const refresh = issued.find((t) => t.startsWith("demo_rt_"))!;
    expect(access && refresh).toBeTruthy();
    // The stored token works, through the workbench's own inspection.
    const prepared = await prepareInspection(
      store.db,
      reviewId,
      serverId as ServerId,
      process.env,
      {
        origin: ORIGIN,
      },
    );
    if (!prepared.ok) throw new Error(prepared.error.message);
    expect(await runInspection(store.db, prepared, {})).toMatchObject({ ok: true });
    return { clientId, access, refresh };
  }

  const disconnect = (serverId: string) =>
    disconnectServer(store.db, { reviewId, serverId: serverId as ServerId, origin: ORIGIN });

  /** The server's state is gone from the store and the card offers Connect. */
  async function expectDeleted(serverId: string, tokens: string[]) {
    const { server } = await loadReviewServer(store.db, reviewId, serverId as ServerId);
    expect(await oauthConnectionState(store.db, reviewId, server)).toMatchObject({
      state: "not_connected",
    });
    const rows = await store.db.execute(
      sql`SELECT count(*)::int AS n FROM oauth_connections WHERE server_id = ${serverId}`,
    );
    expect(JSON.stringify(rows)).toMatch(/"n":0/);
    const dump = JSON.stringify(
      await store.db.execute(sql`SELECT t::text AS row FROM oauth_connections t`),
    );
    for (const t of tokens) expect(dump).not.toContain(t);
  }

  test("a revoking authorization server is told: the refresh token and the access token stop working", async () => {
    const demo = demos.revoking!;
    const { clientId, access, refresh } = await connect("revoking", demo);
    expect(await mcpStatus(demo, access)).toBe(200);
    const revocationsBefore = demo.provider.revocations();

    const answer = await disconnect("revoking");
    expect(answer).toMatchObject({
      deleted: true,
      revocation: "revoked",
      endpoint: `${demo.issuer}revoke`,
      revoked: ["refresh_token", "access_token"],
      notRevoked: [],
    });
    expect(answer.message).toBe(
      `Disconnected. The authorization server (${demo.issuer}revoke) revoked the refresh token and the access token, and the workbench deleted them.`,
    );
    expect(demo.provider.revocations() - revocationsBefore).toBe(2);
    await expectDeleted("revoking", [access, refresh]);

    // Revoked at the source: the refresh token is refused, the access token no longer opens the server.
    const refreshed = await refreshStatus(demo, clientId, refresh);
    expect(refreshed.status).toBe(400);
    expect(refreshed.body).toContain("invalid_grant");
    expect(await mcpStatus(demo, access)).toBe(401);
  });

  test("an authorization server without a revocation endpoint: deleted anyway, and the reviewer is told it was not told", async () => {
    const demo = demos.without!;
    const { clientId, access, refresh } = await connect("without", demo);
    const answer = await disconnect("without");
    expect(answer).toMatchObject({
      deleted: true,
      revocation: "not_told",
      endpoint: null,
      revoked: [],
    });
    expect(answer.message).toContain("The authorization server was not told to revoke them");
    expect(answer.message).toContain(
      `the authorization server ${demo.issuer} names no revocation_endpoint in its metadata`,
    );
    expect(answer.message).toContain("stays valid there until it expires");
    for (const t of [access, refresh]) expect(JSON.stringify(answer)).not.toContain(t);
    await expectDeleted("without", [access, refresh]);
    // What the message warns about is true: the authorization server still honours the refresh token.
    expect((await refreshStatus(demo, clientId, refresh)).status).toBe(200);
  });

  test("an authorization server that cannot be reached: deleted anyway, with the network error", async () => {
    const demo = demos.gone!;
    const { access, refresh } = await connect("gone", demo);
    await demo.close();
    demos.gone = null;
    const answer = await disconnect("gone");
    expect(answer).toMatchObject({ deleted: true, revocation: "not_told", revoked: [] });
    expect(answer.notRevoked.map((n) => n.token)).toEqual(["refresh_token", "access_token"]);
    expect(answer.message).toMatch(/revoke could not be reached \(ECONNREFUSED\)/);
    for (const t of [access, refresh]) expect(JSON.stringify(answer)).not.toContain(t);
    await expectDeleted("gone", [access, refresh]);
  });

  test("an error answer (the client is not the one the tokens were issued to): deleted anyway, quoting the error", async () => {
    const demo = demos.refusing!;
    const { access, refresh } = await connect("refusing", demo);
    // The stored registration now names a client the authorization server does not know.
    const key = getSecretKey();
    if (!key.ok) throw new Error(key.message);
    await saveOAuthClient(store.db, key.key, { reviewId, serverId: "refusing" }, demo.mcpUrl, {
      client_id: "not-a-registered-client",
    });
    const answer = await disconnect("refusing");
    expect(answer).toMatchObject({ deleted: true, revocation: "not_told", revoked: [] });
    expect(answer.message).toContain(`${demo.issuer}revoke answered HTTP 400 "invalid_client"`);
    for (const t of [access, refresh]) expect(JSON.stringify(answer)).not.toContain(t);
    await expectDeleted("refusing", [access, refresh]);
    expect(await mcpStatus(demo, access)).toBe(200); // not revoked: the message said so
  });

  test("nothing stored: nothing to revoke", async () => {
    const answer = await disconnect("revoking");
    expect(answer).toMatchObject({
      deleted: false,
      revocation: "nothing_stored",
      message: "Nothing was stored for this server: there was nothing to revoke or delete.",
    });
  });
});
