/**
 * Where the workbench's signing key lives, as names only (no I/O), so that the CLI can read a
 * public key without importing the server-only key store. Same data folder rule as lib/store:
 * `RELAY_REVIEW_DATA`, default `./.data`.
 */
import path from "node:path";

export const DEFAULT_DATA_DIR = ".data";
export const SIGNING_KEY_FILE = "signing-key.pem";
export const SIGNING_PUBLIC_KEY_FILE = "signing-key.pub.pem";

export function resolveDataDir(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): string {
  return path.resolve(cwd, env.RELAY_REVIEW_DATA?.trim() || DEFAULT_DATA_DIR);
}

export function signingKeyPaths(dataDir: string): { privateKey: string; publicKey: string } {
  return {
    privateKey: path.join(dataDir, SIGNING_KEY_FILE),
    publicKey: path.join(dataDir, SIGNING_PUBLIC_KEY_FILE),
  };
}
