import "server-only";
/**
 * Opening the store: PGlite in the data folder, or PostgreSQL when DATABASE_URL is set, with the
 * migrations in drizzle/ applied before anything else runs, and event rows written before the
 * audit chain existed sealed into it (lib/store/audit.ts). `getDb()` is the one instance per
 * process (a globalThis singleton, because Next loads route handlers, instrumentation and the
 * proxy as separate bundles in one process); tests call `openStore()` directly.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as tables from "@/lib/store/tables";
import { resolveStoreTarget, type StoreTarget } from "@/lib/store/config";
import { acquireDirLock } from "@/lib/store/dir-lock";
import { sealLegacyEvents } from "@/lib/store/audit";

/** Both drivers' databases, as the store functions see them. */
export type Db = PgDatabase<PgQueryResultHKT, typeof tables>;

export interface Store {
  readonly db: Db;
  readonly target: StoreTarget;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), "drizzle");
/**
 * Session-level advisory lock key held around migrate(), so two instances starting at once
 * against one PostgreSQL do not both try to create the same tables. Arbitrary, fixed forever.
 */
export const MIGRATION_LOCK_KEY = 7_231_946_001;
const PG_POOL_MAX = 10;

export interface OpenStoreOptions {
  target?: StoreTarget;
  migrationsFolder?: string;
}

export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const target = options.target ?? resolveStoreTarget();
  const migrationsFolder = options.migrationsFolder ?? MIGRATIONS_FOLDER;
  if (target.kind === "pglite") {
    await fs.mkdir(target.dataDir, { recursive: true, mode: 0o700 });
    const release = acquireDirLock(`${target.dataDir}.lock`);
    let client: PGlite | undefined;
    try {
      client = await PGlite.create(target.dataDir);
      const db = drizzlePglite({ client, schema: tables });
      // The lock makes this the only PGlite on the folder, so there is no concurrent migrator.
      await migratePglite(db, { migrationsFolder });
      await sealLegacyEvents(db);
      const opened = client;
      return {
        db: db as unknown as Db, // same pg-core query builder; only the HKT of raw results differs
        target,
        close: async () => {
          try {
            await opened.close();
          } finally {
            release();
          }
        },
      };
    } catch (error) {
      try {
        await client?.close();
      } finally {
        release();
      }
      throw error;
    }
  }
  await migratePostgres(target.url, migrationsFolder);
  const pool = new pg.Pool({ connectionString: target.url, max: PG_POOL_MAX });
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on("error", (error) =>
    console.error("[store] idle PostgreSQL connection failed:", error.message),
  );
  const db = drizzlePg({ client: pool, schema: tables });
  return { db: db as unknown as Db, target, close: () => pool.end() };
}

/** migrate() on one dedicated connection that holds the advisory lock for its whole run. */
async function migratePostgres(url: string, migrationsFolder: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client }), { migrationsFolder });
      // Still under the migration lock: one instance seals the rows written before the chain.
      await sealLegacyEvents(drizzlePg({ client, schema: tables }));
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await client.end();
  }
}

const GLOBAL_KEY = Symbol.for("relay-review.store");
type GlobalWithStore = typeof globalThis & { [GLOBAL_KEY]?: Promise<Store> };

/** The process-wide store, opened (and migrated) on first use. A failed open is retried next call. */
export function getStore(): Promise<Store> {
  const g = globalThis as GlobalWithStore;
  let pending = g[GLOBAL_KEY];
  if (!pending) {
    pending = openStore();
    g[GLOBAL_KEY] = pending;
    pending.catch(() => {
      if (g[GLOBAL_KEY] === pending) delete g[GLOBAL_KEY];
    });
  }
  return pending;
}

export async function getDb(): Promise<Db> {
  return (await getStore()).db;
}

/** Closes the process-wide store (on SIGTERM), so PGlite shuts down cleanly. */
export async function closeStore(): Promise<void> {
  const g = globalThis as GlobalWithStore;
  const pending = g[GLOBAL_KEY];
  delete g[GLOBAL_KEY];
  if (pending) await (await pending).close();
}
