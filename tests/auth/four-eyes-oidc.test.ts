/**
 * Named reviewers and four eyes end to end over HTTP (issue 29 items 2 and 3): a real OpenID
 * provider (oidc-provider, scripts/demo-idp.ts) on loopback, the real proxy (proxy.ts: who is
 * asking, the route × role table) and the real route handlers on a real PGlite store, and the
 * real `relay-review verify-record`. Reviewer Alice signs in through the provider (authorization
 * code + PKCE), proposes approving knowledge-mcp into the on-call agent accepting its critical
 * paths; the proposal is pending and not in force; Alice cannot approve it; approver Bob signs in
 * and approves it; the signed record names both, lists the accepted findings and verifies.
 */
import { mkdtempSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NextRequest } from "next/server";
import { createDemoReview } from "@/lib/review/demo";
import type { DecisionRecord } from "@/lib/decisions/record";
import { runCli } from "@/tests/support/cli";
import { startDemoIdp, type DemoIdp } from "@/scripts/demo-idp";

const dataDir = mkdtempSync(path.join(tmpdir(), "rr-four-eyes-"));
process.env.RELAY_REVIEW_DATA = dataDir;
delete process.env.DATABASE_URL;
process.env.RELAY_REVIEW_TOKEN = "an-owner-token-for-the-four-eyes-test-0123456789";

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;
let http: Server;
let base: string;
let idp: DemoIdp;
let proxy: (r: NextRequest) => Promise<Response>;
const table: { re: RegExp; method: string; h: Handler; names: string[] }[] = [];

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", base);
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = chunks.length ? Buffer.concat(chunks) : undefined;
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const decided = await proxy(new NextRequest(url, { method: req.method, headers, body }));
  const send = async (answer: Response) => {
    const out = new Headers(answer.headers);
    res.writeHead(
      answer.status,
      [...out.entries()]
        .filter(([k]) => k !== "set-cookie")
        .concat(answer.headers.getSetCookie().map((c) => ["set-cookie", c])) as unknown as Record<
        string,
        string
      >,
    );
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
  if (decided.headers.get("x-middleware-next") !== "1") return send(decided);
  // As Next does: the proxy's request headers replace the client's.
  const overridden = decided.headers.get("x-middleware-override-headers")?.split(",") ?? [];
  const forwarded = new Headers();
  for (const name of overridden) {
    const v = decided.headers.get(`x-middleware-request-${name}`);
    if (v !== null) forwarded.set(name, v);
  }
  for (const route of table) {
    const m = route.re.exec(url.pathname);
    if (!m || route.method !== req.method) continue;
    const params = Object.fromEntries(
      route.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)]),
    );
    return send(
      await route.h(new Request(url, { method: req.method, headers: forwarded, body }), {
        params: Promise.resolve(params),
      }),
    );
  }
  return send(Response.json({ error: "no such route" }, { status: 404 }));
}

function route(pattern: string, method: string, h: unknown): void {
  const names: string[] = [];
  const re = new RegExp(
    `^${pattern.replace(/:([a-zA-Z]+)/g, (_m, n: string) => (names.push(n), "([^/]+)"))}$`,
  );
  table.push({ re, method, h: h as Handler, names });
}

