import "server-only";
/**
 * The workbench's Ed25519 signing key, kept in the data folder and created on first use.
 * Invariants: the private key file is mode 0600; a file is only ever seen whole (written to a
 * temporary file, fsynced, then linked or renamed into place), so a crash never leaves half a key;
 * two processes creating the key at once agree on one key (the private key is linked into place,
 * which fails if it exists, instead of renamed over it). The public key file is derived from the
 * private key and rewritten when it does not match.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  type KeyObject,
} from "node:crypto";
import { chmod, link, mkdir, open, readFile, rename, stat, unlink } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { resolveDataDir } from "@/lib/data-dir";
import { signingKeyPaths } from "@/lib/decisions/key-files";
import { signingKeyId } from "@/lib/decisions/record";

export type SigningKey = {
  privateKey: KeyObject;
  publicKey: KeyObject;
  keyId: string;
  publicKeyPem: string;
};

const PRIVATE_MODE = 0o600;
const PUBLIC_MODE = 0o644;
const IS_POSIX = process.platform !== "win32";

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

async function syncDir(dir: string): Promise<void> {
  // Best effort: makes the rename durable; some platforms cannot open a directory for sync.
  try {
    const fh = await open(dir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    /* durability only, not correctness */
  }
}

/** Write `content` to `file` whole. With `noClobber`, returns false (and writes nothing) when `file` already exists. */
async function writeWhole(
  file: string,
  content: string,
  mode: number,
  noClobber: boolean,
): Promise<boolean> {
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const fh = await open(tmp, "wx", mode);
  try {
    await fh.writeFile(content, "utf8");
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await chmod(tmp, mode);
    if (!noClobber) {
      await rename(tmp, file);
      return true;
    }
    try {
      await link(tmp, file);
      return true;
    } catch (error) {
      if (errorCode(error) === "EEXIST") return false;
      // Filesystems without hard links: check, then rename (a narrow race instead of none).
      if (!["EPERM", "ENOTSUP", "ENOSYS", "EOPNOTSUPP", "EXDEV"].includes(errorCode(error) ?? ""))
        throw error;
      const exists = await stat(file).then(
        () => true,
        () => false,
      );
      if (exists) return false;
      await rename(tmp, file);
      return true;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
    await syncDir(path.dirname(file));
  }
}

async function readPrivateKey(file: string): Promise<KeyObject | null> {
  let pem: string;
  try {
    pem = await readFile(file, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
  if (IS_POSIX && ((await stat(file)).mode & 0o077) !== 0) {
    throw new AppError("INTERNAL", "the workbench's signing key is readable by other users", {
      message: `${file} is readable by other users; run: chmod 600 ${JSON.stringify(file)}`,
    });
  }
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== "ed25519") {
    throw new AppError("INTERNAL", "the workbench's signing key is not an Ed25519 key", {
      message: `${file} holds a ${key.asymmetricKeyType ?? "?"} key`,
    });
  }
  return key;
}

async function loadOrCreate(dataDir: string): Promise<SigningKey> {
  const files = signingKeyPaths(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let privateKey = await readPrivateKey(files.privateKey);
  if (!privateKey) {
    const generated = generateKeyPairSync("ed25519").privateKey;
    const pem = generated.export({ type: "pkcs8", format: "pem" }).toString();
    const isOurs = await writeWhole(files.privateKey, pem, PRIVATE_MODE, true);
    privateKey = isOurs ? generated : await readPrivateKey(files.privateKey);
    if (!privateKey)
      throw new AppError("INTERNAL", "the signing key could not be created", {
        message: `${files.privateKey} vanished after creation`,
      });
  }
  const publicKey = createPublicKey(privateKey);
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const onDisk = await readFile(files.publicKey, "utf8").catch(() => null);
  if (onDisk !== publicKeyPem) await writeWhole(files.publicKey, publicKeyPem, PUBLIC_MODE, false);
  return { privateKey, publicKey, keyId: signingKeyId(publicKey), publicKeyPem };
}

const cache = new Map<string, Promise<SigningKey>>();

/** The signing key of the data folder (default: `RELAY_REVIEW_DATA` or `./.data`), created on first use. */
export function loadOrCreateSigningKey(dataDir: string = resolveDataDir()): Promise<SigningKey> {
  const dir = path.resolve(dataDir);
  let pending = cache.get(dir);
  if (!pending) {
    pending = loadOrCreate(dir);
    cache.set(dir, pending);
    // A failure is not cached: the next call tries again.
    pending.catch(() => cache.delete(dir));
  }
  return pending;
}

/** The public half as SPKI PEM, what `relay-review verify-record --public-key` takes. */
export async function publicKeyPem(dataDir: string = resolveDataDir()): Promise<string> {
  return (await loadOrCreateSigningKey(dataDir)).publicKeyPem;
}
