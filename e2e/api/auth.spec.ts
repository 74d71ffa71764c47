/**
 * Owner-only access against the running app. The first test walks every route.ts (and page.tsx)
 * under app/ from the filesystem, so a route added later is covered without anyone remembering.
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import {
  expect,
  request as playwrightRequest,
  test,
  type APIRequestContext,
} from "@playwright/test";
import { ConflictDetailsSchema, ReviewRecordSchema } from "../../lib/reviews/record";
import { AppErrorBodySchema } from "../../lib/errors";
import { bearer, OWNER_TOKEN, proofHeadersOf, SESSION_COOKIE } from "../support/auth";

// Playwright runs from the repo root (where playwright.config.ts is).
const APP_DIR = path.resolve(process.cwd(), "app");
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
type Method = (typeof HTTP_METHODS)[number];

/** Paths that answer without the owner's credentials, and how they answer a request with none. */
const SIGN_IN_PATHS = new Set(["/api/auth/sign-in", "/sign-in"]);
const isSharePath = (p: string) => p.startsWith("/share/") || p.startsWith("/api/share/");

function walk(dir: string, file: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith("_")) out.push(...walk(full, file));
    else if (entry.isFile() && entry.name === file) out.push(full);
  }
  return out;
}

/** app/api/reviews/[id]/revisions/[revision]/route.ts → /api/reviews/e2e-dummy/revisions/1 */
function urlFor(file: string): string {
  const segments = path
    .relative(APP_DIR, path.dirname(file))
    .split(path.sep)
    .filter((s) => s !== "" && !/^\(.*\)$/.test(s) && !s.startsWith("@"))
    .map((s) => {
      if (/^\[\[\.\.\..+\]\]$/.test(s) || /^\[\.\.\..+\]$/.test(s)) return "e2e-dummy/more";
      if (/^\[.*(revision|number|index|page).*\]$/i.test(s)) return "1";
      if (/^\[.+\]$/.test(s)) return "e2e-dummy";
      return s;
    });
  return `/${segments.join("/")}`;
}

function exportedMethods(file: string): Method[] {
  const src = fs.readFileSync(file, "utf8");
  const found = new Set<Method>();
  for (const m of HTTP_METHODS) {
    if (new RegExp(`export\\s+(?:async\\s+)?(?:function|const|let|var)\\s+${m}\\b`).test(src))
      found.add(m);
  }
  for (const list of src.matchAll(/export\s*\{([^}]*)\}/g)) {
    for (const name of (list[1] ?? "").split(",").map(
      (s) =>
        s
          .trim()
          .split(/\s+as\s+/)
          .pop() ?? "",
    )) {
      if ((HTTP_METHODS as readonly string[]).includes(name)) found.add(name as Method);
    }
  }
  return [...found];
}

const ROUTES = walk(APP_DIR, "route.ts").map((f) => ({
  file: path.relative(APP_DIR, f),
  url: urlFor(f),
  methods: exportedMethods(f),
}));
const PAGES = walk(APP_DIR, "page.tsx").map((f) => ({
  file: path.relative(APP_DIR, f),
  url: urlFor(f),
}));

/**
 * The OAuth redirect_uri and the Client ID Metadata Document are public by design (lib/auth/check.ts):
 * without a state the callback is a 400 page, and over http there is no metadata document.
 */
const OAUTH_PUBLIC_STATUS = new Map([
  ["/oauth/callback", 400],
  ["/oauth/client-metadata.json", 404],
  // OpenID Connect sign-in is how a person gets credentials; this workbench has no provider set.
  ["/api/auth/oidc/start", 404],
  ["/api/auth/oidc/callback", 400],
  // A gate's reporting token is the credential of this route; an unknown one is not found.
  ["/api/report/e2e-dummy", 404],
]);

function sameOriginHeaders(baseURL: string) {
  return { Origin: new URL(baseURL).origin, "Sec-Fetch-Site": "same-origin" };
}

