import { describe, expect, test } from "vitest";
import { allowedHostsFor, checkRequest, isAllowedHost, type AuthConfig } from "@/lib/auth/check";
import { safeNextPath } from "@/lib/auth/next-path";
import {
  createSessionValue,
  SESSION_COOKIE,
  SESSION_PROOF_HEADER,
  SESSION_TTL_SECONDS,
  sessionProofOf,
} from "@/lib/auth/session";

const TOKEN = "owner-token-for-unit-tests-0123456789abcdef";
const NOW = Date.parse("2026-06-01T12:00:00Z");
const config: AuthConfig = {
  ownerToken: TOKEN,
  allowedHosts: allowedHostsFor("3100", "review.internal, box.lan:8443"),
};
const session = createSessionValue(TOKEN, NOW);
const foreignSession = createSessionValue("someone-elses-token-0123456789abcdef0123", NOW);
const expiredSession = createSessionValue(TOKEN, NOW - 13 * 3600 * 1000);
/** The origin proof the sign-in page keeps; a browser sends it only to the workbench's origin. */
const PROOF = sessionProofOf(session, TOKEN);
const proofOf = (value: string) => ({ [SESSION_PROOF_HEADER]: sessionProofOf(value, TOKEN) });

const H = "127.0.0.1:3100";
const SELF = `http://${H}`;
type Row = [
  name: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  expected: string,
];

