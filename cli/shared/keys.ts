/**
 * The key a record's signature is checked with, for `verify-record` and `gate`: `--public-key
 * FILE` (a PEM public or private key), else the data folder's signing key (`--data DIR`, else
 * lib/data-dir.ts). Read, never created: a key the CLI invented would verify nothing.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { readFile } from "node:fs/promises";
import { resolveDataDir } from "@/lib/data-dir";
import { signingKeyPaths } from "@/lib/decisions/key-files";

export type VerificationKey =
  | {
      ok: true;
      key: KeyObject;
      /** The file it came from, to say which key vouched. */ from: string;
    }
  | { ok: false; message: string };

async function readOptional(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export async function loadVerificationKey(options: {
  publicKeyFile: string | null;
  dataDir: string | null;
}): Promise<VerificationKey> {
  try {
    if (options.publicKeyFile !== null) {
      const pem = await readOptional(options.publicKeyFile);
      if (pem === null) return { ok: false, message: `no such file: ${options.publicKeyFile}` };
      return { ok: true, key: createPublicKey(pem), from: options.publicKeyFile };
    }
    const dir = options.dataDir ?? resolveDataDir();
    const files = signingKeyPaths(dir);
    for (const file of [files.publicKey, files.privateKey]) {
      const pem = await readOptional(file);
      if (pem !== null) return { ok: true, key: createPublicKey(pem), from: file };
    }
    return {
      ok: false,
      message: `no signing key in ${dir} (the workbench creates one when it first signs a record); pass --public-key FILE (the workbench's signing-key.pub.pem)`,
    };
  } catch (error) {
    return {
      ok: false,
      message: `cannot read the key: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
