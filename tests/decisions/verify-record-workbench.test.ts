/**
 * `relay-review verify-record --workbench URL | --share LINK` as a real child process against the
 * real route handlers (decisions list, share view) over node:http on 127.0.0.1, with the real auth
 * check in front (lib/auth/check.ts, as proxy.ts wires it) and a real PGlite store in a temp data
 * folder. Decisions, records and share links are made through their own route handlers too, so the
 * CLI reads exactly what the workbench writes. A few hostile answers (oversized, a redirect, control
 * characters) come from the same server under other path prefixes.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { allowedHostsFor, checkRequest } from "@/lib/auth/check";
import { resolveOwnerToken } from "@/lib/auth/owner-token";
import {
  CreateShareLinkResponseSchema,
  DecideResponseSchema,
  type DecideRequest,
  type ListDecisionsResponse,
} from "@/lib/decisions/api";
import type { DecisionRecord } from "@/lib/decisions/record";
import { createDemoReview } from "@/lib/review/demo";
import type { Decision, Review, ToolRef } from "@/lib/review/schema";
import type * as StoreDb from "@/lib/store/db";
import type * as StoreReviews from "@/lib/store/reviews";
import { runCli } from "@/tests/support/cli";

const dataDir = mkdtempSync(path.join(tmpdir(), "rr-verify-workbench-"));
process.env.RELAY_REVIEW_DATA = dataDir;
delete process.env.DATABASE_URL;
delete process.env.RELAY_REVIEW_TOKEN;

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;
/** A route module's handler for `method`: every one has this shape (withRoute); a missing one fails the test. */
function handler(mod: Record<string, unknown>, method: string): Handler {
  const h = mod[method];
  if (typeof h !== "function") throw new Error(`the route exports no ${method}`);
  return h as Handler;
}

let routes: {
  listDecisions: Handler;
  decide: Handler;
  record: Handler;
  createLink: Handler;
  revokeLink: Handler;
  share: Handler;
};
let http: Server;
let base: string;
let ownerToken: string;
/** Loaded after RELAY_REVIEW_DATA is set, like the routes. */
let store: typeof StoreDb & typeof StoreReviews;

const params = (p: Record<string, string>) => ({ params: Promise.resolve(p) });

/** Hostile answers under `/hostile/<kind>/…`: never a route of the workbench, always served without auth. */
function hostile(kind: string, res: ServerResponse): void {
  if (kind === "big") {
    // 3 MiB of JSON-ish bytes with no Content-Length: the CLI must stop reading at its limit.
    res.on("error", () => undefined); // the CLI hangs up at its limit
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < 3) {
        sent++;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
    return;
  }
  if (kind === "redirect") {
    res.writeHead(307, { location: "http://127.0.0.1:1/elsewhere" }).end();
    return;
  }
  res.writeHead(404).end();
}

/** A stand-in for `next start`: the proxy's auth decision, then the route handler, as Next would call them. */
async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const hostileMatch = /^\/hostile\/([a-z]+)\//.exec(url.pathname);
  if (hostileMatch) return hostile(hostileMatch[1]!, res);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
  const auth = checkRequest(
    { method: req.method ?? "GET", url: url.toString(), headers },
    {
      ownerToken,
      allowedHosts: allowedHostsFor(String((http.address() as AddressInfo).port), undefined),
    },
  );
  if (!auth.allow) {
    res.writeHead(auth.status, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { code: "UNAUTHORIZED", message: auth.reason } }));
    return;
  }
  // Only GETs reach a route here (the CLI never writes), so no body to forward.
  const request = new Request(url, { method: req.method, headers });
  let answer: Response;
  let m: RegExpExecArray | null;
  if ((m = /^\/api\/reviews\/([^/]+)\/decisions$/.exec(url.pathname)) && req.method === "GET")
    answer = await routes.listDecisions(request, params({ id: decodeURIComponent(m[1]!) }));
  else if ((m = /^\/api\/share\/([^/]+)$/.exec(url.pathname)) && req.method === "GET")
    answer = await routes.share(request, params({ token: decodeURIComponent(m[1]!) }));
  else
    answer = Response.json(
      { error: { code: "NOT_FOUND", message: "no such route" } },
      { status: 404 },
    );
  res.writeHead(answer.status, Object.fromEntries(answer.headers));
  res.end(Buffer.from(await answer.arrayBuffer()));
}

