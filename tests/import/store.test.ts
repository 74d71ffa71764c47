/**
 * Import through the route handler into a real PGlite store (a temp data folder), and through
 * `relay-review import` as a child process against that route: the shipped configs' fake secrets
 * never reach the database, neither in the stored JSON nor anywhere in the data folder's files.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { ImportResponseSchema } from "@/lib/import/api";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "bin/relay-review.mjs");
const FAKE_SECRETS = [
  "ghp_FAKEexampleTOKEN0000000000000000000000",
  "lin_api_FAKEexample000000000000000000000000",
];
const dataDir = mkdtempSync(path.join(tmpdir(), "relay-review-import-"));
process.env.RELAY_REVIEW_DATA = dataDir;
delete process.env.DATABASE_URL;

type Post = (request: Request) => Promise<Response>;
let POST: Post;
let http: Server;
let url: string;

beforeAll(async () => {
  POST = (
    (await import("@/app/api/import/route")) as {
      POST: (r: Request, c: unknown) => Promise<Response>;
    }
  ).POST as unknown as Post;
  // A stand-in for `next start`: node:http → the route handler, so the CLI talks to the real route and store.
  http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.headers.authorization !== "Bearer owner-token") return void res.writeHead(401).end();
      const body = Buffer.concat(chunks);
      void POST(
        new Request(`http://127.0.0.1${req.url}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        }),
      ).then(async (r) => {
        res.writeHead(r.status, { "content-type": "application/json" }).end(await r.text());
      });
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", () => r()));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((r) => http?.close(r));
  const { closeStore } = await import("@/lib/store/db");
  await closeStore();
});

const post = (body: unknown) =>
  POST(
    new Request("http://127.0.0.1/api/import", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

function filesContaining(dir: string, needle: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (readFileSync(p).includes(needle)) hits.push(p);
    }
  };
  walk(dir);
  return hits;
}

describe("import into the store", { timeout: 180_000 }, () => {
  test("through the route: the review is created, the secrets are listed as replaced, and none is stored", async () => {
    for (const rel of [
      "examples/configs/claude_desktop_config.json",
      "examples/configs/.cursor/mcp.json",
    ]) {
      const res = await post({ text: readFileSync(path.join(ROOT, rel), "utf8"), fileName: rel });
      expect(res.status).toBe(201);
      const body = ImportResponseSchema.parse(await res.json());
      expect(body.summary.replacements).toHaveLength(1);
      expect(JSON.stringify(body)).not.toContain("FAKE");
    }
    const { getDb } = await import("@/lib/store/db");
    const db = await getDb();
    const rows = await db.execute(sql`SELECT document::text AS doc FROM review_revisions`);
    const docs = (rows as { rows: { doc: string }[] }).rows.map((r) => r.doc).join("\n");
    expect(docs).toContain("GITHUB_PERSONAL_ACCESS_TOKEN");
    expect(docs).toContain("RR_LINEAR_AUTHORIZATION");
    for (const s of FAKE_SECRETS) expect(docs).not.toContain(s);
    await db.execute(sql`CHECKPOINT`);
    // the raw files are greppable (a name that is stored is found), so an absent secret is really absent
    expect(filesContaining(dataDir, "RR_LINEAR_AUTHORIZATION").length).toBeGreaterThan(0);
    for (const s of FAKE_SECRETS) expect(filesContaining(dataDir, s)).toEqual([]);
  });

  test("a malformed file is a 400 naming the line and the field", async () => {
    const res = await post({
      text: '{\n  "mcpServers": {\n    "a": { "command": 7 }\n  }\n}',
      fileName: "mcp.json",
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: { message: string; issues: { path: string; message: string }[] };
    };
    expect(body.error.issues[0]).toEqual({
      path: "mcpServers.a.command",
      message: "line 3, column 23: command must be a non-empty string",
    });
  });

  test("relay-review import FILE against the route adds to a review and lists what it replaced", async () => {
    const exec = promisify(execFile);
    const created = ImportResponseSchema.parse(
      await (
        await post({
          text: readFileSync(path.join(ROOT, "examples/configs/mcp-servers.json"), "utf8"),
          fileName: "mcp-servers.json",
        })
      ).json(),
    );
    const r = await exec(
      process.execPath,
      [
        BIN,
        "import",
        "examples/configs/claude_desktop_config.json",
        "--url",
        url,
        "--review",
        created.reviewId,
      ],
      {
        cwd: ROOT,
        env: { ...process.env, RELAY_REVIEW_TOKEN: "owner-token" },
      },
    );
    expect(r.stdout).toContain(`updated review ${created.reviewId} (revision 2)`);
    expect(r.stdout).toContain("server knowledge-mcp [knowledge-mcp]: existing");
    expect(r.stdout).toContain(
      "line 11: mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN (env GITHUB_PERSONAL_ACCESS_TOKEN) → ${GITHUB_PERSONAL_ACCESS_TOKEN}",
    );
    const bad = await exec(
      process.execPath,
      [BIN, "import", "examples/configs/README.md", "--url", url],
      { cwd: ROOT, env: { ...process.env, RELAY_REVIEW_TOKEN: "owner-token" } },
    ).catch((e: { code: number; stderr: string }) => e);
    expect((bad as { code: number }).code).toBe(2);
    expect((bad as { stderr: string }).stderr).toMatch(
      /README\.md:line 1, column 1: \(root\): expected a value/,
    );
  });
});

describe("GET …/decisions/[decisionId]/exports/[kind]", { timeout: 180_000 }, () => {
  test("downloads validated files; 404 for an unknown decision or kind; 409 when the export cannot be made", async () => {
    const { getDb } = await import("@/lib/store/db");
    const { createReview } = await import("@/lib/store/reviews");
    const { recordInspection } = await import("@/lib/store/snapshots");
    const { buildDecision } = await import("@/lib/decisions/binding");
    const { createDemoReview } = await import("@/lib/review/demo");
    const { parseNetworkPolicies } = await import("@/lib/controls/egress/policy");
    const { parseClientConfig } = await import("@/lib/import/config");
    const { GET } =
      (await import("@/app/api/reviews/[id]/decisions/[decisionId]/exports/[kind]/route")) as unknown as {
        GET: (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response>;
      };
    const db = await getDb();
    const sha = "ab".repeat(32);
    const review = createDemoReview();
    const live = buildDecision(review, {
      id: "dec-live",
      serverId: "knowledge-mcp",
      agentId: "docs-agent",
      verdict: "approved",
      reviewer: "R",
      rationale: "ok",
      now: new Date(),
      revision: 1,
      surfaceSha256: sha,
    });
    review.decisions.push(live);
    const { id } = await createReview(db, review, "test");
    await recordInspection(db, {
      reviewId: id,
      serverId: "knowledge-mcp",
      snapshotSha256: null,
      surfaceSha256: sha,
      declaredCapabilities: ["elicitation", "roots", "roots.listChanged", "sampling"],
      status: "ok",
    });
    const get = (decisionId: string, kind: string, q = "") =>
      GET(new Request(`http://127.0.0.1/x${q}`), {
        params: Promise.resolve({ id, decisionId, kind }),
      });

    const np = await get("dec-live", "networkpolicy");
    expect(np.status).toBe(200);
    expect(np.headers.get("content-disposition")).toContain(
      "knowledge-mcp-egress.networkpolicy.yaml",
    );
    expect(parseNetworkPolicies(await np.text()).ok).toBe(true);
    const cc = await get("dec-live", "client-config", "?recordPath=/opt/rr/dec-live.json");
    expect(cc.status).toBe(200);
    const again = parseClientConfig(await cc.text());
    expect(again.ok && again.config.servers[0]?.gatedBy).toEqual({
      record: "/opt/rr/dec-live.json",
    });
    expect((await get("dec-live", "credential-request")).status).toBe(200);
    expect((await get("dec-nope", "networkpolicy")).status).toBe(404);
    expect((await get("dec-live", "zip")).status).toBe(404);
    // a newer inspection with another surface makes the decision stale
    await recordInspection(db, {
      reviewId: id,
      serverId: "knowledge-mcp",
      snapshotSha256: null,
      surfaceSha256: "cd".repeat(32),
      declaredCapabilities: ["elicitation", "roots", "roots.listChanged", "sampling"],
      status: "ok",
      inspectedAt: new Date(Date.now() + 1000),
    });
    const stale = await get("dec-live", "client-config");
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toContain(
      "stale",
    );
  });
});
