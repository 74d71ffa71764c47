/**
 * The data folder: `RELAY_REVIEW_DATA`, else `./.data`, resolved against the working directory.
 * One rule for everything the workbench keeps on disk beside the database: PGlite's files
 * (`pglite/`), the owner token, the secret store's key, the signing key pair and the owner's
 * `launchers.json`. Each owner names its own file; this module only says where the folder is, so
 * the store, the key files, the CLI and the launcher allowlist cannot disagree about it. Pure.
 */
import path from "node:path";

export const DEFAULT_DATA_DIR = ".data";

export function resolveDataDir(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd = process.cwd(),
): string {
  return path.resolve(cwd, env.RELAY_REVIEW_DATA?.trim() || DEFAULT_DATA_DIR);
}
