/**
 * Issue 15 part 4: a client config with secrets in env, headers, args and URLs imports with none
 * of them: not in the parse result, not in the route's answer, not in any stored revision, not in
 * any file of the data folder, and not in the client-config export made from the imported review.
 * Every replacement is listed by name and place.
 */
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sql } from "drizzle-orm";
import { ImportResponseSchema } from "@/lib/import/api";
import { parseClientConfig } from "@/lib/import/config";
import { reviewFromImport } from "@/lib/import/merge";
import { clientConfigForServers } from "@/lib/import/write";
import { ReviewSchema } from "@/lib/review/schema";
import { transportVariableNames } from "@/lib/review/transport-variables";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FILE = path.join(ROOT, "tests/fixtures/configs/secrets-everywhere.json");
const TEXT = readFileSync(FILE, "utf8");
/** Every value in the fixture is marked FAKE…: the set of secrets is exactly those strings. */
const SECRETS = [...TEXT.matchAll(/[A-Za-z0-9_:-]*FAKE[A-Za-z0-9_-]*/g)].map((m) =>
  m[0].replace(/^.*:/, ""),
);
const dataDir = mkdtempSync(path.join(tmpdir(), "relay-review-import-secrets-"));
process.env.RELAY_REVIEW_DATA = dataDir;
delete process.env.DATABASE_URL;

type Post = (request: Request) => Promise<Response>;
let POST: Post;
beforeAll(async () => {
  POST = (
    (await import("@/app/api/import/route")) as {
      POST: (r: Request, c: unknown) => Promise<Response>;
    }
  ).POST as unknown as Post;
}, 120_000);
afterAll(async () => {
  const { closeStore } = await import("@/lib/store/db");
  await closeStore();
});

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

const noSecretIn = (text: string) => {
  for (const s of SECRETS) expect(text, `leaked ${s.slice(0, 8)}…`).not.toContain(s);
  expect(text).not.toContain("FAKE");
};