/** A raw request with an arbitrary Host header (Playwright's client derives Host from the URL). */
function rawRequest(
  baseURL: string,
  options: { method: string; path: string; headers: Record<string, string> },
) {
  const base = new URL(baseURL);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: options.method,
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test.describe("every route and page refuses a request without credentials", () => {
  test("the walk found the routes this suite knows about", () => {
    const urls = ROUTES.map((r) => r.url);
    for (const known of [
      "/api/reviews",
      "/api/reviews/e2e-dummy",
      "/api/reviews/e2e-dummy/revisions",
      "/api/auth/sign-in",
    ]) {
      expect(urls).toContain(known);
    }
    expect(
      ROUTES.every((r) => r.methods.length > 0),
      JSON.stringify(ROUTES),
    ).toBe(true);
  });

  for (const route of ROUTES) {
    for (const method of route.methods) {
      test(`${method} ${route.url} (${route.file})`, async ({ request, baseURL }) => {
        const res = await request.fetch(route.url, {
          method,
          headers: sameOriginHeaders(baseURL!),
          data: method === "GET" || method === "HEAD" || method === "OPTIONS" ? undefined : {},
          maxRedirects: 0,
        });
        if (SIGN_IN_PATHS.has(route.url)) {
          expect(res.status(), "sign-in answers a request without a token as a bad request").toBe(
            400,
          );
        } else if (OAUTH_PUBLIC_STATUS.has(route.url)) {
          expect(
            res.status(),
            "a public OAuth path answers, and holds nothing of the owner's",
          ).toBe(OAUTH_PUBLIC_STATUS.get(route.url));
        } else if (route.url === "/oauth/finish") {
          expect(res.status(), "the OAuth finish step is the owner's: sign in first").toBe(307);
        } else if (isSharePath(route.url)) {
          expect(res.status(), "a share path answers an unknown link token with 404").toBe(404);
        } else if (method === "OPTIONS") {
          expect([401, 405]).toContain(res.status());
        } else {
          expect(res.status()).toBe(401);
          if (method !== "HEAD")
            expect(AppErrorBodySchema.parse(await res.json()).error.code).toBe("UNAUTHORIZED");
        }
      });
    }
  }

  for (const page of PAGES) {
    test(`page ${page.url} (${page.file})`, async ({ request }) => {
      const res = await request.get(page.url, { maxRedirects: 0 });
      if (SIGN_IN_PATHS.has(page.url)) expect(res.status()).toBe(200);
      else if (isSharePath(page.url)) expect(res.status()).toBe(404);
      else {
        expect(res.status()).toBe(307);
        const location = new URL(res.headers()["location"] ?? "", "http://x");
        expect(location.pathname + location.search).toBe(
          `/sign-in?next=${encodeURIComponent(page.url)}`,
        );
      }
    });
  }
});

test.describe("Host and Origin", () => {
  test("a foreign Host (DNS rebinding) is refused even with the owner's token", async ({
    baseURL,
  }) => {
    const port = new URL(baseURL!).port;
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, "evil.example"]) {
      const res = await rawRequest(baseURL!, {
        method: "GET",
        path: "/api/reviews",
        headers: { Host: host, ...bearer },
      });
      expect(res.status, host).toBe(421);
      expect(res.body).not.toContain('reviews":[');
    }
    const ok = await rawRequest(baseURL!, {
      method: "GET",
      path: "/api/reviews",
      headers: { Host: `localhost:${port}`, ...bearer },
    });
    expect(ok.status).toBe(200);
  });

  test("a foreign Origin on a write is refused, with a cookie or a bearer", async ({ request }) => {
    const evil = { Origin: "http://evil.example" };
    expect(
      (
        await request.post("/api/reviews", {
          data: { demo: true },
          headers: { ...evil, ...bearer },
        })
      ).status(),
    ).toBe(403);
    expect(
      (
        await request.post("/api/auth/sign-in", { data: { token: OWNER_TOKEN }, headers: evil })
      ).status(),
    ).toBe(403);
  });

  test("a path that only looks like a share path does not reach the API", async ({ request }) => {
    for (const p of [
      "/share/..%2fapi%2freviews",
      "/api/share/..%2f..%2fapi%2freviews",
      "/share/%2e%2e/api/reviews",
    ]) {
      const res = await request.get(p, { maxRedirects: 0 });
      expect(res.status(), p).not.toBe(200);
      expect(await res.text()).not.toContain('"reviews":[');
    }
  });
});

