/**
 * The secret store on both backends: set, rotate, delete, list names, open at connect time, and
 * the start-up key check. The value is never in any row as text.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, test } from "vitest";
import { newSecretKey, secretKeyId } from "@/lib/secrets/crypto";
import { resolveSecretKey } from "@/lib/secrets/key";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import { createReview } from "@/lib/store/reviews";
import {
  checkStoredSecrets,
  deleteSecret,
  listSecrets,
  openSecrets,
  setSecret,
} from "@/lib/store/secrets";
import { listInspections, recordInspection } from "@/lib/store/snapshots";
import { secrets } from "@/lib/store/tables";
import { BACKENDS, useStore } from "./support/backends";

const VALUE = "ghp_storeTestValue000000000000000000000001";
const ROTATED = "ghp_storeTestValue000000000000000000000002";

describe.each(BACKENDS)("secret store on $name", (backend) => {
  const store = useStore(backend);
  const key = newSecretKey();
  const keyResult = { ok: true as const, key, keyId: secretKeyId(key) };

  const dump = async () => {
    const r = await store.db.execute(sql`SELECT s::text AS row FROM secrets s`);
    return (r as { rows: { row: string }[] }).rows.map((x) => x.row).join("\n");
  };

  test("an empty store passes the key check with any key or none", async () => {
    expect(await checkStoredSecrets(store.db, keyResult)).toEqual({ ok: true, stored: 0 });
    expect(await checkStoredSecrets(store.db, { ok: false, message: "no key" })).toEqual({
      ok: true,
      stored: 0,
    });
  });

  test("set, list (names only), open, rotate, delete", async () => {
    const first = await setSecret(
      store.db,
      key,
      "GITHUB_TOKEN",
      VALUE,
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(first).toMatchObject({
      name: "GITHUB_TOKEN",
      created: true,
      updatedAt: "2026-01-01T00:00:00.000Z",
    });
    expect(await listSecrets(store.db)).toEqual([
      {
        name: "GITHUB_TOKEN",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
    expect(JSON.stringify(await listSecrets(store.db))).not.toContain("ghp_");
    expect(await dump()).not.toContain(VALUE);
    const opened = await openSecrets(store.db, key, ["GITHUB_TOKEN", "UNSET"]);
    expect(opened.ok && [...opened.values]).toEqual([["GITHUB_TOKEN", VALUE]]);

    const rotated = await setSecret(
      store.db,
      key,
      "GITHUB_TOKEN",
      ROTATED,
      new Date("2026-02-01T00:00:00Z"),
    );
    expect(rotated).toMatchObject({
      created: false,
      createdAt: "2026-01-01T00:00:00.000Z",
      updatedAt: "2026-02-01T00:00:00.000Z",
    });
    const again = await openSecrets(store.db, key, ["GITHUB_TOKEN"]);
    expect(again.ok && again.values.get("GITHUB_TOKEN")).toBe(ROTATED);
    expect(await dump()).not.toContain(ROTATED);

    expect(await deleteSecret(store.db, "GITHUB_TOKEN")).toBe(true);
    expect(await deleteSecret(store.db, "GITHUB_TOKEN")).toBe(false);
    const gone = await openSecrets(store.db, key, ["GITHUB_TOKEN"]);
    expect(gone.ok && gone.values.size).toBe(0);
  });

  test.each([
    ["RELAY_REVIEW_TOKEN", "x", /belong to the workbench/],
    ["DATABASE_URL", "x", /belong to the workbench/],
    ["1BAD", "x", /variable name/],
    ["GOOD", "", /empty/],
    ["GOOD", "a\u0000b", /NUL/],
    ["GOOD", "x".repeat(16 * 1024 + 1), /longer than/],
  ])("refuses %s = (%#)", async (name, value, message) => {
    await expect(setSecret(store.db, key, name, value)).rejects.toThrow(message);
  });

  test("the key check refuses a start whose key cannot open what is stored", async () => {
    await setSecret(store.db, key, "CHECK_ME", "value-for-the-key-check");
    expect(await checkStoredSecrets(store.db, keyResult)).toEqual({ ok: true, stored: 1 });
    const other = newSecretKey();
    const wrong = await checkStoredSecrets(store.db, {
      ok: true,
      key: other,
      keyId: secretKeyId(other),
    });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.message).toMatch(
      /sealed under another key .*RELAY_REVIEW_SECRET_KEY/,
    );
    const none = await checkStoredSecrets(store.db, {
      ok: false,
      message: "set RELAY_REVIEW_SECRET_KEY",
    });
    expect(!none.ok && none.message).toMatch(/holds 1 secret\(s\) but this instance has no key/);
    // A damaged row under the right key id is named, not skipped.
    await store.db
      .update(secrets)
      .set({ sealed: Buffer.alloc(40, 7).toString("base64") })
      .where(sql`name = 'CHECK_ME'`);
    const damaged = await checkStoredSecrets(store.db, keyResult);
    expect(!damaged.ok && damaged.message).toMatch(/CHECK_ME .*damaged/);
    const open = await openSecrets(store.db, key, ["CHECK_ME"]);
    expect(!open.ok && open.message).toMatch(/CHECK_ME does not open .*Secrets page/);
    await deleteSecret(store.db, "CHECK_ME");
  });

  test("an inspection records the variables it was given, by name and source", async () => {
    const review = await createReview(
      store.db,
      { schemaVersion: REVIEW_SCHEMA_VERSION, title: "vars" },
      "t",
    );
    await recordInspection(store.db, {
      reviewId: review.id,
      serverId: "s",
      snapshotSha256: null,
      surfaceSha256: null,
      declaredCapabilities: [],
      status: "failed",
      variables: [
        { name: "GITHUB_TOKEN", source: "secret" },
        { name: "GITLAB_API_URL", source: "launcher" },
      ],
    });
    const [inspection] = await listInspections(store.db, review.id, "s");
    expect(inspection?.variables).toEqual([
      { name: "GITHUB_TOKEN", source: "secret" },
      { name: "GITLAB_API_URL", source: "launcher" },
    ]);
  });
});

describe("the secret key's source", () => {
  const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), "relay-review-key-"));

  test("PGlite: a key file in the data folder, mode 0600, created once and read after", () => {
    const dir = tmp();
    const first = resolveSecretKey({ RELAY_REVIEW_DATA: dir }, "/");
    expect(first).toMatchObject({
      ok: true,
      source: "generated",
      file: path.join(dir, "secret-key"),
    });
    expect(fs.statSync(path.join(dir, "secret-key")).mode & 0o777).toBe(0o600);
    const second = resolveSecretKey({ RELAY_REVIEW_DATA: dir }, "/");
    expect(second).toMatchObject({ ok: true, source: "data-file" });
    expect(first.ok && second.ok && first.keyId === second.keyId).toBe(true);
  });

  test("DATABASE_URL without a key: unavailable, with the variables to set", () => {
    const r = resolveSecretKey({ DATABASE_URL: "postgres://x/y", RELAY_REVIEW_DATA: tmp() }, "/");
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message).toMatch(/RELAY_REVIEW_SECRET_KEY .*RELAY_REVIEW_SECRET_KEY_FILE/);
  });

  test("DATABASE_URL with RELAY_REVIEW_SECRET_KEY or a key file: every instance the same key", () => {
    const k = newSecretKey();
    const env = resolveSecretKey(
      { DATABASE_URL: "postgres://x/y", RELAY_REVIEW_SECRET_KEY: k.toString("base64") },
      "/",
    );
    expect(env).toMatchObject({ ok: true, source: "env", keyId: secretKeyId(k) });
    const file = path.join(tmp(), "k");
    fs.writeFileSync(file, k.toString("base64"), { mode: 0o600 });
    expect(
      resolveSecretKey({ DATABASE_URL: "postgres://x/y", RELAY_REVIEW_SECRET_KEY_FILE: file }, "/"),
    ).toMatchObject({ ok: true, source: "env-file", keyId: secretKeyId(k) });
    expect(resolveSecretKey({ RELAY_REVIEW_SECRET_KEY: "short" }, "/").ok).toBe(false);
  });
});
