/**
 * Re-keying the secret store on both backends: every value re-sealed under the new master key in
 * one transaction — the secrets, the sealed OAuth connections (tokens and registrations) and the
 * open OAuth flows' verifiers — or nothing changed (a store half under each key, a row under a
 * third key, a damaged row in either table, the same key twice).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey, secretKeyId } from "@/lib/secrets/crypto";
import { openStore, type Store } from "@/lib/store/db";
import {
  consumeOAuthFlow,
  createOAuthFlow,
  loadOAuthState,
  saveFlowVerifier,
  saveOAuthClient,
  saveOAuthTokens,
} from "@/lib/store/oauth";
import { createReview } from "@/lib/store/reviews";
import {
  checkStoredKey,
  checkStoredSecrets,
  openSecrets,
  rekeySecrets,
  setSecret,
} from "@/lib/store/secrets";
import { oauthConnections, oauthFlows, secrets } from "@/lib/store/tables";
import { BACKENDS } from "./support/backends";

const VALUES = {
  A_TOKEN: "ghp_rekeyTestValue00000000000000000000001",
  B_TOKEN: "glpat-rekeyTestValue0000000002",
  C_TOKEN: "a plain value with spaces",
};
const ACCESS = "at_rekeyTest_0123456789abcdefACCESS";
const REFRESH = "rt_rekeyTest_0123456789abcdefREFRESH";
const CLIENT_SECRET = "cs_rekeyTest_0123456789abcdefSECRET";
const VERIFIER = "pkce_rekeyTest_0123456789abcdef0123456789abcdefVERIFIER";
const MCP_URL = "http://127.0.0.1:3297/mcp";
const SESSION = "v2.0.1999999999.rekey-test.mac";
const FACTS = { issuer: null, subject: null, grantedScope: "read", expiresAt: null };

describe.each(BACKENDS)("re-keying the secret store on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  const oldKey = newSecretKey();
  const newKey = newSecretKey();

  let reviewId: string;
  const ref = () => ({ reviewId, serverId: "kb" });

  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (
      await createReview(store.db, { schemaVersion: REVIEW_SCHEMA_VERSION, title: "rekey" }, "t")
    ).id;
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });
  beforeEach(async () => {
    await store.db.delete(secrets);
    for (const [name, value] of Object.entries(VALUES))
      await setSecret(store.db, oldKey, name, value);
    // One connected server (registration and tokens sealed), one open flow, one finished flow.
    await store.db.delete(oauthConnections);
    await store.db.delete(oauthFlows);
    await saveOAuthClient(store.db, oldKey, ref(), MCP_URL, {
      client_id: "c1",
      client_secret: CLIENT_SECRET,
    });
    await saveOAuthTokens(
      store.db,
      oldKey,
      ref(),
      MCP_URL,
      { access_token: ACCESS, refresh_token: REFRESH, token_type: "Bearer" },
      FACTS,
    );
    for (const state of ["open-state", "finished-state"]) {
      await createOAuthFlow(store.db, oldKey, {
        ...ref(),
        state,
        resourceUrl: MCP_URL,
        sessionCookieValue: SESSION,
      });
      await saveFlowVerifier(store.db, oldKey, state, VERIFIER);
    }
    expect((await consumeOAuthFlow(store.db, oldKey, "finished-state", SESSION)).ok).toBe(true);
  });

  const rows = async () => ({
    secrets: (await store.db.select().from(secrets)).sort((a, b) => a.name.localeCompare(b.name)),
    connections: await store.db.select().from(oauthConnections),
    flows: (await store.db.select().from(oauthFlows)).sort((a, b) =>
      a.stateHash.localeCompare(b.stateHash),
    ),
  });
  const names = Object.keys(VALUES);

  test("every value is re-sealed under the new key: it opens with the new key only, and the start-up check passes", async () => {
    const withNew = { ok: true as const, key: newKey, keyId: secretKeyId(newKey) };
    const withOld = { ok: true as const, key: oldKey, keyId: secretKeyId(oldKey) };
    expect(await checkStoredKey(store.db, withOld)).toEqual({ ok: true, stored: 4 });
    expect(await rekeySecrets(store.db, oldKey, newKey)).toEqual({
      ok: true,
      rekeyed: 3,
      alreadyUnderNewKey: 0,
      oauth: { connections: 1, alreadyUnderNewKey: 0, flows: 1 },
    });
    const after = await rows();
    expect(after.secrets.map((r) => r.keyId)).toEqual(Array(3).fill(secretKeyId(newKey)));
    expect(after.connections.map((r) => r.keyId)).toEqual([secretKeyId(newKey)]);
    const opened = await openSecrets(store.db, newKey, names);
    expect(opened.ok && Object.fromEntries(opened.values)).toEqual(VALUES);
    expect((await openSecrets(store.db, oldKey, names)).ok).toBe(false);
    // The OAuth connection opens with the new key only, unchanged.
    const oauth = await loadOAuthState(store.db, newKey, ref(), MCP_URL);
    expect(oauth.ok && oauth.state).toMatchObject({
      clientInformation: { client_id: "c1", client_secret: CLIENT_SECRET },
      tokens: { access_token: ACCESS, refresh_token: REFRESH },
    });
    expect((await loadOAuthState(store.db, oldKey, ref(), MCP_URL)).ok).toBe(false);
    // The open flow finishes under the new key; the finished one's verifier is gone.
    expect(await consumeOAuthFlow(store.db, newKey, "open-state", SESSION)).toMatchObject({
      ok: true,
      codeVerifier: VERIFIER,
    });
    expect(after.flows.filter((f) => f.verifierSealed !== null)).toHaveLength(1);
    expect(await checkStoredKey(store.db, withNew)).toEqual({ ok: true, stored: 4 });
    expect(await checkStoredKey(store.db, withOld)).toMatchObject({ ok: false });
    // No value is in any row as text.
    const text = JSON.stringify(
      await store.db.execute(
        sql`SELECT (SELECT string_agg(s::text, E'\n') FROM secrets s) || (SELECT string_agg(c::text, E'\n') FROM oauth_connections c) || (SELECT string_agg(f::text, E'\n') FROM oauth_flows f) AS row`,
      ),
    );
    expect(text).toContain(MCP_URL); // the dump is real: it holds the connection row
    for (const v of [...Object.values(VALUES), ACCESS, REFRESH, CLIENT_SECRET, VERIFIER])
      expect(text).not.toContain(v);
    // Run again: nothing left to do.
    expect(await rekeySecrets(store.db, oldKey, newKey)).toEqual({
      ok: true,
      rekeyed: 0,
      alreadyUnderNewKey: 3,
      oauth: { connections: 0, alreadyUnderNewKey: 1, flows: 0 },
    });
  });

  test.each([
    {
      what: "the same key twice",
      prepare: () => Promise.resolve(),
      same: true,
      message: "the same key",
    },
    {
      what: "a store half under each key",
      prepare: () => setSecret(store.db, newKey, "B_TOKEN", VALUES.B_TOKEN).then(() => undefined),
      same: false,
      message: "half re-keyed: 1 of 4",
    },
    {
      what: "a row under a third key",
      prepare: () =>
        setSecret(store.db, newSecretKey(), "C_TOKEN", VALUES.C_TOKEN).then(() => undefined),
      same: false,
      message: "sealed under neither key (C_TOKEN)",
    },
    {
      what: "a damaged row (the last one, after two re-sealed in the same transaction)",
      prepare: async () => {
        await store.db.execute(
          sql`UPDATE secrets SET sealed = ${Buffer.alloc(40, 7).toString("base64")} WHERE name = 'C_TOKEN'`,
        );
      },
      same: false,
      message: "the stored secret C_TOKEN does not open with the old key",
    },
    {
      what: "a damaged OAuth connection (after the secrets are checked, in the same transaction)",
      prepare: async () => {
        await store.db.execute(
          sql`UPDATE oauth_connections SET tokens_sealed = split_part(tokens_sealed, '.', 1) || '.' || ${Buffer.alloc(40, 7).toString("base64")}`,
        );
      },
      same: false,
      message: `the sealed OAuth connection of review ${"$"}{reviewId}, server kb (table oauth_connections) does not open with the old key`,
    },
    {
      what: "an OAuth connection under a third key",
      prepare: async () => {
        await saveOAuthTokens(
          store.db,
          newSecretKey(),
          ref(),
          MCP_URL,
          { access_token: "x" },
          FACTS,
        );
      },
      same: false,
      message: "1 sealed OAuth connection(s) in oauth_connections are sealed under neither key",
    },
    {
      what: "OAuth connections already under the new key, secrets under the old",
      prepare: async () => {
        await store.db.delete(oauthConnections);
        await saveOAuthClient(store.db, newKey, ref(), MCP_URL, { client_id: "c1" });
      },
      same: false,
      message: "half re-keyed: 1 of 4 secret(s) and sealed OAuth connection(s)",
    },
  ])("refused, with nothing changed: $what", async ({ prepare, same, message }) => {
    await prepare();
    const before = await rows();
    const r = await rekeySecrets(store.db, oldKey, same ? oldKey : newKey);
    expect(r.ok ? "(re-keyed)" : r.message).toContain(message.replace("${reviewId}", reviewId));
    expect(await rows()).toEqual(before);
  });
});

describe.each(BACKENDS)("the start-up key check opens a sealed OAuth row on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  let reviewId: string;
  const key = newSecretKey();
  const withKey = (k: Buffer) => ({ ok: true as const, key: k, keyId: secretKeyId(k) });

  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    reviewId = (
      await createReview(store.db, { schemaVersion: REVIEW_SCHEMA_VERSION, title: "check" }, "t")
    ).id;
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });
  beforeEach(async () => {
    await store.db.delete(secrets);
    await store.db.delete(oauthConnections);
  });

  test("no secret and no sealed OAuth row: any key, or none, starts", async () => {
    expect(await checkStoredKey(store.db, withKey(newSecretKey()))).toEqual({
      ok: true,
      stored: 0,
    });
    expect(await checkStoredKey(store.db, { ok: false, message: "no key" })).toEqual({
      ok: true,
      stored: 0,
    });
  });

  test("tokens sealed and no secret at all: the wrong key, no key, or a damaged row stop the start naming oauth_connections", async () => {
    const ref = { reviewId, serverId: "kb" };
    await saveOAuthTokens(store.db, key, ref, MCP_URL, { access_token: ACCESS }, FACTS);
    expect(await checkStoredKey(store.db, withKey(key))).toEqual({ ok: true, stored: 1 });

    const other = await checkStoredKey(store.db, withKey(newSecretKey()));
    expect(!other.ok && other.message).toMatch(
      /^1 of the 1 sealed OAuth connection\(s\) \(table oauth_connections\) were sealed under another key .*RELAY_REVIEW_SECRET_KEY.*; if that key is lost, delete those rows from oauth_connections/,
    );
    const none = await checkStoredKey(store.db, { ok: false, message: "no key was given" });
    expect(!none.ok && none.message).toBe(
      "the database holds 1 sealed OAuth connection(s) (table oauth_connections) but this instance has no key to open them: no key was given",
    );
    await store.db.execute(
      sql`UPDATE oauth_connections SET tokens_sealed = split_part(tokens_sealed, '.', 1) || '.' || ${Buffer.alloc(40, 7).toString("base64")}`,
    );
    const damaged = await checkStoredKey(store.db, withKey(key));
    expect(!damaged.ok && damaged.message).toBe(
      `the sealed OAuth connection of review ${reviewId}, server kb (table oauth_connections) does not open with this instance's key although its key id matches: the row is damaged; delete it from oauth_connections (that server then needs Connect again)`,
    );
    for (const r of [other, none, damaged]) expect(JSON.stringify(r)).not.toContain(ACCESS);
  });

  test("a row with only public discovery state is not sealed: it does not need the key", async () => {
    await store.db.insert(oauthConnections).values({
      reviewId,
      serverId: "discovered",
      resourceUrl: MCP_URL,
      keyId: "0000000000000000",
      discovery: { authorizationServerUrl: "http://127.0.0.1:1/" },
    });
    expect(await checkStoredKey(store.db, withKey(key))).toEqual({ ok: true, stored: 0 });
  });

  test("the secrets are checked first; a good secret does not hide an OAuth row under another key", async () => {
    await setSecret(store.db, key, "A_TOKEN", VALUES.A_TOKEN);
    await saveOAuthTokens(
      store.db,
      newSecretKey(),
      { reviewId, serverId: "kb" },
      MCP_URL,
      { access_token: ACCESS },
      FACTS,
    );
    expect(await checkStoredSecrets(store.db, withKey(key))).toEqual({ ok: true, stored: 1 });
    const r = await checkStoredKey(store.db, withKey(key));
    expect(!r.ok && r.message).toContain("(table oauth_connections) were sealed under another key");
  });
});