test.describe("signing in", () => {
  let client: APIRequestContext;
  test.beforeEach(async ({ baseURL }) => {
    client = await playwrightRequest.newContext({ baseURL });
  });
  test.afterEach(async () => {
    await client.dispose();
  });

  test("the bearer token works for automation", async ({ request }) => {
    const res = await request.get("/api/reviews", { headers: bearer });
    expect(res.status()).toBe(200);
    expect(Array.isArray(((await res.json()) as { reviews: unknown[] }).reviews)).toBe(true);
    expect(
      (
        await request.get("/api/reviews", { headers: { Authorization: "Bearer not-the-token" } })
      ).status(),
    ).toBe(401);
  });

  test("a wrong token does not sign in", async () => {
    const res = await client.post("/api/auth/sign-in", {
      data: { token: "wrong-token-wrong-token-wrong-token" },
    });
    expect(res.status()).toBe(401);
    expect(res.headers()["set-cookie"]).toBeUndefined();
  });

  test("cookie sign-in: HttpOnly SameSite=Strict session, same-origin writes only, sign-out ends it", async ({
    baseURL,
  }) => {
    const res = await client.post("/api/auth/sign-in", { data: { token: OWNER_TOKEN } });
    expect(res.status()).toBe(204);
    const proof = proofHeadersOf(res);
    const setCookie = res.headers()["set-cookie"] ?? "";
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toContain(OWNER_TOKEN);
    expect(setCookie, "the origin proof never travels as a cookie").not.toContain(
      Object.values(proof)[0],
    );

    // The cookie alone opens nothing (it reaches every port of this host): the proof must come too.
    expect((await client.get("/api/reviews")).status()).toBe(401);
    expect((await client.get("/", { maxRedirects: 0 })).status()).toBe(307);
    expect((await client.get("/api/reviews", { headers: proof })).status()).toBe(200);
    expect((await client.get("/", { maxRedirects: 0, headers: proof })).status()).toBe(200);
    // Cookie and proof are not enough for a write: the request must show it comes from our own page.
    expect(
      (await client.post("/api/reviews", { data: { demo: true }, headers: proof })).status(),
    ).toBe(403);
    const created = await client.post("/api/reviews", {
      data: { demo: true },
      headers: { ...sameOriginHeaders(baseURL!), ...proof },
    });
    expect(created.status()).toBe(201);
    const { id } = ReviewRecordSchema.parse(await created.json());
    expect(
      (
        await client.delete(`/api/reviews/${id}`, {
          headers: { ...sameOriginHeaders(baseURL!), ...proof },
        })
      ).status(),
    ).toBe(204);

    const out = await client.post("/api/auth/sign-out", {
      headers: { ...sameOriginHeaders(baseURL!), ...proof },
    });
    expect(out.status()).toBe(204);
    expect(out.headers()["set-cookie"]).toMatch(/Max-Age=0/);
    expect((await client.get("/api/reviews", { headers: proof })).status()).toBe(401);
  });

  test("a 12-hour cookie; sign out everywhere ends every browser's session, and a new sign-in works", async ({
    baseURL,
  }) => {
    const one = await playwrightRequest.newContext({ baseURL });
    const two = await playwrightRequest.newContext({ baseURL });
    try {
      const proofs = new Map<typeof one, Record<string, string>>();
      for (const c of [one, two]) {
        const res = await c.post("/api/auth/sign-in", { data: { token: OWNER_TOKEN } });
        expect(res.status()).toBe(204);
        expect(res.headers()["set-cookie"]).toMatch(/Max-Age=43200/);
        proofs.set(c, proofHeadersOf(res));
        expect((await c.get("/api/reviews", { headers: proofs.get(c) })).status()).toBe(200);
      }
      const everywhere = await one.post("/api/auth/sign-out-everywhere", {
        headers: { ...sameOriginHeaders(baseURL!), ...proofs.get(one) },
      });
      expect(everywhere.status()).toBe(204);
      // The other browser did nothing, and is signed out too.
      expect((await two.get("/api/reviews", { headers: proofs.get(two) })).status()).toBe(401);
      expect((await one.get("/api/reviews", { headers: proofs.get(one) })).status()).toBe(401);
      const again = await two.post("/api/auth/sign-in", { data: { token: OWNER_TOKEN } });
      expect(again.status()).toBe(204);
      expect((await two.get("/api/reviews", { headers: proofHeadersOf(again) })).status()).toBe(
        200,
      );
      // The bearer token is not a session: automation keeps working.
      expect((await one.get("/api/reviews", { headers: bearer })).status()).toBe(200);
    } finally {
      await one.dispose();
      await two.dispose();
    }
  });

  test("the sign-in page signs in from the link's fragment", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL });
    try {
      const page = await context.newPage();
      await page.goto(
        `/sign-in?next=${encodeURIComponent("/")}#token=${encodeURIComponent(OWNER_TOKEN)}`,
      );
      await page.waitForURL((u) => u.pathname === "/" && u.hash === "");
      expect(
        (await context.cookies()).some(
          (c) => c.name === SESSION_COOKIE && c.httpOnly && c.sameSite === "Strict",
        ),
      ).toBe(true);
    } finally {
      await context.close();
    }
  });
});

