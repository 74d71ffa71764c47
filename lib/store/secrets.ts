import "server-only";
/**
 * The secret store's rows: set (or rotate) a value by name, delete it, list names, and open the
 * values an inspection is about to use. Values go in sealed (lib/secrets/crypto.ts) and come out
 * only through `openSecrets`, which the inspection's resolution calls at connect time; nothing
 * here returns a value to a route. Works the same on PGlite and PostgreSQL.
 */
import { asc, count, eq, inArray, ne } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { openSecret, sealSecret, secretKeyId } from "@/lib/secrets/crypto";
import { ENV_NAME_PATTERN, RESERVED_NAMES_RULE, isReservedName } from "@/lib/secrets/references";
import type { Db } from "@/lib/store/db";
import { checkStoredOAuth, rekeyOAuthRows, type OAuthRekeyCount } from "@/lib/store/oauth";
import { secrets } from "@/lib/store/tables";

/** Room for a PEM private key or a service-account JSON; env values beyond this are not credentials. */
export const MAX_SECRET_VALUE_BYTES = 16 * 1024;

export type SecretEntry = { name: string; createdAt: string; updatedAt: string };

/** Why a name cannot hold a secret, or null. */
export function secretNameProblem(name: string): string | null {
  if (!ENV_NAME_PATTERN.test(name))
    return "a secret's name must be a variable name: letters, digits and _, not starting with a digit, at most 128 characters";
  if (isReservedName(name)) return `${name} cannot be a secret: ${RESERVED_NAMES_RULE}`;
  return null;
}

/** Why a value cannot be stored, or null. */
export function secretValueProblem(value: string): string | null {
  if (value.length === 0) return "the value is empty; delete the secret instead";
  if (Buffer.byteLength(value, "utf8") > MAX_SECRET_VALUE_BYTES)
    return `the value is longer than ${MAX_SECRET_VALUE_BYTES} bytes`;
  if (value.includes("\u0000"))
    return "the value contains a NUL character, which no environment variable can hold";
  return null;
}

const toEntry = (r: { name: string; createdAt: Date; updatedAt: Date }): SecretEntry => ({
  name: r.name,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
});

/** Set or replace (rotate) a value. Throws a 400 AppError naming what is wrong with the name or value. */
export async function setSecret(
  db: Db,
  key: Buffer,
  name: string,
  value: string,
  now: Date = new Date(),
): Promise<SecretEntry & { created: boolean }> {
  const problem = secretNameProblem(name) ?? secretValueProblem(value);
  if (problem) throw new AppError("BAD_REQUEST", problem);
  const sealed = sealSecret(key, name, value);
  const [before] = await db
    .select({ name: secrets.name })
    .from(secrets)
    .where(eq(secrets.name, name));
  const [row] = await db
    .insert(secrets)
    .values({ name, ...sealed, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: secrets.name, set: { ...sealed, updatedAt: now } })
    .returning({ name: secrets.name, createdAt: secrets.createdAt, updatedAt: secrets.updatedAt });
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return { ...toEntry(row), created: before === undefined };
}

export async function deleteSecret(db: Db, name: string): Promise<boolean> {
  const rows = await db
    .delete(secrets)
    .where(eq(secrets.name, name))
    .returning({ name: secrets.name });
  return rows.length > 0;
}

export async function listSecrets(db: Db): Promise<SecretEntry[]> {
  const rows = await db
    .select({ name: secrets.name, createdAt: secrets.createdAt, updatedAt: secrets.updatedAt })
    .from(secrets)
    .orderBy(asc(secrets.name));
  return rows.map(toEntry);
}

export type OpenSecretsResult =
  { ok: true; values: Map<string, string> } | { ok: false; message: string };

/** The values of those of `names` that are set. A row that does not open is an error naming it (never guessed around). */
export async function openSecrets(
  db: Db,
  key: Buffer,
  names: readonly string[],
): Promise<OpenSecretsResult> {
  const wanted = [...new Set(names)].filter((n) => !isReservedName(n));
  const values = new Map<string, string>();
  if (wanted.length === 0) return { ok: true, values };
  const rows = await db.select().from(secrets).where(inArray(secrets.name, wanted));
  for (const row of rows) {
    const value = openSecret(key, row.name, row);
    if (value === null)
      return {
        ok: false,
        message: `the stored secret ${row.name} does not open with this instance's key; set it again on the Secrets page`,
      };
    values.set(row.name, value);
  }
  return { ok: true, values };
}

export type KeyCheck = { ok: true; stored: number } | { ok: false; message: string };

/**
 * At start: the key must open what is stored. No rows: any key (or none) is fine. Rows sealed
 * under another key, or a row that does not open, stop the start with the way out.
 */
