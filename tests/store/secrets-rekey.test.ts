/**
 * Re-keying the secret store on both backends: every value re-sealed under the new master key in
 * one transaction, or nothing changed (a store half under each key, a row under a third key, a
 * damaged row, the same key twice).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { newSecretKey, secretKeyId } from "@/lib/secrets/crypto";
import { openStore, type Store } from "@/lib/store/db";
import { checkStoredSecrets, openSecrets, rekeySecrets, setSecret } from "@/lib/store/secrets";
import { secrets } from "@/lib/store/tables";
import { BACKENDS } from "./support/backends";

const VALUES = {
  A_TOKEN: "ghp_rekeyTestValue00000000000000000000001",
  B_TOKEN: "glpat-rekeyTestValue0000000002",
  C_TOKEN: "a plain value with spaces",
};

describe.each(BACKENDS)("re-keying the secret store on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  const oldKey = newSecretKey();
  const newKey = newSecretKey();

  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });
  beforeEach(async () => {
    await store.db.delete(secrets);
    for (const [name, value] of Object.entries(VALUES))
      await setSecret(store.db, oldKey, name, value);
  });

  const rows = async () =>
    (await store.db.select().from(secrets)).sort((a, b) => a.name.localeCompare(b.name));
  const names = Object.keys(VALUES);

  test("every value is re-sealed under the new key: it opens with the new key only, and the start-up check passes", async () => {
    expect(await rekeySecrets(store.db, oldKey, newKey)).toEqual({
      ok: true,
      rekeyed: 3,
      alreadyUnderNewKey: 0,
    });
    expect((await rows()).map((r) => r.keyId)).toEqual(Array(3).fill(secretKeyId(newKey)));
    const opened = await openSecrets(store.db, newKey, names);
    expect(opened.ok && Object.fromEntries(opened.values)).toEqual(VALUES);
    expect((await openSecrets(store.db, oldKey, names)).ok).toBe(false);
    expect(
      await checkStoredSecrets(store.db, { ok: true, key: newKey, keyId: secretKeyId(newKey) }),
    ).toEqual({ ok: true, stored: 3 });
    // No value is in any row as text.
    const text = JSON.stringify(await store.db.execute(sql`SELECT s::text AS row FROM secrets s`));
    for (const v of Object.values(VALUES)) expect(text).not.toContain(v);
    // Run again: nothing left to do.
    expect(await rekeySecrets(store.db, oldKey, newKey)).toEqual({
      ok: true,
      rekeyed: 0,
      alreadyUnderNewKey: 3,
    });
  });

  test.each([
    {
      what: "the same key twice",
      prepare: () => Promise.resolve(),
      same: true,
      message: "the same key",
    },
    {
      what: "a store half under each key",
      prepare: () => setSecret(store.db, newKey, "B_TOKEN", VALUES.B_TOKEN).then(() => undefined),
      same: false,
      message: "half re-keyed: 1 of 3",
    },
    {
      what: "a row under a third key",
      prepare: () =>
        setSecret(store.db, newSecretKey(), "C_TOKEN", VALUES.C_TOKEN).then(() => undefined),
      same: false,
      message: "sealed under neither key (C_TOKEN)",
    },
    {
      what: "a damaged row (the last one, after two re-sealed in the same transaction)",
      prepare: async () => {
        await store.db.execute(
          sql`UPDATE secrets SET sealed = ${Buffer.alloc(40, 7).toString("base64")} WHERE name = 'C_TOKEN'`,
        );
      },
      same: false,
      message: "the stored secret C_TOKEN does not open with the old key",
    },
  ])("refused, with nothing changed: $what", async ({ prepare, same, message }) => {
    await prepare();
    const before = await rows();
    const r = await rekeySecrets(store.db, oldKey, same ? oldKey : newKey);
    expect(r.ok ? "(re-keyed)" : r.message).toContain(message);
    expect(await rows()).toEqual(before);
  });
});