beforeAll(async () => {
  // The workbench's own first start writes the owner token; the CLI only ever reads it.
  ownerToken = resolveOwnerToken({}, dataDir).token;
  routes = {
    listDecisions: handler(await import("@/app/api/reviews/[id]/decisions/route"), "GET"),
    decide: handler(await import("@/app/api/reviews/[id]/decisions/route"), "POST"),
    record: handler(
      await import("@/app/api/reviews/[id]/decisions/[decisionId]/record/route"),
      "GET",
    ),
    createLink: handler(await import("@/app/api/reviews/[id]/share-links/route"), "POST"),
    revokeLink: handler(
      await import("@/app/api/reviews/[id]/share-links/[linkId]/route"),
      "DELETE",
    ),
    share: handler(await import("@/app/api/share/[token]/route"), "GET"),
  };

  store = { ...(await import("@/lib/store/db")), ...(await import("@/lib/store/reviews")) };
  http = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => http?.close(r));
  await store?.closeStore();
  await rm(dataDir, { recursive: true, force: true });
});

/** verify-record with this process's environment minus RELAY_REVIEW_TOKEN, plus `env` (undefined removes). */
function cli(args: string[], env: Record<string, string | undefined> = {}) {
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    RELAY_REVIEW_TOKEN: undefined,
    ...env,
  };
  for (const k of Object.keys(childEnv)) if (childEnv[k] === undefined) delete childEnv[k];
  return runCli(["verify-record", ...args], childEnv);
}