export async function checkStoredSecrets(
  db: Db,
  key: { ok: true; key: Buffer; keyId: string } | { ok: false; message: string },
): Promise<KeyCheck> {
  const [total] = await db.select({ n: count() }).from(secrets);
  const stored = total?.n ?? 0;
  if (stored === 0) return { ok: true, stored };
  if (!key.ok)
    return {
      ok: false,
      message: `the database holds ${stored} secret(s) but this instance has no key to open them: ${key.message}`,
    };
  const [other] = await db.select({ n: count() }).from(secrets).where(ne(secrets.keyId, key.keyId));
  if ((other?.n ?? 0) > 0) {
    return {
      ok: false,
      message: `${other!.n} of the ${stored} stored secret(s) were sealed under another key than this instance's (key id ${key.keyId}); give this instance the key they were sealed with (RELAY_REVIEW_SECRET_KEY or RELAY_REVIEW_SECRET_KEY_FILE, the same on every instance), or delete those secrets and set them again`,
    };
  }
  const [sample] = await db.select().from(secrets).orderBy(asc(secrets.name)).limit(1);
  if (sample && openSecret(key.key, sample.name, sample) === null) {
    return {
      ok: false,
      message: `the stored secret ${sample.name} does not open with this instance's key although its key id matches: the row is damaged; delete it and set it again`,
    };
  }
  return { ok: true, stored };
}

/**
 * The start-up key check over everything sealed with the secret store's key: the secrets, then the
 * OAuth connections (lib/store/oauth.ts checkStoredOAuth). The first failure stops the start.
 */
export async function checkStoredKey(
  db: Db,
  key: { ok: true; key: Buffer; keyId: string } | { ok: false; message: string },
): Promise<KeyCheck> {
  const stored = await checkStoredSecrets(db, key);
  if (!stored.ok) return stored;
  const oauth = await checkStoredOAuth(db, key);
  if (!oauth.ok) return oauth;
  return { ok: true, stored: stored.stored + oauth.stored };
}

export type RekeyResult =
  | { ok: true; rekeyed: number; alreadyUnderNewKey: number; oauth: OAuthRekeyCount }
  | { ok: false; message: string };

/**
 * Re-seal everything sealed with the master key under a new one, in one transaction: the stored
 * secrets, the OAuth connections' tokens and registrations, and open OAuth flows' verifiers
 * (lib/store/oauth.ts rekeyOAuthRows). Every row must be sealed under `from` (or already under
 * `to`) and open with it, or nothing changes. A store left half under one key and half under
 * another is refused rather than finished blindly, naming the rows; so is a row that does not
 * open. After it, every instance must be given the new key.
 */
export async function rekeySecrets(db: Db, from: Buffer, to: Buffer): Promise<RekeyResult> {
  const fromId = secretKeyId(from);
  const toId = secretKeyId(to);
  if (fromId === toId) return { ok: false, message: "the old and the new key are the same key" };
  return db
    .transaction(async (tx) => {
      // FOR UPDATE: a value set meanwhile on another instance waits for this, then sees the new key id.
      const rows = await tx.select().from(secrets).orderBy(asc(secrets.name)).for("update");
      const other = rows.filter((r) => r.keyId !== fromId && r.keyId !== toId).map((r) => r.name);
      if (other.length)
        throw new RekeyRefusal(
          `${other.length} stored secret(s) are sealed under neither key (${other.slice(0, 10).join(", ")}${other.length > 10 ? ", …" : ""}); nothing was changed`,
        );
      // Changes made here before a refusal below are rolled back with the transaction.
      const oauth = await rekeyOAuthRows(tx, from, to, (m) => new RekeyRefusal(m));
      const under = rows.filter((r) => r.keyId === toId);
      const underAll = under.length + oauth.alreadyUnderNewKey;
      const all = rows.length + oauth.connections + oauth.alreadyUnderNewKey;
      if (underAll && underAll < all)
        throw new RekeyRefusal(
          `the store is half re-keyed: ${underAll} of ${all} secret(s) and sealed OAuth connection(s) are already under the new key and the rest under the old one, which this command never leaves behind; nothing was changed. Open both halves by hand or set the odd ones again`,
        );
      let rekeyed = 0;
      for (const row of rows) {
        if (row.keyId === toId) continue;
        const value = openSecret(from, row.name, row);
        if (value === null)
          throw new RekeyRefusal(
            `the stored secret ${row.name} does not open with the old key although its key id matches: the row is damaged; nothing was changed (delete it and set it again, then re-key)`,
          );
        await tx
          .update(secrets)
          .set({ ...sealSecret(to, row.name, value) })
          .where(eq(secrets.name, row.name));
        rekeyed++;
      }
      return { ok: true as const, rekeyed, alreadyUnderNewKey: under.length, oauth };
    })
    .catch((error: unknown) => {
      if (error instanceof RekeyRefusal) return { ok: false as const, message: error.message };
      throw error;
    });
}

/** Thrown inside the transaction so it rolls back; turned into a refusal value outside it. */
class RekeyRefusal extends Error {}
