/**
 * Where the workbench keeps its state, read from the environment in one place. Pure: no I/O.
 * - `RELAY_REVIEW_DATA`: the data folder (default `./.data`): PGlite's files and the owner token.
 * - `DATABASE_URL`: use this PostgreSQL instead of PGlite (several instances behind a balancer).
 */
import path from "node:path";

export const DEFAULT_DATA_DIR = ".data";
export const PGLITE_SUBDIR = "pglite";

export type StoreTarget = { kind: "pglite"; dataDir: string } | { kind: "postgres"; url: string };

export function resolveDataDir(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): string {
  return path.resolve(cwd, env.RELAY_REVIEW_DATA?.trim() || DEFAULT_DATA_DIR);
}

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