beforeAll(async () => {
  http = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  const port = (http.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  process.env.PORT = String(port);
  idp = await startDemoIdp({ redirectUris: [`${base}/api/auth/oidc/callback`] });
  Object.assign(process.env, idp.env);
  const { registerSessionStandingReader } = await import("@/lib/auth/session-epoch");
  const { sessionStanding } = await import("@/lib/auth/session-epoch-store");
  const { withPerson } = await import("@/lib/auth/people-store");
  const { getDb } = await import("@/lib/store/db");
  registerSessionStandingReader(async (id) => {
    const db = await getDb();
    return withPerson(db, id, await sessionStanding(db, id));
  });
  proxy = (await import("@/proxy")).proxy;
  route("/api/auth/oidc/start", "GET", (await import("@/app/api/auth/oidc/start/route")).GET);
  route("/api/auth/oidc/callback", "GET", (await import("@/app/api/auth/oidc/callback/route")).GET);
  route("/api/auth/me", "GET", (await import("@/app/api/auth/me/route")).GET);
  const decisions = await import("@/app/api/reviews/[id]/decisions/route");
  route("/api/reviews/:id/decisions", "GET", decisions.GET);
  route("/api/reviews/:id/decisions", "POST", decisions.POST);
  route(
    "/api/reviews/:id/decisions/:decisionId/approvals",
    "POST",
    (await import("@/app/api/reviews/[id]/decisions/[decisionId]/approvals/route")).POST,
  );
  route(
    "/api/reviews/:id/decisions/:decisionId/record",
    "GET",
    (await import("@/app/api/reviews/[id]/decisions/[decisionId]/record/route")).GET,
  );
  route("/api/reviews/:id/state", "GET", (await import("@/app/api/reviews/[id]/state/route")).GET);
  route("/api/events", "GET", (await import("@/app/api/events/route")).GET);
}, 120_000);

afterAll(async () => {
  await new Promise((r) => http?.close(r));
  await idp?.close();
  await (await import("@/lib/store/db")).closeStore();
  await rm(dataDir, { recursive: true, force: true });
});

/** A browser's cookie jar, enough for this flow (both servers are on 127.0.0.1, as cookies see it). */
class Browser {
  jar = new Map<string, string>();
  /** The session's origin proof, which the hand-over page gives the sign-in page in its fragment. */
  proof = "";
  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq);
      const value = pair!.slice(eq + 1);
      if (/max-age=0/i.test(c) || /expires=Thu, 01 Jan 1970/i.test(c) || value === "")
        this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return res;
  }
  /** Follows redirects and the workbench's meta-refresh hand-over, as a browser would. */
  async follow(url: string, init: RequestInit = {}): Promise<Response> {
    let res = await this.get(url, init);
    for (let i = 0; i < 20; i++) {
      const loc = res.headers.get("location");
      if (res.status >= 300 && res.status < 400 && loc) {
        url = new URL(loc, url).href;
        res = await this.get(url);
        continue;
      }
      return res;
    }
    throw new Error("too many redirects");
  }
  async signIn(user: string): Promise<void> {
    const form = await this.follow(`${base}/api/auth/oidc/start?next=/`);
    const html = await form.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    expect(action, html).toBeTruthy();
    const done = await this.follow(new URL(action!.replace(/&#47;/g, "/"), idp.issuer).href, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login: user, password: user }).toString(),
    });
    expect(done.status, await done.clone().text()).toBe(200);
    const page = await done.text();
    expect(page).toContain("Signed in as");
    const proof = /#proof=([^"&]+)/.exec(page)?.[1];
    expect(proof, page).toBeTruthy();
    this.proof = decodeURIComponent(proof!);
  }
  api(p: string, method = "GET", body?: unknown): Promise<Response> {
    return this.get(`${base}${p}`, {
      method,
      headers: {
        origin: base,
        "sec-fetch-site": "same-origin",
        "x-relay-session-proof": this.proof,
        ...(body ? { "content-type": "application/json" } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  }
}

describe("four eyes with a real OpenID provider", { timeout: 180_000 }, () => {
  test("Alice proposes, cannot approve her own proposal; Bob approves; the record names both and verifies", async () => {
    const { getDb } = await import("@/lib/store/db");
    const { createReview } = await import("@/lib/store/reviews");
    const { id } = await createReview(await getDb(), createDemoReview(), "test");

    const alice = new Browser();
    await alice.signIn("alice");
    const me = (await (await alice.api("/api/auth/me")).json()) as {
      principal: { name: string };
      role: string;
    };
    expect(me).toMatchObject({
      principal: { kind: "person", name: "Alice Reviewer" },
      role: "reviewer",
    });

    const listed = (await (
      await alice.api(`/api/reviews/${id}/decisions?serverId=knowledge-mcp&agentId=on-call`)
    ).json()) as {
      revision: number;
      findings: { id: string; severity: string }[];
    };
    const risky = listed.findings.filter((f) => f.severity === "critical" || f.severity === "high");
    expect(risky.some((f) => f.severity === "critical")).toBe(true);
    const proposed = await alice.api(`/api/reviews/${id}/decisions`, "POST", {
      baseRevision: listed.revision,
      serverId: "knowledge-mcp",
      agentId: "on-call",
      verdict: "approved",
      reviewer: "typed text that a person's decision ignores",
      acceptances: risky.map((f) => ({
        findingId: f.id,
        owner: "Head of Platform",
        why: "Deploys are watched",
      })),
      rationale:
        "The on-call agent needs the knowledge base; the deploy path is accepted for a quarter.",
    });
    expect(proposed.status, await proposed.clone().text()).toBe(201);
    const decision = (
      (await proposed.json()) as {
        decision: { decision: Record<string, unknown> & { id: string } };
      }
    ).decision.decision;
    expect(decision).toMatchObject({
      author: { name: "Alice Reviewer", subject: "alice", issuer: idp.issuer },
      requiredApprovals: 1,
      approvals: [],
      reviewer: "Alice Reviewer",
    });

    // Pending: not in force, so the review's state does not count it.
    const state = (await (await alice.api(`/api/reviews/${id}/state`)).json()) as {
      decisions: unknown[];
    };
    expect(state.decisions).toEqual([
      expect.objectContaining({
        decisionId: decision.id,
        inForce: false,
        pending: { approvals: 0, required: 1 },
      }),
    ]);

    // Alice is a reviewer: the proxy refuses her the approver's route.
    const selfApprove = await alice.api(
      `/api/reviews/${id}/decisions/${decision.id}/approvals`,
      "POST",
    );
    expect(selfApprove.status).toBe(403);

    // A pending proposal's record says so, and verify-record does not pass it.
    const pendingText = await (
      await alice.api(`/api/reviews/${id}/decisions/${decision.id}/record`)
    ).text();
    const pendingFile = path.join(dataDir, "pending.json");
    await writeFile(pendingFile, pendingText);
    const pending = await runCli(["verify-record", pendingFile, "--data", dataDir], {
      ...process.env,
    });
    expect(pending.code).toBe(1);
    expect(pending.stdout).toContain("PENDING: a proposal with 0 of 1 required approvals");

    const bob = new Browser();
    await bob.signIn("bob");
    const approved = await bob.api(`/api/reviews/${id}/decisions/${decision.id}/approvals`, "POST");
    expect(approved.status, await approved.clone().text()).toBe(201);
    const inForce = (await (await bob.api(`/api/reviews/${id}/state`)).json()) as {
      decisions: unknown[];
    };
    expect(inForce.decisions).toEqual([
      expect.objectContaining({ decisionId: decision.id, inForce: true, pending: null }),
    ]);
    const again = await bob.api(`/api/reviews/${id}/decisions/${decision.id}/approvals`, "POST");
    expect(again.status).toBe(409);

    const recordText = await (
      await bob.api(`/api/reviews/${id}/decisions/${decision.id}/record`)
    ).text();
    const record = JSON.parse(recordText) as DecisionRecord;
    expect(record.recordVersion).toBe(3);
    expect(record.decision.reviewer).toBeUndefined();
    expect(record.decision.author).toMatchObject({
      issuer: idp.issuer,
      subject: "alice",
      name: "Alice Reviewer",
    });
    expect(record.decision.approvals).toEqual([
      expect.objectContaining({ issuer: idp.issuer, subject: "bob", name: "Bob Approver" }),
    ]);
    expect(record.decision.acceptedRisks?.map((a) => a.findingId).sort()).toEqual(
      risky.map((f) => f.id).sort(),
    );
    const file = path.join(dataDir, "approved.json");
    await writeFile(file, recordText);
    const verified = await runCli(["verify-record", file, "--data", dataDir], { ...process.env });
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain(`decided by Alice Reviewer (${idp.issuer} alice)`);
    expect(verified.stdout).toContain(`approved by Bob Approver (${idp.issuer} bob)`);
    expect(verified.stdout).toContain("ACCEPTS RISK");

    // An approver's own risk-accepting proposal needs someone else too.
    const current = (await (
      await bob.api(`/api/reviews/${id}/decisions?serverId=knowledge-mcp&agentId=on-call`)
    ).json()) as { revision: number };
    const own = await bob.api(`/api/reviews/${id}/decisions`, "POST", {
      baseRevision: current.revision,
      serverId: "knowledge-mcp",
      agentId: "on-call",
      verdict: "approved",
      acceptances: risky.map((f) => ({ findingId: f.id, owner: "Bob", why: "Renewed" })),
      rationale: "Renewal.",
    });
    expect(own.status, await own.clone().text()).toBe(201);
    const ownId = ((await own.json()) as { decision: { decision: { id: string } } }).decision
      .decision.id;
    const mine = await bob.api(`/api/reviews/${id}/decisions/${ownId}/approvals`, "POST");
    expect(mine.status).toBe(403);
    expect(await mine.text()).toContain("an approver other than its author");

    // The audit log names the people, not the owner token.
    const events = (await (await bob.api(`/api/events?reviewId=${id}`)).json()) as {
      events: { kind: string; actorKind: string; actor: string }[];
    };
    const who = events.events
      .filter((e) => e.kind.startsWith("decision."))
      .map((e) => `${e.kind} ${e.actorKind} ${e.actor}`)
      .sort();
    expect(who).toEqual([
      `decision.approved person ${idp.issuer}#bob`,
      `decision.made person ${idp.issuer}#alice`,
      `decision.made person ${idp.issuer}#bob`,
    ]);
  });
});
