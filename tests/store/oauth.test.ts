/**
 * OAuth state per server and Connect's flows, on both backends: sealed at rest (no token, secret
 * or verifier in any row as text), bound to the server's URL, shared by two instances on one
 * database, a refresh race that does not wipe the winner's tokens, and a state that is refused
 * when unknown, expired, replayed or presented by another session.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { newSecretKey } from "@/lib/secrets/crypto";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { openStore, type Store } from "@/lib/store/db";
import {
  consumeOAuthFlow,
  countOAuthSealedUnderOtherKey,
  createOAuthFlow,
  deleteOAuthState,
  invalidateOAuthState,
  listOAuthConnections,
  loadOAuthState,
  saveFlowVerifier,
  saveOAuthClient,
  saveOAuthTokens,
} from "@/lib/store/oauth";
import { createReview } from "@/lib/store/reviews";
import { listInspections, recordInspection } from "@/lib/store/snapshots";
import { BACKENDS } from "./support/backends";

const ACCESS = "at_storeTest_0123456789abcdefACCESS";
const REFRESH = "rt_storeTest_0123456789abcdefREFRESH";
const CLIENT_SECRET = "cs_storeTest_0123456789abcdefSECRET";
const VERIFIER = "pkce_storeTest_0123456789abcdef0123456789abcdefVERIFIER";
const URL_A = "http://127.0.0.1:3290/mcp";
const URL_B = "http://127.0.0.1:3291/mcp";
const SESSION = "v2.0.1999999999.nonce.mac";

describe.each(BACKENDS)("OAuth state on $name", (backend) => {
  let store: Store;
  let second: Store | null = null;
  let drop: () => Promise<void>;
  let reviewId: string;
  const key = newSecretKey();

  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    // PostgreSQL: a second pool stands for a second instance (PGlite is one process by design).
    if (provisioned.target.kind === "postgres")
      second = await openStore({ target: provisioned.target });
    reviewId = (
      await createReview(store.db, { schemaVersion: REVIEW_SCHEMA_VERSION, title: "oauth" }, "t")
    ).id;
  });
  afterAll(async () => {
    await second?.close();
    await store?.close();
    await drop?.();
  });

  const dump = async () => {
    const out: string[] = [];
    for (const table of ["oauth_connections", "oauth_flows", "inspections"]) {
      const r = await store.db.execute(sql.raw(`SELECT t::text AS row FROM ${table} t`));
      out.push(...(r as { rows: { row: string }[] }).rows.map((x) => x.row));
    }
    return out.join("\n");
  };

  test("client and tokens are sealed, read back for the same URL, and shown without a token", async () => {
    const ref = { reviewId, serverId: "remote" };
    await saveOAuthClient(store.db, key, ref, URL_A, {
      client_id: "client-1",
      client_secret: CLIENT_SECRET,
    });
    await saveOAuthTokens(
      store.db,
      key,
      ref,
      URL_A,
      { access_token: ACCESS, refresh_token: REFRESH, token_type: "Bearer", expires_in: 3600 },
      {
        issuer: "http://127.0.0.1:3292",
        subject: "alice@example.com",
        grantedScope: "knowledge:read  knowledge:read openid",
        expiresAt: new Date("2026-12-04T15:00:00Z"),
      },
      { connected: true, now: new Date("2026-12-04T14:00:00Z") },
    );
    const loaded = await loadOAuthState(store.db, key, ref, URL_A);
    expect(loaded.ok && loaded.state).toMatchObject({
      clientInformation: { client_id: "client-1", client_secret: CLIENT_SECRET },
      tokens: { access_token: ACCESS, refresh_token: REFRESH },
    });
    const [summary] = await listOAuthConnections(store.db, reviewId);
    expect(summary).toEqual({
      serverId: "remote",
      resourceUrl: URL_A,
      issuer: "http://127.0.0.1:3292",
      subject: "alice@example.com",
      scopes: ["knowledge:read", "openid"],
      expiresAt: "2026-12-04T15:00:00.000Z",
      connectedAt: "2026-12-04T14:00:00.000Z",
      isConnected: true,
    });
    const rows = await dump();
    for (const secret of [ACCESS, REFRESH, CLIENT_SECRET]) {
      expect(rows).not.toContain(secret);
      expect(JSON.stringify(summary)).not.toContain(secret);
    }
  });

  test("state obtained for one URL is never handed out for another, and a new URL resets it", async () => {
    const ref = { reviewId, serverId: "moved" };
    await saveOAuthTokens(
      store.db,
      key,
      ref,
      URL_A,
      { access_token: ACCESS, token_type: "Bearer" },
      { issuer: null, subject: null, grantedScope: null, expiresAt: null },
    );
    const elsewhere = await loadOAuthState(store.db, key, ref, URL_B);
    expect(elsewhere).toEqual({ ok: true, state: null });
    await saveOAuthClient(store.db, key, ref, URL_B, { client_id: "client-b" });
    const after = await loadOAuthState(store.db, key, ref, URL_B);
    expect(after.ok && after.state?.tokens).toBeUndefined();
    expect(after.ok && after.state?.clientInformation).toEqual({ client_id: "client-b" });
    expect((await loadOAuthState(store.db, key, ref, URL_A)).ok).toBe(true);
    expect(await loadOAuthState(store.db, key, ref, URL_A)).toEqual({ ok: true, state: null });
  });

  test("a sealed value moved to another server or field does not open; another key is named", async () => {
    const from = { reviewId, serverId: "from" };
    const to = { reviewId, serverId: "to" };
    await saveOAuthTokens(
      store.db,
      key,
      from,
      URL_A,
      { access_token: ACCESS, token_type: "Bearer" },
      { issuer: null, subject: null, grantedScope: null, expiresAt: null },
    );
    await saveOAuthClient(store.db, key, to, URL_A, { client_id: "c" });
    await store.db.execute(
      sql`UPDATE oauth_connections SET tokens_sealed = (SELECT tokens_sealed FROM oauth_connections WHERE server_id = 'from') WHERE server_id = 'to'`,
    );
    const moved = await loadOAuthState(store.db, key, to, URL_A);
    expect(!moved.ok && moved.message).toMatch(/does not open .*Disconnect and Connect again/);
    const wrongKey = await loadOAuthState(store.db, newSecretKey(), from, URL_A);
    expect(wrongKey.ok).toBe(false);
    expect(await countOAuthSealedUnderOtherKey(store.db, "0000000000000000")).toBeGreaterThan(0);
  });

  test("two instances share the state; a refresh that lost the race does not wipe the winner's tokens", async () => {
    const other = second ?? store;
    const ref = { reviewId, serverId: "shared" };
    const none = { issuer: null, subject: null, grantedScope: null, expiresAt: null };
    await saveOAuthTokens(store.db, key, ref, URL_A, { access_token: "old" }, none);
    const a = await loadOAuthState(store.db, key, ref, URL_A);
    const b = await loadOAuthState(other.db, key, ref, URL_A);
    if (!a.ok || !a.state || !b.ok || !b.state) throw new Error("state not loaded");
    // Instance B refreshes and saves; instance A's refresh with the old refresh token then fails.
    await saveOAuthTokens(other.db, key, ref, URL_A, { access_token: "new" }, none);
    expect(
      await invalidateOAuthState(store.db, ref, "tokens", { ifVersion: a.state.version }),
    ).toBe(false);
    const seen = await loadOAuthState(store.db, key, ref, URL_A);
    expect(seen.ok && seen.state?.tokens).toEqual({ access_token: "new" });
    // Without a newer write the invalidation applies.
    const current = seen.ok ? seen.state!.version : -1;
    expect(await invalidateOAuthState(other.db, ref, "tokens", { ifVersion: current })).toBe(true);
    const cleared = await loadOAuthState(store.db, key, ref, URL_A);
    expect(cleared.ok && cleared.state?.tokens).toBeUndefined();
  });

  test("Disconnect deletes the server's state, registration included", async () => {
    const ref = { reviewId, serverId: "remote" };
    expect(await deleteOAuthState(store.db, ref)).toBe(true);
    expect(await loadOAuthState(store.db, key, ref, URL_A)).toEqual({ ok: true, state: null });
    expect((await listOAuthConnections(store.db, reviewId)).map((c) => c.serverId)).not.toContain(
      "remote",
    );
    expect(await deleteOAuthState(store.db, ref)).toBe(false);
  });

  test("a flow finishes once, for its own session, before it expires; the verifier is sealed", async () => {
    const now = new Date("2026-12-04T14:00:00Z");
    const ref = { reviewId, serverId: "remote" };
    await createOAuthFlow(store.db, key, {
      ...ref,
      state: "state-1",
      resourceUrl: URL_A,
      sessionCookieValue: SESSION,
      now,
    });
    await saveFlowVerifier(store.db, key, "state-1", VERIFIER);
    expect(await dump()).not.toContain(VERIFIER);
    expect(await dump()).not.toContain("state-1");

    expect(await consumeOAuthFlow(store.db, key, "state-x", SESSION, now)).toEqual({
      ok: false,
      reason: "unknown",
    });
    expect(await consumeOAuthFlow(store.db, key, "state-1", "v2.0.1.other.mac", now)).toEqual({
      ok: false,
      reason: "other_session",
    });
    const other = second ?? store;
    expect(await consumeOAuthFlow(other.db, key, "state-1", SESSION, now)).toEqual({
      ok: true,
      ref,
      resourceUrl: URL_A,
      codeVerifier: VERIFIER,
    });
    expect(await consumeOAuthFlow(store.db, key, "state-1", SESSION, now)).toEqual({
      ok: false,
      reason: "replayed",
    });

    await createOAuthFlow(store.db, key, {
      ...ref,
      state: "state-2",
      resourceUrl: URL_A,
      sessionCookieValue: SESSION,
      now,
    });
    await saveFlowVerifier(store.db, key, "state-2", VERIFIER);
    const late = new Date(now.getTime() + 11 * 60 * 1000);
    expect(await consumeOAuthFlow(store.db, key, "state-2", SESSION, late)).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  test("two callbacks with one state at once: exactly one proceeds", async () => {
    const other = second ?? store;
    await createOAuthFlow(store.db, key, {
      reviewId,
      serverId: "race",
      state: "state-race",
      resourceUrl: URL_A,
      sessionCookieValue: SESSION,
    });
    await saveFlowVerifier(store.db, key, "state-race", VERIFIER);
    const results = await Promise.all([
      consumeOAuthFlow(store.db, key, "state-race", SESSION),
      consumeOAuthFlow(other.db, key, "state-race", SESSION),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.find((r) => !r.ok)).toEqual({ ok: false, reason: "replayed" });
  });

  test("an inspection records who connected, the granted scopes and the expiry, and refuses a token field", async () => {
    const base = {
      reviewId,
      serverId: "remote",
      snapshotSha256: null,
      surfaceSha256: null,
      declaredCapabilities: [],
      status: "failed" as const,
    };
    await recordInspection(store.db, {
      ...base,
      authorization: {
        issuer: "http://127.0.0.1:3292",
        subject: "alice@example.com",
        scopes: ["knowledge:read"],
        expiresAt: "2026-12-04T15:00:00.000Z",
      },
    });
    const [inspection] = await listInspections(store.db, reviewId, "remote");
    expect(inspection?.authorization).toEqual({
      issuer: "http://127.0.0.1:3292",
      subject: "alice@example.com",
      scopes: ["knowledge:read"],
      expiresAt: "2026-12-04T15:00:00.000Z",
    });
    await expect(
      recordInspection(store.db, {
        ...base,
        authorization: {
          issuer: null,
          subject: null,
          scopes: [],
          expiresAt: null,
          access_token: ACCESS,
        } as never,
      }),
    ).rejects.toThrow();
    expect(await dump()).not.toContain(ACCESS);
  });
});
