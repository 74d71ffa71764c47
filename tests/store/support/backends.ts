/**
 * The backends every store suite runs against: PGlite always (a fresh temp folder per suite) and
 * PostgreSQL when TEST_DATABASE_URL is set (a fresh database per suite, dropped afterwards, so
 * reruns and parallel files never see each other's rows).
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import type { StoreTarget } from "@/lib/store/config";
import { openStore, type Store } from "@/lib/store/db";

export interface TestBackend {
  name: "pglite" | "postgres";
  /** Creates a fresh, empty place for one suite; `drop()` removes it. */
  provision(): Promise<{ target: StoreTarget; drop: () => Promise<void> }>;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const pgliteBackend: TestBackend = {
  name: "pglite",
  async provision() {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "relay-review-store-"));
    return {
      target: { kind: "pglite", dataDir: path.join(dir, "pglite") },
      drop: () => fs.rm(dir, { recursive: true, force: true }),
    };
  },
};

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export function postgresBackend(adminUrl: string): TestBackend {
  return {
    name: "postgres",
    async provision() {
      const database = `relay_review_test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE "${database}"`);
      } finally {
        await admin.end();
      }
      return {
        target: { kind: "postgres", url: withDatabase(adminUrl, database) },
        async drop() {
          const c = new pg.Client({ connectionString: adminUrl });
          await c.connect();
          try {
            await c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
          } finally {
            await c.end();
          }
        },
      };
    },
  };
}

export const BACKENDS: TestBackend[] = [
  pgliteBackend,
  ...(TEST_DATABASE_URL ? [postgresBackend(TEST_DATABASE_URL)] : []),
];

/**
 * A fresh store on `backend` for the enclosing suite: provisioned and opened before its tests (and
 * before any `beforeAll` registered after this call), closed and dropped after them. Its `db` is
 * valid inside those hooks and tests.
 */
export function useStore(backend: TestBackend): { readonly db: Store["db"] } {
  let store: Store | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });
  return {
    get db() {
      if (!store) throw new Error("the suite's store is opened in beforeAll; read it in a test");
      return store.db;
    },
  };
}

/**
 * Points the process-wide store (`getDb()`, which route handlers use) at `backend` for the
 * enclosing suite: PGlite in the data folder the file set (RELAY_REVIEW_DATA), PostgreSQL in a
 * fresh database through DATABASE_URL, dropped afterwards. The store is closed before and after, so
 * the next suite opens its own.
 */
export function useProcessStore(backend: TestBackend): void {
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const { closeStore } = await import("@/lib/store/db");
    await closeStore();
    if (backend.name === "postgres") {
      const provisioned = await backend.provision();
      drop = provisioned.drop;
      if (provisioned.target.kind !== "postgres") throw new Error("postgres backend gave no url");
      process.env.DATABASE_URL = provisioned.target.url;
    } else delete process.env.DATABASE_URL;
  });
  afterAll(async () => {
    const { closeStore } = await import("@/lib/store/db");
    await closeStore();
    delete process.env.DATABASE_URL;
    await drop?.();
  });
}