/** expected: "allow:<via>", "<status>", or "redirect". */
const ROWS: Row[] = [
  // Host: DNS rebinding
  [
    "loopback v4 on the port",
    "GET",
    "/api/reviews",
    { host: H, authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "localhost on the port",
    "GET",
    "/api/reviews",
    { host: "localhost:3100", authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "[::1] on the port",
    "GET",
    "/api/reviews",
    { host: "[::1]:3100", authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "loopback on another port",
    "GET",
    "/api/reviews",
    { host: "127.0.0.1:3101", authorization: `Bearer ${TOKEN}` },
    "421",
  ],
  [
    "rebinding host",
    "GET",
    "/api/reviews",
    { host: "evil.example:3100", authorization: `Bearer ${TOKEN}` },
    "421",
  ],
  ["rebinding host on an exempt path", "GET", "/sign-in", { host: "evil.example:3100" }, "421"],
  ["no host", "GET", "/api/reviews", { authorization: `Bearer ${TOKEN}` }, "421"],
  ["garbage host", "GET", "/", { host: "a b" }, "421"],
  [
    "configured host, any port",
    "GET",
    "/api/reviews",
    { host: "review.internal", authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "configured host:port",
    "GET",
    "/api/reviews",
    { host: "box.lan:8443", authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "configured host, wrong port",
    "GET",
    "/api/reviews",
    { host: "box.lan:8444", authorization: `Bearer ${TOKEN}` },
    "421",
  ],
  [
    "host is case-insensitive",
    "GET",
    "/api/reviews",
    { host: "LOCALHOST:3100", authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],

  // Credentials
  ["no credentials, api", "GET", "/api/reviews", { host: H }, "401"],
  ["no credentials, page", "GET", "/reviews/x", { host: H }, "redirect"],
  [
    "no credentials, page POST (server action)",
    "POST",
    "/reviews/x",
    { host: H, origin: SELF },
    "401",
  ],
  ["wrong bearer", "GET", "/api/reviews", { host: H, authorization: "Bearer nope" }, "401"],
  [
    "wrong bearer beats a good cookie",
    "GET",
    "/api/reviews",
    {
      host: H,
      authorization: "Bearer nope",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "401",
  ],
  [
    "basic auth is not a bearer",
    "GET",
    "/api/reviews",
    { host: H, authorization: `Basic ${TOKEN}` },
    "401",
  ],
  [
    "bearer, lower-case scheme",
    "GET",
    "/api/reviews",
    { host: H, authorization: `bearer ${TOKEN}` },
    "allow:bearer",
  ],
  // Issue 28, finding 2: the cookie reaches every port of this host; only the proof is ours.
  [
    "session cookie without its origin proof, API",
    "GET",
    "/api/reviews",
    { host: H, cookie: `${SESSION_COOKIE}=${session}` },
    "401",
  ],
  [
    "session cookie without its origin proof, page",
    "GET",
    "/reviews/x",
    { host: H, cookie: `${SESSION_COOKIE}=${session}`, "sec-fetch-site": "same-origin" },
    "redirect",
  ],
  [
    "session cookie without its origin proof, write with this origin",
    "POST",
    "/api/reviews",
    {
      host: H,
      origin: SELF,
      "sec-fetch-site": "same-origin",
      cookie: `${SESSION_COOKIE}=${session}`,
    },
    "401",
  ],
  [
    "session cookie with another session's proof",
    "GET",
    "/api/reviews",
    { host: H, cookie: `${SESSION_COOKIE}=${session}`, ...proofOf(createSessionValue(TOKEN, NOW)) },
    "401",
  ],
  [
    "origin proof without a cookie",
    "GET",
    "/api/reviews",
    { host: H, [SESSION_PROOF_HEADER]: PROOF },
    "401",
  ],
  [
    "session worker script (holds no secret)",
    "GET",
    "/session-worker.js",
    { host: H },
    "allow:exempt",
  ],
  [
    "session cookie",
    "GET",
    "/api/reviews",
    { host: H, cookie: `a=b; ${SESSION_COOKIE}=${session}`, [SESSION_PROOF_HEADER]: PROOF },
    "allow:session",
  ],
  [
    "session cookie, page",
    "GET",
    "/",
    { host: H, cookie: `${SESSION_COOKIE}=${session}`, [SESSION_PROOF_HEADER]: PROOF },
    "allow:session",
  ],
  [
    "cookie signed with another token",
    "GET",
    "/api/reviews",
    { host: H, cookie: `${SESSION_COOKIE}=${foreignSession}` },
    "401",
  ],
  [
    "expired cookie",
    "GET",
    "/api/reviews",
    { host: H, cookie: `${SESSION_COOKIE}=${expiredSession}`, ...proofOf(expiredSession) },
    "401",
  ],
  [
    "tampered cookie",
    "GET",
    "/api/reviews",
    {
      host: H,
      cookie: `${SESSION_COOKIE}=${session.replace(/\.(\d+)\./, ".9999999999.")}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "401",
  ],

  // CSRF
  [
    "cookie write, same origin",
    "PUT",
    "/api/reviews/x",
    {
      host: H,
      origin: SELF,
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "allow:session",
  ],
  [
    "cookie write, localhost origin",
    "POST",
    "/api/reviews",
    {
      host: "localhost:3100",
      origin: "http://localhost:3100",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "allow:session",
  ],
  [
    "cookie write, foreign origin",
    "POST",
    "/api/reviews",
    {
      host: H,
      origin: "http://evil.example",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "403",
  ],
  [
    "cookie write, other local port",
    "POST",
    "/api/reviews",
    {
      host: H,
      origin: "http://127.0.0.1:3000",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "403",
  ],
  [
    "cookie write, null origin",
    "DELETE",
    "/api/reviews/x",
    {
      host: H,
      origin: "null",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "403",
  ],
  [
    "cookie write, no origin, no fetch metadata",
    "POST",
    "/api/reviews",
    { host: H, cookie: `${SESSION_COOKIE}=${session}`, [SESSION_PROOF_HEADER]: PROOF },
    "403",
  ],
  [
    "cookie write, no origin, same-origin fetch",
    "POST",
    "/api/reviews",
    {
      host: H,
      "sec-fetch-site": "same-origin",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "allow:session",
  ],
  [
    "cookie write, same-site fetch",
    "POST",
    "/api/reviews",
    {
      host: H,
      origin: SELF,
      "sec-fetch-site": "same-site",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "403",
  ],
  [
    "bearer write, no origin (automation)",
    "POST",
    "/api/reviews",
    { host: H, authorization: `Bearer ${TOKEN}` },
    "allow:bearer",
  ],
  [
    "bearer write, foreign origin",
    "POST",
    "/api/reviews",
    { host: H, origin: "http://evil.example", authorization: `Bearer ${TOKEN}` },
    "403",
  ],
  [
    "cookie GET, foreign origin (reads are SameSite's job)",
    "GET",
    "/api/reviews",
    {
      host: H,
      origin: "http://evil.example",
      cookie: `${SESSION_COOKIE}=${session}`,
      [SESSION_PROOF_HEADER]: PROOF,
    },
    "allow:session",
  ],

  // Exempt paths
  ["sign-in page", "GET", "/sign-in", { host: H }, "allow:exempt"],
  ["sign-in api, no origin", "POST", "/api/auth/sign-in", { host: H }, "allow:exempt"],
  [
    "sign-in api, foreign origin (login CSRF)",
    "POST",
    "/api/auth/sign-in",
    { host: H, origin: "http://evil.example" },
    "403",
  ],
  ["sign-out needs a session", "POST", "/api/auth/sign-out", { host: H, origin: SELF }, "401"],
  [
    "sign-out-everywhere needs a session",
    "POST",
    "/api/auth/sign-out-everywhere",
    { host: H, origin: SELF },
    "401",
  ],
  [
    "__Host- session cookie",
    "GET",
    "/api/reviews",
    { host: H, cookie: `__Host-${SESSION_COOKIE}=${session}`, [SESSION_PROOF_HEADER]: PROOF },
    "allow:session",
  ],
  ["static chunk", "GET", "/_next/static/chunks/app.js", { host: H }, "allow:exempt"],
  ["image optimizer", "GET", "/_next/image", { host: H }, "allow:exempt"],
  ["monaco", "GET", "/monaco/vs/loader.js", { host: H }, "allow:exempt"],
  ["favicon", "GET", "/favicon.ico", { host: H }, "allow:exempt"],
  ["icon", "GET", "/icon.svg", { host: H }, "allow:exempt"],
  ["schemas", "GET", "/schemas/review.v2.json", { host: H }, "allow:exempt"],
  ["share page", "GET", "/share/abc", { host: H }, "allow:exempt"],
  ["share api", "GET", "/api/share/abc", { host: H }, "allow:exempt"],
  [
    "OAuth callback (cross-site redirect, no cookie)",
    "GET",
    "/oauth/callback?state=s&code=c",
    { host: H },
    "allow:exempt",
  ],
  ["client metadata document", "GET", "/oauth/client-metadata.json", { host: H }, "allow:exempt"],
  ["OAuth finish needs the owner", "GET", "/oauth/finish?state=s&code=c", { host: H }, "redirect"],
  ["not a prefix match: /oauth/callback/x", "GET", "/oauth/callback/x", { host: H }, "redirect"],
  [
    "Connect needs the owner",
    "POST",
    "/api/reviews/r/servers/s/oauth/connect",
    { host: H, origin: SELF },
    "401",
  ],
  ["not a prefix match: /share", "GET", "/share", { host: H }, "redirect"],
  ["not a prefix match: /sign-inx", "GET", "/sign-inx", { host: H }, "redirect"],
  ["not a prefix match: /_next/data", "GET", "/_next/data/x.json", { host: H }, "redirect"],
  ["dot segments are resolved before matching", "GET", "/share/../api/reviews", { host: H }, "401"],
  ["encoded dot segments too", "GET", "/api/share/%2e%2e/%2e%2e/api/reviews", { host: H }, "401"],
];

describe("checkRequest", () => {
  test.each(ROWS)("%s: %s %s", (_name, method, path, headers, expected) => {
    const h = new Headers(headers);
    const result = checkRequest({ method, url: `${SELF}${path}`, headers: h }, config, NOW);
    const actual = result.allow
      ? `allow:${result.via}`
      : result.redirectTo
        ? "redirect"
        : String(result.status);
    expect(actual).toBe(expected);
  });

  test("the redirect carries the page to return to", () => {
    const r = checkRequest(
      { method: "GET", url: `${SELF}/reviews/abc?tab=graph`, headers: new Headers({ host: H }) },
      config,
      NOW,
    );
    expect(r).toMatchObject({
      allow: false,
      redirectTo: "/sign-in?next=%2Freviews%2Fabc%3Ftab%3Dgraph",
    });
  });

  test("port unknown: loopback names on any port", () => {
    const hosts = allowedHostsFor(null, undefined);
    expect(isAllowedHost("127.0.0.1:1234", hosts)).toBe(true);
    expect(isAllowedHost("localhost", hosts)).toBe(true);
    expect(isAllowedHost("127.0.0.2:1234", hosts)).toBe(false);
    expect(isAllowedHost("localhost.evil.example", hosts)).toBe(false);
  });

  test.each([
    [null, "/"],
    ["", "/"],
    ["/reviews/x?y=1", "/reviews/x?y=1"],
    ["//evil.example/x", "/"],
    ["/\\evil.example", "/"],
    ["https://evil.example", "/"],
    ["javascript:alert(1)", "/"],
  ])("safeNextPath(%j) = %j", (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });
});

describe("sign out everywhere", () => {
  test("a cookie of an earlier session epoch is refused; one of the current epoch passes; a bearer never depends on it", () => {
    const facts = (headers: Record<string, string>) => ({
      method: "GET",
      url: `${SELF}/api/reviews`,
      headers: new Headers(headers),
    });
    const old = createSessionValue(TOKEN, NOW, SESSION_TTL_SECONDS, "0");
    const fresh = createSessionValue(TOKEN, NOW, SESSION_TTL_SECONDS, "e2");
    expect(
      checkRequest(
        facts({ host: H, cookie: `${SESSION_COOKIE}=${old}`, ...proofOf(old) }),
        config,
        NOW,
        "0",
      ),
    ).toMatchObject({ allow: true });
    expect(
      checkRequest(
        facts({ host: H, cookie: `${SESSION_COOKIE}=${old}`, ...proofOf(old) }),
        config,
        NOW,
        "e2",
      ),
    ).toMatchObject({ allow: false, status: 401 });
    expect(
      checkRequest(
        facts({ host: H, cookie: `${SESSION_COOKIE}=${fresh}`, ...proofOf(fresh) }),
        config,
        NOW,
        "e2",
      ),
    ).toMatchObject({ allow: true, via: "session" });
    expect(
      checkRequest(
        facts({ host: H, cookie: `${SESSION_COOKIE}=${fresh}`, ...proofOf(fresh) }),
        config,
        NOW,
        "unavailable",
      ),
    ).toMatchObject({ allow: false });
    expect(
      checkRequest(
        facts({ host: H, authorization: `Bearer ${TOKEN}` }),
        config,
        NOW,
        "unavailable",
      ),
    ).toMatchObject({ allow: true, via: "bearer" });
  });

  test("a cookie of a session signed out is refused, whatever its epoch; a bearer never depends on it", () => {
    const facts = (headers: Record<string, string>) => ({
      method: "GET",
      url: `${SELF}/api/reviews`,
      headers: new Headers(headers),
    });
    const value = createSessionValue(TOKEN, NOW, SESSION_TTL_SECONDS, "0");
    const cookie = facts({ host: H, cookie: `${SESSION_COOKIE}=${value}`, ...proofOf(value) });
    expect(checkRequest(cookie, config, NOW, "0", false)).toMatchObject({ allow: true });
    expect(checkRequest(cookie, config, NOW, "0", true)).toMatchObject({
      allow: false,
      status: 401,
    });
    expect(
      checkRequest(facts({ host: H, authorization: `Bearer ${TOKEN}` }), config, NOW, "0", true),
    ).toMatchObject({ allow: true, via: "bearer" });
  });
});
