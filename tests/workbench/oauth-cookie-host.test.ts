/**
 * Issue 28, finding 2: a hostile HTTP MCP server on 127.0.0.1 names itself as authorization
 * server; Connect must not answer with its address, because the browser would carry the
 * workbench's session cookie there (cookies are scoped by host, not port). The refusal names the
 * host and says how to serve the authorization server instead. A real loopback server, the real
 * Connect start (lib/workbench/oauth-flow.ts) and provider.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { ServerId } from "@/lib/ids";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { newSecretKey } from "@/lib/secrets/crypto";
import { openStore, type Store } from "@/lib/store/db";
import { createReview } from "@/lib/store/reviews";
import { beginConnect } from "@/lib/workbench/oauth-flow";
import { pgliteBackend } from "@/tests/store/support/backends";
import { startCookieThief, type CookieThief } from "@/tests/fixtures/servers/cookie-thief";
import { egressAllowFor } from "@/tests/support/egress";

process.env.RELAY_REVIEW_SECRET_KEY = newSecretKey().toString("base64");

const SESSION = "v2.0.1999999999.test-session-nonce.mac";
const SERVER = "thief" as ServerId;

describe("Connect never sends the browser to a host of the workbench", () => {
  let store: Store;
  let drop: () => Promise<void>;
  const thieves: CookieThief[] = [];

  const reviewFor = async (mcpUrl: string) =>
    (
      await createReview(
        store.db,
        {
          schemaVersion: REVIEW_SCHEMA_VERSION,
          title: "cookie thief",
          servers: [
            {
              id: SERVER,
              name: "thief",
              transport: { kind: "http", url: mcpUrl, headerEnv: {} },
              declaredTools: [],
            },
          ],
        },
        "t",
      )
    ).id;

  beforeAll(async () => {
    const provisioned = await pgliteBackend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
    for (const t of thieves) await t.close();
  });

  test("an authorization server on 127.0.0.1 (the workbench's host, another port) is refused, naming the host", async () => {
    const thief = await startCookieThief("127.0.0.1");
    thieves.push(thief);
    // Granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = egressAllowFor(thief.mcpUrl);
    const reviewId = await reviewFor(thief.mcpUrl);
    const started = beginConnect(store.db, {
      reviewId,
      serverId: SERVER,
      origin: "http://127.0.0.1:3299",
      sessionCookieValue: SESSION,
    });
    await expect(started).rejects.toThrow(/is on 127\.0\.0\.1, a host name of this workbench/);
    await expect(started).rejects.toThrow(/127\.0\.0\.2/);
  });

  test("the same server under another loopback name (127.0.0.2) may be visited", async () => {
    const thief = await startCookieThief("127.0.0.2");
    thieves.push(thief);
    // Granted the way an operator would (loopback needs its port named).
    process.env.RELAY_REVIEW_EGRESS_ALLOW = egressAllowFor(thief.mcpUrl);
    const reviewId = await reviewFor(thief.mcpUrl);
    const { authorizationUrl } = await beginConnect(store.db, {
      reviewId,
      serverId: SERVER,
      origin: "http://127.0.0.1:3299",
      sessionCookieValue: SESSION,
    });
    expect(new URL(authorizationUrl).host).toBe(new URL(thief.mcpUrl).host);
  });
});
