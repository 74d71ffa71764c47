/**
 * Connect end to end without a browser, on both backends: the real demo authorization server and
 * knowledge-mcp over HTTP (servers/knowledge-mcp-oauth.ts), the workbench's Connect start and
 * finish (lib/workbench/oauth-flow.ts) through lib/mcp/oauth's provider, and the inspection that
 * then uses the stored token. The consent page is answered with plain HTTP. A state presented by
 * another session, replayed, or unknown is refused; the tokens are nowhere in the database.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ReviewId, ServerId } from "@/lib/ids";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey } from "@/lib/secrets/crypto";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { latestInspection } from "@/lib/store/snapshots";
import { oauthConnectionState } from "@/lib/workbench/oauth";
import { beginConnect, finishConnect } from "@/lib/workbench/oauth-flow";
import { prepareInspection, runInspection } from "@/lib/workbench/inspect-run";
import { loadReviewServer } from "@/lib/workbench/surface";
import { startOAuthDemo, type OAuthDemo } from "@/servers/knowledge-mcp-oauth";
import { BACKENDS } from "@/tests/store/support/backends";
import { egressAllowFor } from "@/tests/support/egress";

// The secret store's key is resolved once per process (lib/secrets/key.ts): give it one first.
process.env.RELAY_REVIEW_SECRET_KEY = newSecretKey().toString("base64");

const ORIGIN = "http://127.0.0.1:3299";
const SESSION = "v2.0.1999999999.test-session-nonce.mac";
const SERVER = "kb" as ServerId;

/** Answer the demo's consent page for `authorizationUrl`; returns the callback's query. */
async function approve(authorizationUrl: string, scopes: readonly string[]) {
  const page = await fetch(authorizationUrl);
  expect(page.status).toBe(200);
  const html = await page.text();
  const pending = /name="pending" value="([^"]+)"/.exec(html)?.[1];
  expect(pending).toBeTruthy();
  const form = new URLSearchParams({ pending: pending!, subject: "alice@example.com" });
  for (const s of scopes) form.append("scope", s);
  form.set("decision", "approve");
  const answer = await fetch(new URL("/consent", authorizationUrl), {
    method: "POST",
    body: form,
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(answer.status).toBe(303);
  const back = new URL(answer.headers.get("location")!);
  expect(back.origin + back.pathname).toBe(`${ORIGIN}/oauth/callback`);
  return back.searchParams;
}

describe.each(BACKENDS)("Connect on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let demo: OAuthDemo;
  let reviewId: ReviewId;

  beforeAll(async () => {
    demo = await startOAuthDemo({ port: 0, authPort: 0 });
    // The demo's two listeners, granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = egressAllowFor(demo.mcpUrl, demo.issuer);
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (
      await createReview(
        store.db,
        {
          schemaVersion: REVIEW_SCHEMA_VERSION,
          title: "oauth flow",
          servers: [
            {
              id: SERVER,
              name: "knowledge-mcp (OAuth)",
              transport: { kind: "http", url: demo.mcpUrl, headerEnv: {} },
              declaredTools: [],
            },
          ],
        },
        "t",
      )
    ).id;
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
    await demo?.close();
  });

  const inspect = async () => {
    const prepared = await prepareInspection(store.db, reviewId, SERVER, process.env, {
      origin: ORIGIN,
    });
    if (!prepared.ok) throw new Error(prepared.error.message);
    return runInspection(store.db, prepared, {});
  };

  test("401 → Connect → consent → finish → inspect with the token; a replay and another session are refused", async () => {
    const refused = await inspect();
    expect(refused.ok).toBe(false);
    const { server } = await loadReviewServer(store.db, reviewId, SERVER);
    expect(await oauthConnectionState(store.db, reviewId, server)).toEqual({
      state: "not_connected",
      isRequired: true,
    });

    await expect(
      beginConnect(store.db, {
        reviewId,
        serverId: SERVER,
        origin: ORIGIN,
        sessionCookieValue: null,
      }),
    ).rejects.toThrow(/browser session/);
    const { authorizationUrl } = await beginConnect(store.db, {
      reviewId,
      serverId: SERVER,
      origin: ORIGIN,
      sessionCookieValue: SESSION,
    });
    const url = new URL(authorizationUrl);
    expect(url.origin + "/").toBe(demo.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("resource")).toBe(demo.mcpUrl);
    const params = await approve(authorizationUrl, ["knowledge:read"]);

    const elsewhere = await finishConnect(store.db, {
      params,
      sessionCookieValue: "v2.0.1999999999.another-session.mac",
      origin: ORIGIN,
    });
    expect(!elsewhere.ok && elsewhere.message).toContain("another browser session");
    const finished = await finishConnect(store.db, {
      params,
      sessionCookieValue: SESSION,
      origin: ORIGIN,
    });
    expect(finished).toEqual({ ok: true, reviewId, serverId: SERVER });
    const replay = await finishConnect(store.db, {
      params,
      sessionCookieValue: SESSION,
      origin: ORIGIN,
    });
    expect(!replay.ok && replay.message).toContain("already used");
    const forged = new URLSearchParams(params);
    forged.set("state", "forged");
    const unknown = await finishConnect(store.db, {
      params: forged,
      sessionCookieValue: SESSION,
      origin: ORIGIN,
    });
    expect(!unknown.ok && unknown.message).toContain("does not belong");

    expect(await oauthConnectionState(store.db, reviewId, server)).toMatchObject({
      state: "connected",
      subject: "alice@example.com",
      scopes: ["knowledge:read"],
      issuer: demo.issuer,
    });

    const ok = await inspect();
    expect(ok).toMatchObject({ ok: true, summary: { counts: { tools: 4 } } });
    const recorded = await latestInspection(store.db, reviewId, SERVER, { status: "ok" });
    expect(recorded?.authorization).toMatchObject({
      subject: "alice@example.com",
      scopes: ["knowledge:read"],
    });

    const tokens = demo.provider.issuedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    const dump = await store.db.execute(
      sql`SELECT (SELECT string_agg(t::text, E'\n') FROM oauth_connections t) || (SELECT string_agg(t::text, E'\n') FROM oauth_flows t) || (SELECT string_agg(t::text, E'\n') FROM inspections t) AS all`,
    );
    const text = JSON.stringify(dump);
    expect(text).toContain("alice@example.com");
    for (const t of tokens) expect(text).not.toContain(t);
  });
});
