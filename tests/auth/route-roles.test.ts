/**
 * Every route checks the role (issue 29 item 2), in one place: the proxy, with the table in
 * lib/auth/roles.ts. This test walks every route file under app/ and every method it exports, and
 * sends each through the real proxy as each role — a person whose session is found in the store
 * (PGlite, and PostgreSQL when TEST_DATABASE_URL is set) — and as the owner token. A viewer gets
 * 403 on every write but signing out; nobody gets past the proxy with less than the table's role.
 * A write whose route has no rule in the table fails here: the fail-closed default (admin) is a
 * safety net, not a decision.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NextRequest } from "next/server";
import { newPersonSessionId } from "@/lib/auth/people";
import { personKey, PRINCIPAL_HEADER } from "@/lib/auth/principal";
import { hasRole, requiredRole, ROLES, ROUTE_ROLES, type Role } from "@/lib/auth/roles";
import { createSessionValue, SESSION_PROOF_HEADER, sessionProofOf } from "@/lib/auth/session";
import { registerSessionStandingReader } from "@/lib/auth/session-epoch";
import { sessionStanding } from "@/lib/auth/session-epoch-store";
import { isExemptPath } from "@/lib/auth/check";
import { openStore, type Store } from "@/lib/store/db";
import { openPersonSession, upsertPersonAtSignIn, withPerson } from "@/lib/auth/people-store";
import { BACKENDS } from "@/tests/store/support/backends";

const TOKEN = "an-owner-token-for-the-route-role-test-0123456789";
process.env.RELAY_REVIEW_TOKEN = TOKEN;
const { proxy } = await import("@/proxy");

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const SAMPLE: Record<string, string> = {
  id: "rev-demo",
  decisionId: "dec-0123456789abcdef",
  serverId: "srv-knowledge",
  revision: "1",
  kind: "json",
  linkId: "shl-0123",
  name: "API_TOKEN",
  token: "t".repeat(43),
  person: encodeURIComponent("https://idp.example#alice"),
};

/** Every route file as a concrete path and the methods it exports. */
function routes(): { path: string; methods: string[] }[] {
  const out: { path: string; methods: string[] }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name === "route.ts") {
        const text = fs.readFileSync(full, "utf8");
        const methods = METHODS.filter((m) =>
          new RegExp(`export (const|async function|function) ${m}\\b`).test(text),
        );
        const rel = path.relative(path.join(ROOT, "app"), path.dirname(full));
        const concrete = `/${rel
          .split(path.sep)
          .map((seg) => {
            const m = /^\[(.+)\]$/.exec(seg);
            return m ? (SAMPLE[m[1]!] ?? "x") : seg;
          })
          .join("/")}`;
        out.push({ path: concrete, methods: [...methods] });
      }
    }
  };
  walk(path.join(ROOT, "app"));
  return out;
}

const ALL = routes();
const isWrite = (m: string) => m !== "GET";

test("the walk finds the routes (a sanity floor), and every write has a rule of its own", () => {
  expect(ALL.length).toBeGreaterThan(40);
  const unruled = ALL.flatMap((r) =>
    r.methods
      .filter((m) => isWrite(m) && !isExemptPath(r.path))
      .filter(
        (m) =>
          !ROUTE_ROLES.some(
            (rule) =>
              rule.pattern.split("/").length === r.path.split("/").length &&
              rule.pattern
                .split("/")
                .every((seg, i) => seg.startsWith(":") || seg === r.path.split("/")[i]) &&
              rule.methods[m as keyof typeof rule.methods] !== undefined,
          ),
      )
      .map((m) => `${m} ${r.path}`),
  );
  expect(unruled).toEqual([]);
});