test.describe("reviews API", () => {
  async function createMinimal(request: APIRequestContext, title = "e2e api review") {
    const res = await request.post("/api/reviews", {
      data: { review: { schemaVersion: 2, title } },
      headers: bearer,
    });
    expect(res.status()).toBe(201);
    return ReviewRecordSchema.parse(await res.json());
  }

  test("a save on a stale revision answers 409 with the current record", async ({ request }) => {
    const created = await createMinimal(request);
    const first = await request.put(`/api/reviews/${created.id}`, {
      data: { baseRevision: 1, review: { ...created.review, title: "mine" } },
      headers: bearer,
    });
    expect(first.status()).toBe(200);
    expect(ReviewRecordSchema.parse(await first.json()).revision).toBe(2);

    const stale = await request.put(`/api/reviews/${created.id}`, {
      data: { baseRevision: 1, review: { ...created.review, title: "theirs" } },
      headers: bearer,
    });
    expect(stale.status()).toBe(409);
    const body = AppErrorBodySchema.parse(await stale.json());
    expect(body.error.code).toBe("CONFLICT");
    const { current } = ConflictDetailsSchema.parse(body.error.details);
    expect(current).toMatchObject({ id: created.id, revision: 2, review: { title: "mine" } });

    const revisions = await request.get(`/api/reviews/${created.id}/revisions`, {
      headers: bearer,
    });
    expect(
      ((await revisions.json()) as { revisions: { revision: number }[] }).revisions.map(
        (r) => r.revision,
      ),
    ).toEqual([2, 1]);
    const r1 = await request.get(`/api/reviews/${created.id}/revisions/1`, { headers: bearer });
    expect(r1.status()).toBe(200);
    expect(((await r1.json()) as { review: { title: string } }).review.title).toBe(
      "e2e api review",
    );
    expect(
      (await request.get(`/api/reviews/${created.id}/revisions/9`, { headers: bearer })).status(),
    ).toBe(404);
    expect(
      (await request.get(`/api/reviews/${created.id}/revisions/x`, { headers: bearer })).status(),
    ).toBe(400);
  });

  test("a malformed body answers 400 naming each bad field's path", async ({ request }) => {
    const created = await createMinimal(request);
    const res = await request.put(`/api/reviews/${created.id}`, {
      data: {
        baseRevision: 1,
        review: {
          ...created.review,
          servers: [{ id: "s1", name: "", transport: { kind: "manual" } }],
        },
      },
      headers: bearer,
    });
    expect(res.status()).toBe(400);
    const body = AppErrorBodySchema.parse(await res.json());
    expect(body.error.issues?.map((i) => i.path)).toContain("review.servers.0.name");

    const post = await request.post("/api/reviews", {
      data: { review: { schemaVersion: 2, title: "" } },
      headers: bearer,
    });
    expect(post.status()).toBe(400);
    expect(AppErrorBodySchema.parse(await post.json()).error.issues?.map((i) => i.path)).toContain(
      "review.title",
    );

    const notJson = await request.post("/api/reviews", {
      data: "{not json",
      headers: { ...bearer, "Content-Type": "application/json" },
    });
    expect(notJson.status()).toBe(400);
    expect(AppErrorBodySchema.parse(await notJson.json()).error.code).toBe("BAD_REQUEST");

    const missingBase = await request.put(`/api/reviews/${created.id}`, {
      data: { review: created.review },
      headers: bearer,
    });
    expect(missingBase.status()).toBe(400);
    expect(
      AppErrorBodySchema.parse(await missingBase.json()).error.issues?.map((i) => i.path),
    ).toContain("baseRevision");

    const huge = await request.post("/api/reviews", {
      data: JSON.stringify({
        review: { schemaVersion: 2, title: "x", summary: "x".repeat(3 * 1024 * 1024) },
      }),
      headers: { ...bearer, "Content-Type": "application/json" },
    });
    expect(huge.status()).toBe(413);
    expect((await request.get(`/api/reviews/${created.id}`, { headers: bearer })).status()).toBe(
      200,
    );
  });

  test("an unknown id answers 404, a malformed id 400", async ({ request }) => {
    expect(
      (await request.get("/api/reviews/rev-does-not-exist", { headers: bearer })).status(),
    ).toBe(404);
    expect(
      (await request.delete("/api/reviews/rev-does-not-exist", { headers: bearer })).status(),
    ).toBe(404);
    const put = await request.put("/api/reviews/rev-does-not-exist", {
      data: { baseRevision: 1, review: { schemaVersion: 2, title: "x" } },
      headers: bearer,
    });
    expect(put.status()).toBe(404);
    const bad = await request.get(`/api/reviews/${encodeURIComponent("bad id!")}`, {
      headers: bearer,
    });
    expect(bad.status()).toBe(400);
    expect(AppErrorBodySchema.parse(await bad.json()).error.issues?.[0]?.path).toBe("id");
  });
});
