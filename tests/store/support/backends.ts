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
import type { StoreTarget } from "@/lib/store/config";

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