describe.each(BACKENDS)("every route × role through the proxy on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  const cookies = new Map<Role, Record<string, string>>();
  // A session is its cookie together with its origin proof (docs/security.md).
  const sessionHeaders = (value: string) => ({
    cookie: `relay_review_session=${value}`,
    [SESSION_PROOF_HEADER]: sessionProofOf(value, TOKEN),
  });
  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
    registerSessionStandingReader(async (id) =>
      withPerson(store.db, id, await sessionStanding(store.db, id)),
    );
    const now = Date.now();
    for (const role of ROLES) {
      const person = await upsertPersonAtSignIn(store.db, {
        issuer: "http://127.0.0.1:1/idp",
        subject: `user-${role}`,
        name: `A ${role}`,
        email: null,
        groups: [`g-${role}`],
        idpRole: role,
      });
      const sid = newPersonSessionId();
      await openPersonSession(store.db, sid, personKey(person), now + 3600_000, now);
      cookies.set(role, sessionHeaders(createSessionValue(TOKEN, now, 3600, "0", sid)));
    }
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  const send = (method: string, p: string, headers: Record<string, string>) =>
    proxy(
      new NextRequest(`http://127.0.0.1:3000${p}`, {
        method,
        headers: {
          host: "127.0.0.1:3000",
          ...(isWrite(method)
            ? { origin: "http://127.0.0.1:3000", "sec-fetch-site": "same-origin" }
            : {}),
          ...headers,
        },
      }),
    );

  test.each(ROLES)("as a %s: 403 exactly where the table asks for more", async (role) => {
    const refused: string[] = [];
    const wrong: string[] = [];
    for (const r of ALL) {
      if (isExemptPath(r.path)) continue;
      for (const m of r.methods) {
        const res = await send(m, r.path, {
          ...cookies.get(role)!,
          // A client's own claim to be someone is discarded, never believed.
          [PRINCIPAL_HEADER]: Buffer.from('{"kind":"owner_token"}').toString("base64url"),
        });
        const allowed = hasRole(role, requiredRole(m, r.path));
        const passed = res.headers.get("x-middleware-next") === "1";
        if (res.status === 403) refused.push(`${m} ${r.path}`);
        if (passed !== allowed || (!allowed && res.status !== 403))
          wrong.push(`${m} ${r.path}: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
    // What the handler is told: this person, not the owner the client claimed to be.
    const res = await send("GET", "/api/reviews", {
      ...cookies.get(role)!,
      [PRINCIPAL_HEADER]: Buffer.from('{"kind":"owner_token"}').toString("base64url"),
    });
    const told = res.headers.get(`x-middleware-request-${PRINCIPAL_HEADER}`);
    expect(JSON.parse(Buffer.from(told!, "base64url").toString("utf8"))).toMatchObject({
      kind: "person",
      subject: `user-${role}`,
      role,
    });
    if (role === "viewer") {
      const writes = ALL.flatMap((r) =>
        isExemptPath(r.path) ? [] : r.methods.filter(isWrite).map((m) => `${m} ${r.path}`),
      );
      // Every write but signing out is refused; so are the admin's and reviewers' reads (secrets, webhooks, people, the audit export).
      expect(writes.filter((w) => !refused.includes(w))).toEqual(["POST /api/auth/sign-out"]);
      expect(refused.filter((w) => w.startsWith("GET ")).sort()).toEqual([
        "GET /api/audit/export",
        "GET /api/people",
        "GET /api/secrets",
        "GET /api/webhooks",
        "GET /oauth/finish",
      ]);
    }
    if (role === "admin") expect(refused).toEqual([]);
  });

  test("the owner token (bearer) is admin everywhere; a person with no role is refused everywhere", async () => {
    const now = Date.now();
    const nobody = await upsertPersonAtSignIn(store.db, {
      issuer: "http://127.0.0.1:1/idp",
      subject: "user-none",
      name: "Nobody",
      email: null,
      groups: [],
      idpRole: null,
    });
    const sid = newPersonSessionId();
    await openPersonSession(store.db, sid, personKey(nobody), now + 3600_000, now);
    const noRole = sessionHeaders(createSessionValue(TOKEN, now, 3600, "0", sid));
    const { registerOwnerTokenUseLogger } = await import("@/lib/auth/owner-token-use");
    registerOwnerTokenUseLogger(async () => {});
    for (const r of ALL) {
      if (isExemptPath(r.path)) continue;
      for (const m of r.methods) {
        const bearer = await send(m, r.path, { authorization: `Bearer ${TOKEN}` });
        expect(bearer.headers.get("x-middleware-next"), `${m} ${r.path}`).toBe("1");
        const none = await send(m, r.path, noRole);
        expect(none.status, `${m} ${r.path}`).toBe(403);
      }
    }
  });

  test("a person's session whose record is gone is signed out, never taken for the owner", async () => {
    const sid = newPersonSessionId();
    const res = await send(
      "GET",
      "/api/reviews",
      sessionHeaders(createSessionValue(TOKEN, Date.now(), 3600, "0", sid)),
    );
    expect(res.status).toBe(401);
  });
});
