/**
 * `relay-review audit verify` as a real child process against the real audit routes (export,
 * verify) over node:http on 127.0.0.1, with the real auth check in front (lib/auth/check.ts, as
 * proxy.ts wires it) and a real PGlite store in a temp data folder: an intact log exits 0; an
 * export kept with --output and then altered, cut or reordered exits 1 naming the row; a row
 * altered directly in the database exits 1 through the workbench and the verify route names the
 * same row; a key that is not the workbench's exits 1; no key exits 2.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AuditExportSchema, AuditVerifyResponseSchema } from "@/lib/audit/export";
import { resolveOwnerToken } from "@/lib/auth/owner-token";
import type * as StoreDb from "@/lib/store/db";
import type * as StoreEvents from "@/lib/store/events";
import { runCli } from "@/tests/support/cli";
import { handlerOf, startRouteServer, type Route } from "@/tests/support/route-server";

const dataDir = mkdtempSync(path.join(tmpdir(), "rr-audit-cli-"));
process.env.RELAY_REVIEW_DATA = dataDir;
delete process.env.DATABASE_URL;
delete process.env.RELAY_REVIEW_TOKEN;

let http: Awaited<ReturnType<typeof startRouteServer>>;
let base: string;
let ownerToken: string;
let store: typeof StoreDb & typeof StoreEvents;

beforeAll(async () => {
  ownerToken = resolveOwnerToken({}, dataDir).token;
  const routes: Route[] = [
    [
      /^\/api\/audit\/export$/,
      "GET",
      handlerOf(await import("@/app/api/audit/export/route"), "GET"),
    ],
    [
      /^\/api\/audit\/verify$/,
      "GET",
      handlerOf(await import("@/app/api/audit/verify/route"), "GET"),
    ],
  ];
  store = { ...(await import("@/lib/store/db")), ...(await import("@/lib/store/events")) };
  const db = await store.getDb();
  await store.appendEvent(db, { id: "a1", kind: "secret.set", actor: "owner", summary: "set A" });
  await store.appendEvent(db, {
    id: "a2",
    kind: "surface.changed",
    actor: "schedule",
    summary: "knowledge-mcp changed",
    detail: { added: ["get_page"] },
  });
  await store.appendEvent(db, { id: "a3", kind: "pin.set", actor: "owner", summary: "re-pinned" });
  await store.appendEvent(db, { id: "a4", kind: "secret.deleted", actor: "owner", summary: "B" });
  http = await startRouteServer(ownerToken, routes);
  base = http.base;
}, 120_000);

afterAll(async () => {
  await http?.close();
  await store?.closeStore();
  await rm(dataDir, { recursive: true, force: true });
});

function cli(args: string[]) {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.RELAY_REVIEW_TOKEN;
  return runCli(["audit", "verify", ...args], env);
}

const keptFile = path.join(dataDir, "kept-export.json");

/** The kept export, changed by `edit`, written beside it; returns its path. */
async function editedExport(name: string, edit: (rows: Record<string, unknown>[]) => void) {
  const exported = JSON.parse(await readFile(keptFile, "utf8")) as {
    rows: Record<string, unknown>[];
  };
  edit(exported.rows);
  const file = path.join(dataDir, `${name}.json`);
  await writeFile(file, JSON.stringify(exported));
  return file;
}

describe("relay-review audit verify", () => {
  test("an intact log from the workbench exits 0 and keeps the export with --output", async () => {
    const r = await cli(["--workbench", base, "--data", dataDir, "--output", keptFile]);
    expect(r.stderr).toMatch(/intact: 4 rows/);
    expect(r.stderr).toMatch(/1 signed head, the last signed .* over 4 rows/);
    expect(r.code).toBe(0);
    const kept = AuditExportSchema.parse(JSON.parse(await readFile(keptFile, "utf8")));
    expect(kept.rows.map((row) => [row.id, row.actorKind])).toEqual([
      ["a1", "owner_token"],
      ["a2", "schedule"],
      ["a3", "owner_token"],
      ["a4", "owner_token"],
    ]);
    expect((await cli(["--file", keptFile, "--data", dataDir])).code).toBe(0);
  });

  test("an export with a row's text altered exits 1 and names the row", async () => {
    const file = await editedExport("altered", (rows) => {
      rows[1]!.summary = "nothing changed";
    });
    const r = await cli(["--file", file, "--data", dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN: row a2 \(seq \d+\) was altered/);
  });

  test("an export with a row removed, or the last one removed, exits 1 and says so", async () => {
    const middle = await cli([
      "--file",
      await editedExport("cut", (rows) => void rows.splice(2, 1)),
      "--data",
      dataDir,
    ]);
    expect(middle.code).toBe(1);
    expect(middle.stderr).toMatch(/BROKEN: row a4 .* links to prev_hash .*row a2 .*removed/);
    const tail = await cli([
      "--file",
      await editedExport("tail", (rows) => void rows.pop()),
      "--data",
      dataDir,
    ]);
    expect(tail.code).toBe(1);
    expect(tail.stderr).toMatch(/BROKEN: the head signed at .* covers 4 rows .* the log has 3/);
  });

  test("an export with two rows' places swapped exits 1 and calls it reordered", async () => {
    const file = await editedExport("swapped", (rows) => {
      const [s1, s2] = [rows[1]!.seq, rows[2]!.seq];
      rows[1]!.seq = s2;
      rows[2]!.seq = s1;
    });
    const r = await cli(["--file", file, "--data", dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN: row a3 .* links to row a2, which now sits after it/);
  });

  test("a key that is not the workbench's exits 1; no key at all exits 2", async () => {
    const other = path.join(dataDir, "other.pub.pem");
    await writeFile(
      other,
      generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }),
    );
    const wrong = await cli(["--file", keptFile, "--public-key", other]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/BROKEN: the head signed at .* names key/);
    const empty = mkdtempSync(path.join(tmpdir(), "rr-audit-nokey-"));
    try {
      const none = await cli(["--file", keptFile, "--data", empty]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/no signing key/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  test("usage errors exit 2 and name what is wrong", async () => {
    const both = await cli(["--file", keptFile, "--workbench", base]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --workbench URL or --file/);
    const notExport = path.join(dataDir, "not-export.json");
    await writeFile(notExport, JSON.stringify({ format: "something else" }));
    const r = await cli(["--file", notExport, "--data", dataDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a relay-review audit export: format/);
  });

  test("a row altered directly in the database: the CLI exits 1 and the verify route names the same row", async () => {
    const db = await store.getDb();
    await db.transaction(async (tx) => {
      await tx.execute(sql`ALTER TABLE events DISABLE TRIGGER events_no_rewrite`);
      await tx.execute(
        sql`UPDATE events SET actor = 'schedule', actor_kind = 'schedule' WHERE id = 'a3'`,
      );
      await tx.execute(sql`ALTER TABLE events ENABLE TRIGGER events_no_rewrite`);
    });
    const r = await cli(["--workbench", base, "--data", dataDir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/BROKEN: row a3 \(seq \d+\) was altered/);
    const res = await fetch(`${base}/api/audit/verify`, {
      headers: { authorization: `Bearer ${ownerToken}` },
    });
    expect(res.status).toBe(200);
    const body = AuditVerifyResponseSchema.parse(await res.json());
    expect(body).toMatchObject({ isIntact: false, firstBreak: { kind: "content", id: "a3" } });
    // Without the owner token the route is not answered.
    expect((await fetch(`${base}/api/audit/verify`)).status).toBe(401);
  });
});