describe("import of a config with secrets everywhere", { timeout: 180_000 }, () => {
  test("the fixture really holds twelve secrets", () => {
    expect(SECRETS).toHaveLength(12);
  });

  test("the parse keeps references only and lists every replacement by place", () => {
    const parsed = parseClientConfig(TEXT, { fileName: "mcp.json" });
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    noSecretIn(JSON.stringify(parsed.config));
    const by = (server: string) => parsed.config.servers.find((s) => s.key === server)!.transport;
    expect(by("github")).toEqual({
      kind: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github", "--token=${RR_GITHUB_TOKEN}"],
      envNames: ["GITHUB_API_URL", "GITHUB_PERSONAL_ACCESS_TOKEN"],
    });
    expect(by("gitlab")).toMatchObject({
      args: [
        "run",
        "-i",
        "--rm",
        "-e",
        "GITLAB_TOKEN=${GITLAB_TOKEN}",
        "mcp/gitlab",
        "--api-key",
        "${RR_GITLAB_API_KEY}",
      ],
    });
    expect(by("postgres")).toMatchObject({
      args: [
        "-y",
        "@modelcontextprotocol/server-postgres",
        "postgresql://app:${RR_POSTGRES_URL_PASSWORD}@db.internal:5432/app",
      ],
    });
    expect(by("slack")).toMatchObject({ args: ["slack.js", "${RR_SLACK_SLACK_TOKEN}"] });
    expect(by("remote")).toMatchObject({
      args: [
        "mcp-remote",
        "https://mcp.example.com/sse",
        "--header",
        "Authorization: Bearer ${RR_REMOTE_AUTHORIZATION}",
      ],
    });
    expect(by("linear")).toEqual({
      kind: "http",
      url: "https://mcp.linear.example/mcp?api_key=${RR_LINEAR_API_KEY}&workspace=acme",
      headerEnv: { Authorization: "RR_LINEAR_AUTHORIZATION", "X-Api-Key": "LINEAR_KEY" },
    });
    expect(by("basic")).toEqual({
      kind: "sse",
      url: "https://mcp.basic.example/sse?sig=${RR_BASIC_SIG}",
      headerEnv: { Authorization: "RR_BASIC_AUTHORIZATION" },
    });
    expect(by("notion")).toMatchObject({
      url: "https://mcp.notion.example/$%7BRR_NOTION_NOTION_TOKEN%7D/mcp",
    });
    expect(transportVariableNames({ ...by("notion"), headerEnv: {} } as never)).toEqual([
      "RR_NOTION_NOTION_TOKEN",
    ]);
    const list = parsed.config.replacements.map(
      (r) => `${r.server} ${r.field} ${r.name} ${r.variable}`,
    );
    expect([...list].sort()).toEqual(
      [
        "github arg --token RR_GITHUB_TOKEN",
        "github env GITHUB_PERSONAL_ACCESS_TOKEN GITHUB_PERSONAL_ACCESS_TOKEN",
        "github env GITHUB_API_URL GITHUB_API_URL",
        "gitlab arg GITLAB_TOKEN GITLAB_TOKEN",
        "gitlab arg --api-key RR_GITLAB_API_KEY",
        "postgres arg password RR_POSTGRES_URL_PASSWORD",
        "slack arg SLACK_TOKEN RR_SLACK_SLACK_TOKEN",
        "remote arg Authorization RR_REMOTE_AUTHORIZATION",
        "linear url api_key RR_LINEAR_API_KEY",
        "linear header Authorization RR_LINEAR_AUTHORIZATION",
        "basic url sig RR_BASIC_SIG",
        "basic url userinfo RR_BASIC_AUTHORIZATION",
        "notion url NOTION_TOKEN RR_NOTION_NOTION_TOKEN",
      ].sort(),
    );
    // the reviewed document validates, and its client-config export re-imports with nothing to replace
    const { review } = reviewFromImport(parsed.config);
    const doc = ReviewSchema.parse(review);
    const exported = clientConfigForServers(doc.servers);
    noSecretIn(exported);
    const again = parseClientConfig(exported, { fileName: "mcp.json" });
    if (!again.ok) throw new Error(JSON.stringify(again.issues));
    expect(again.config.replacements.filter((r) => r.field !== "env")).toEqual([]);
  });

  test("the review schema refuses what the import would have replaced", () => {
    const server = (transport: unknown) => ({
      schemaVersion: 2,
      title: "t",
      servers: [{ id: "s", name: "s", transport }],
    });
    const issues = (transport: unknown) => {
      const r = ReviewSchema.safeParse(server(transport));
      return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    };
    expect(issues({ kind: "http", url: "https://u:p@mcp.example/mcp" })).toEqual([
      "servers.0.transport.url: must not carry credentials (user:password@): put them in a header that names a variable (e.g. Authorization) and set its value on the Secrets page",
    ]);
    expect(issues({ kind: "stdio", command: "node", args: ["s.js", "--token=abc"] })[0]).toMatch(
      /^servers\.0\.transport\.args\.1: holds a secret value \(--token\): .*\$\{TOKEN\}.*Secrets page/,
    );
    expect(issues({ kind: "http", url: "https://mcp.example/mcp?api_key=abc" })[0]).toMatch(
      /holds a secret value \(api_key\)/,
    );
    expect(issues({ kind: "stdio", command: "node", args: ["s.js", "--token=${TOKEN}"] })).toEqual(
      [],
    );
  });

  test("through the route into PGlite: nothing secret in the answer, the revisions or any file of the data folder", async () => {
    const res = await POST(
      new Request("http://127.0.0.1/api/import", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text: TEXT, fileName: "mcp.json" }),
      }),
    );
    expect(res.status).toBe(201);
    const text = await res.text();
    noSecretIn(text);
    const body = ImportResponseSchema.parse(JSON.parse(text));
    expect(body.summary.replacements).toHaveLength(13);
    const { getDb } = await import("@/lib/store/db");
    const db = await getDb();
    // Every row of every table as text: large jsonb is compressed on disk, so the files alone cannot prove absence.
    // Both drivers answer execute() with { rows }; the Db type leaves the raw result shape open.
    const rowsOf = async <T>(query: ReturnType<typeof sql>) => {
      const result = await db.execute(query);
      return (result as { rows: T[] }).rows;
    };
    const tables = await rowsOf<{ t: string }>(
      sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    let dump = "";
    for (const { t } of tables) {
      const rows = await rowsOf<{ row: string }>(
        sql`SELECT x::text AS row FROM ${sql.identifier(t)} x`,
      );
      dump += rows.map((r) => r.row).join("\n");
    }
    expect(dump).toContain("RR_LINEAR_API_KEY");
    noSecretIn(dump);
    await db.execute(sql`CHECKPOINT`);
    for (const s of SECRETS) expect(filesContaining(dataDir, s)).toEqual([]);
  });
});