/** A demo review with one decision made through the decide route: knowledge-mcp into the documentation agent. */
async function decided(): Promise<{
  id: string;
  decisionId: string;
  recordFile: string;
  record: DecisionRecord;
}> {
  const db = await store.getDb();
  const { id } = await store.createReview(db, createDemoReview(), "test");
  const input: DecideRequest = {
    baseRevision: 1,
    serverId: "knowledge-mcp",
    agentId: "docs-agent",
    verdict: "approved",
    reviewer: "R. Reviewer",
    rationale: "Read-only search into an agent that holds no sink.",
  };
  const res = await routes.decide(
    new Request(`${base}/api/reviews/${id}/decisions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
    }),
    params({ id }),
  );
  expect(res.status, await res.clone().text()).toBe(201);
  const decisionId = DecideResponseSchema.parse(await res.json()).decision.decision.id;
  const recordRes = await routes.record(new Request(`${base}/x`), params({ id, decisionId }));
  expect(recordRes.status, await recordRes.clone().text()).toBe(200);
  const text = await recordRes.text();
  const recordFile = path.join(dataDir, `record-${decisionId}.json`);
  await writeFile(recordFile, text);
  return { id, decisionId, recordFile, record: JSON.parse(text) as DecisionRecord };
}

/** Apply `change` to the review's latest revision and save it as the next one. */
async function edit(id: string, change: (review: Review) => void): Promise<void> {
  const db = await store.getDb();
  const current = (await store.getReview(db, id))!;
  const next = structuredClone(current.review);
  change(next);
  const saved = await store.saveReview(db, id, current.revision, next, "test");
  expect(saved?.ok).toBe(true);
}

async function shareLink(id: string, frozen = false): Promise<{ link: string; linkId: string }> {
  const res = await routes.createLink(
    new Request(`${base}/x`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ frozen }),
    }),
    params({ id }),
  );
  expect(res.status).toBe(201);
  const body = CreateShareLinkResponseSchema.parse(await res.json());
  return { link: `${base}${body.path}`, linkId: body.link.id };
}

const addListSpaces = (r: Review) =>
  void r.agents
    .find((a) => a.id === "docs-agent")!
    .tools.push({ serverId: "knowledge-mcp", tool: "list_spaces" } as ToolRef);

const noSecrets = (r: { stdout: string; stderr: string }) => {
  expect(r.stdout + r.stderr).not.toContain(ownerToken);
};

// Each case starts a CLI process; on a loaded machine that takes a while.
describe.concurrent("verify-record --workbench: the owner API", { timeout: 120_000 }, () => {
  test("a current decision exits 0 and says current (token from --data's owner-token file)", async () => {
    const { id, decisionId, recordFile } = await decided();
    const r = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^valid: signed by key/);
    expect(r.stdout).toContain(
      `workbench: current: decision ${decisionId} in review ${id} revision 2 at ${base}`,
    );
    noSecrets(r);
  });

  test("a tool added to the agent: stale (exit 5), naming the tool", async () => {
    const { id, recordFile } = await decided();
    await edit(id, addListSpaces);
    const r = await cli([recordFile, "--data", dataDir, "--workbench", `${base}/`]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(`workbench: STALE: decision`);
    expect(r.stderr).toContain(`in review ${id} revision 3`);
    expect(r.stderr).toContain(
      "tool_set: documentation agent's tool set changed: added list_spaces on knowledge-mcp",
    );
    noSecrets(r);
  });

  test("the controls changed: stale (exit 5), naming controls; with the image digest too, one line each", async () => {
    const { id, recordFile } = await decided();
    await edit(id, (r) => {
      r.controls.credentials.find((c) => c.serverId === "knowledge-mcp")!.scopes.push("write:page");
      r.servers.find((s) => s.id === "knowledge-mcp")!.imageDigest =
        `ghcr.io/atlas/knowledge-mcp@sha256:${"4".repeat(64)}`;
    });
    const r = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(
      / {2}image_digest: the image changed: .* → ghcr\.io\/atlas\/knowledge-mcp@sha256:4{64}/,
    );
    expect(r.stderr).toContain(
      "  controls: the controls changed: knowledge-mcp's credential or egress policy",
    );
    expect(r.stderr).not.toContain("tool_set");
  });

  test("a decision the workbench no longer has, or a review it no longer has: exit 6, saying which", async () => {
    const { id, decisionId, recordFile } = await decided();
    await edit(id, (r) => void (r.decisions = []));
    const gone = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(gone.code).toBe(6);
    expect(gone.stderr).toContain(
      `workbench: decision ${decisionId} is not in review ${id} revision 3`,
    );

    const db = await store.getDb();
    await store.deleteReview(db, id);
    const noReview = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(noReview.code).toBe(6);
    expect(noReview.stderr).toContain(
      `workbench check failed: the workbench has no review ${id} (404: no review with id`,
    );
  });

  test("a decision the workbench holds differently: the record is not the workbench's decision (exit 6)", async () => {
    const { id, recordFile } = await decided();
    await edit(
      id,
      (r) =>
        void (r.decisions[0]!.bound.controlsSha256 = "0".repeat(
          64,
        ) as Decision["bound"]["controlsSha256"]),
    );
    const r = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain("the record is not the workbench's decision");
    expect(r.stderr).toMatch(/ {2}bound\.controlsSha256: record [0-9a-f]{64}, workbench 0{64}/);
  });

  test("a wrong token: a clear 401 (exit 6), the token itself never printed", async () => {
    const { recordFile } = await decided();
    const wrong = "wrong-token-wrong-token-wrong-token-0123";
    const r = await cli([recordFile, "--data", dataDir, "--workbench", base], {
      RELAY_REVIEW_TOKEN: wrong,
    });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(
      "workbench check failed: the workbench refused the token from RELAY_REVIEW_TOKEN (401: the bearer token is not the owner token)",
    );
    expect(r.stdout + r.stderr).not.toContain(wrong);
    noSecrets(r);
  });

  test("no owner token anywhere is a usage error (exit 2), and no token file is created", async () => {
    const { recordFile } = await decided();
    const empty = mkdtempSync(path.join(tmpdir(), "rr-no-token-"));
    await writeFile(
      path.join(empty, "signing-key.pub.pem"),
      readFileSync(path.join(dataDir, "signing-key.pub.pem")),
    );
    const r = await cli([recordFile, "--data", empty, "--workbench", base]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /no owner token: RELAY_REVIEW_TOKEN is not set and there is no .*owner-token/,
    );
    expect(existsSync(path.join(empty, "owner-token"))).toBe(false);
    await rm(empty, { recursive: true, force: true });
  });

  test("a workbench that cannot be reached, answers too much, or redirects: exit 6, naming why", async () => {
    const { recordFile } = await decided();
    // A port that was just free: nothing listens there.
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const down = await cli([
      recordFile,
      "--data",
      dataDir,
      "--workbench",
      `http://127.0.0.1:${port}`,
    ]);
    expect(down.code).toBe(6);
    expect(down.stderr).toContain(
      `cannot reach the workbench at http://127.0.0.1:${port}: fetch failed (ECONNREFUSED)`,
    );
    const big = await cli([
      recordFile,
      "--data",
      dataDir,
      "--workbench",
      `${base}/hostile/big`,
      "--workbench-max-bytes",
      String(1024 * 1024),
    ]);
    expect(big.code).toBe(6);
    expect(big.stderr).toContain(
      "is over the limit of 1048576 bytes (raise it with --workbench-max-bytes)",
    );
    const redirect = await cli([
      recordFile,
      "--data",
      dataDir,
      "--workbench",
      `${base}/hostile/redirect`,
    ]);
    expect(redirect.code).toBe(6);
    expect(redirect.stderr).toContain("answered 307 (a redirect, not followed");
    noSecrets(redirect);
  });

  // Names refuse C0/C1 controls now (lib/review/schema.ts); a bidi override is still a legal name character.
  test("hidden characters from the workbench are escaped on the terminal", async () => {
    const { id, recordFile } = await decided();
    await edit(id, (r) => {
      r.agents.find((a) => a.id === "docs-agent")!.name = "docs\u202eagent";
      addListSpaces(r);
    });
    const r = await cli([recordFile, "--data", dataDir, "--workbench", base]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain("docs⟦U+202E RIGHT-TO-LEFT OVERRIDE⟧agent's tool set changed");
    expect(r.stderr).not.toContain("\u202e");
  });
});

