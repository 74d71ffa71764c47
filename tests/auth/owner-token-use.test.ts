/**
 * Break-glass: every use of the owner token as a principal is in the audit log. The real proxy
 * (proxy.ts) with a bearer owner token logs the use (method and path, never the query) as an
 * `auth.owner_token` event by the owner token before letting the request through, and refuses
 * the request (503) when the use cannot be logged; a cookie session is not logged per request.
 * The sign-in route logs the sign-in that opens a session, and a wrong token logs nothing.
 * A real PGlite store in a temp data folder.
 */
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { registerOwnerTokenUseLogger } from "@/lib/auth/owner-token-use";
import type * as StoreDb from "@/lib/store/db";
import type * as StoreEvents from "@/lib/store/events";

const TOKEN = "owner-token-for-the-break-glass-test-0123456789";
const dataDir = mkdtempSync(path.join(tmpdir(), "rr-owner-use-"));
process.env.RELAY_REVIEW_DATA = dataDir;
process.env.RELAY_REVIEW_TOKEN = TOKEN;
delete process.env.DATABASE_URL;

let store: typeof StoreDb & typeof StoreEvents;
let proxy: (request: NextRequest) => Promise<Response>;
let signIn: (request: Request) => Promise<Response>;

beforeAll(async () => {
  store = { ...(await import("@/lib/store/db")), ...(await import("@/lib/store/events")) };
  proxy = (await import("@/proxy")).proxy;
  signIn = (await import("@/app/api/auth/sign-in/route")).POST as typeof signIn;
}, 60_000);
afterAll(async () => {
  await store?.closeStore();
  await rm(dataDir, { recursive: true, force: true });
});

const uses = async () =>
  (await store.listEvents(await store.getDb(), "owner", { kind: "auth.owner_token" })).events;

const bearer = (pathAndQuery: string) =>
  new NextRequest(`http://127.0.0.1:3000${pathAndQuery}`, {
    headers: { authorization: `Bearer ${TOKEN}`, host: "127.0.0.1:3000" },
  });

describe("owner token uses", () => {
  test("refused when the use cannot be logged (no logger registered)", async () => {
    const res = await proxy(bearer("/api/events"));
    expect(res.status).toBe(503);
    expect(await uses()).toEqual([]);
  });

  test("a bearer request is logged, by the owner token, with its method and path and no query", async () => {
    registerOwnerTokenUseLogger(async (use) => store.logOwnerTokenUse(await store.getDb(), use));
    const res = await proxy(bearer("/api/reviews/rev-1/state?secret=not-logged"));
    expect(res.status).toBe(200);
    const [logged] = await uses();
    expect(logged).toMatchObject({
      actorKind: "owner_token",
      actor: "owner",
      summary: "Owner token used as bearer (break-glass): GET /api/reviews/rev-1/state",
      detail: { via: "bearer", method: "GET", path: "/api/reviews/rev-1/state" },
    });
    expect(JSON.stringify(logged)).not.toContain("not-logged");
    // A wrong bearer is refused by the proxy and is not a use of the owner token.
    const wrong = new NextRequest("http://127.0.0.1:3000/api/events", {
      headers: { authorization: "Bearer not-the-token", host: "127.0.0.1:3000" },
    });
    expect((await proxy(wrong)).status).toBe(401);
    expect(await uses()).toHaveLength(1);
  });

  test("a sign-in with the owner token is logged; a wrong token logs nothing", async () => {
    const post = (token: string) =>
      signIn(
        new Request("http://127.0.0.1:3000/api/auth/sign-in", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ token }),
        }),
      );
    const before = (await uses()).length;
    expect((await post("not-the-token")).status).toBe(401);
    expect(await uses()).toHaveLength(before);
    expect((await post(TOKEN)).status).toBe(204);
    const all = await uses();
    expect(all).toHaveLength(before + 1);
    expect(all.find((e) => e.detail.via === "sign-in")).toMatchObject({
      actorKind: "owner_token",
      summary: "Signed in with the owner token (break-glass)",
    });
  });
});
