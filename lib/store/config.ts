/**
 * Which database the workbench uses, read from the environment in one place. Pure: no I/O.
 * - `DATABASE_URL`: use this PostgreSQL instead of PGlite (several instances behind a balancer).
 * - otherwise PGlite under the data folder (lib/data-dir.ts: `RELAY_REVIEW_DATA`, else `./.data`).
 */
import path from "node:path";
import { resolveDataDir } from "@/lib/data-dir";

export const PGLITE_SUBDIR = "pglite";

export type StoreTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export function resolveStoreTarget(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): StoreTarget {
  const url = env.DATABASE_URL?.trim();
  if (url) return { kind: "postgres", url };
  return { kind: "pglite", dataDir: path.join(resolveDataDir(env, cwd), PGLITE_SUBDIR) };
}

/** For logs: never print a password that may sit in DATABASE_URL. */
export function describeStoreTarget(target: StoreTarget): string {
  if (target.kind === "pglite") return `PGlite at ${target.dataDir}`;
  try {
    const u = new URL(target.url);
    if (u.password) u.password = "***";
    return `PostgreSQL at ${u.toString()}`;
  } catch {
    return "PostgreSQL (DATABASE_URL is not a parseable URL)";
  }
}