describe.concurrent("verify-record --share: a read-only link", { timeout: 120_000 }, () => {
  test("current through a share link (exit 0), no owner token needed; a revoked link answers like an unknown one", async () => {
    const { id, decisionId, recordFile } = await decided();
    const { link, linkId } = await shareLink(id);
    const token = link.split("/share/")[1]!;
    const ok = await cli([recordFile, "--data", dataDir, "--share", link]);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(
      `workbench: current: decision ${decisionId} in the share link ${base}/share/…`,
    );
    expect(ok.stdout + ok.stderr).not.toContain(token);

    const revoked = await routes.revokeLink(
      new Request(`${base}/x`, { method: "DELETE" }),
      params({ id, linkId }),
    );
    expect(revoked.status).toBe(200);
    const gone = await cli([recordFile, "--data", dataDir, "--share", link]);
    const unknown = await cli([
      recordFile,
      "--data",
      dataDir,
      "--share",
      `${base}/share/${"x".repeat(43)}`,
    ]);
    for (const r of [gone, unknown]) {
      expect(r.code).toBe(6);
      expect(r.stderr).toContain(
        "workbench check failed: the share link is not valid (revoked, expired or unknown)",
      );
      expect(r.stdout + r.stderr).not.toContain(token);
    }
  });

  test("a link frozen before the change still reports the decision stale now, and says it is frozen", async () => {
    const { id, recordFile } = await decided();
    const { link } = await shareLink(id, true);
    await edit(id, addListSpaces);
    const r = await cli([recordFile, "--data", dataDir, "--share", link]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      "(frozen at revision 2; status is against the workbench's latest revision and live surface)",
    );
    expect(r.stderr).toContain(
      "tool_set: documentation agent's tool set changed: added list_spaces on knowledge-mcp",
    );
  });

  test("the share view parses with the shared schema and lists what the owner API lists", async () => {
    const { id } = await decided();
    const { link } = await shareLink(id);
    const res = await fetch(link.replace("/share/", "/api/share/"));
    expect(res.status).toBe(200);
    const owner = (await (
      await fetch(`${base}/api/reviews/${id}/decisions`, {
        headers: { authorization: `Bearer ${ownerToken}` },
      })
    ).json()) as ListDecisionsResponse;
    const shared = (await res.json()) as { decisions: unknown[] };
    expect(shared.decisions).toEqual(owner.decisions);
  });
});

describe.concurrent(
  "verify-record: options and the combined exit code",
  { timeout: 120_000 },
  () => {
    test.each([
      [
        "--workbench with --share",
        ["--workbench", "http://127.0.0.1:3000", "--share", "http://127.0.0.1:3000/share/abc"],
        /give --workbench or --share, not both/,
      ],
      [
        "--workbench twice",
        ["--workbench", "http://a", "--workbench", "http://b"],
        /--workbench given twice/,
      ],
      ["--share without a value", ["--share"], /--share needs a value/],
      [
        "not a share link",
        ["--share", "http://127.0.0.1:3000/reviews/rev-a"],
        /--share must be a share link/,
      ],
      [
        "a workbench URL with credentials",
        ["--workbench", "http://u:p@127.0.0.1:3000"],
        /must not carry credentials/,
      ],
      ["an unknown option", ["--workbench-url", "x"], /unknown option "--workbench-url"/],
      [
        "a size limit that is not a number",
        ["--share", "http://h/share/abc", "--workbench-max-bytes", "1e3x"],
        /--workbench-max-bytes must be a whole number/,
      ],
      [
        "a size limit without a workbench",
        ["--workbench-max-bytes", "1000"],
        /--workbench-max-bytes needs --workbench or --share/,
      ],
    ])("%s is a usage error (exit 2)", async (_label, args, message) => {
      const r = await cli(["record.json", ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
    });

    test("with the live check too: both report; stale (5) outranks a live check that could not run (4)", async () => {
      // Decided against declared tools (never inspected): the live check cannot run, without starting anything.
      const { id, recordFile } = await decided();
      const bothChecks = [
        recordFile,
        "--data",
        dataDir,
        "--workbench",
        base,
        "--",
        "node",
        "-e",
        "",
      ];
      const current = await cli(bothChecks);
      expect(current.code).toBe(4);
      expect(current.stderr).toContain("live check not possible");
      expect(current.stdout).toContain("workbench: current");
      await edit(id, addListSpaces);
      const stale = await cli(bothChecks);
      expect(stale.code).toBe(5);
      expect(stale.stderr).toContain("live check not possible");
      expect(stale.stderr).toContain("workbench: STALE");
    });
  },
);
