/**
 * Where the workbench's signing key lives in a data folder (lib/data-dir.ts), as names only (no
 * I/O), so that the CLI can read a public key without importing the server-only key store.
 */
import path from "node:path";

export const SIGNING_KEY_FILE = "signing-key.pem";
export const SIGNING_PUBLIC_KEY_FILE = "signing-key.pub.pem";

export function signingKeyPaths(dataDir: string): { privateKey: string; publicKey: string } {
  return {
    privateKey: path.join(dataDir, SIGNING_KEY_FILE),
    publicKey: path.join(dataDir, SIGNING_PUBLIC_KEY_FILE),
  };
}
