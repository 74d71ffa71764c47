/**
 * Sealing secret values: AES-256-GCM (node:crypto) with a random 96-bit nonce per value and the
 * secret's name as associated data, so a sealed value only opens under its own name and any
 * change to nonce, ciphertext, tag or name is detected. The key id is a hash of the key, stored
 * beside each value, so the workbench can tell "wrong key" from "damaged row" before using one.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

export const SECRET_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** Bound into the associated data so a future format cannot be confused with this one. */
const AAD_PREFIX = "relay-review secret v1\u0000";

export type Sealed = { keyId: string; nonce: string; sealed: string };

/** A short public fingerprint of a key: SHA-256 over a label and the key, first 16 hex digits. */
export function secretKeyId(key: Buffer): string {
  return createHash("sha256")
    .update("relay-review secret key id\u0000")
    .update(key)
    .digest("hex")
    .slice(0, 16);
}

function checkKey(key: Buffer): void {
  if (key.length !== SECRET_KEY_BYTES)
    throw new Error(`the secret key must be ${SECRET_KEY_BYTES} bytes, not ${key.length}`);
}

export function sealSecret(key: Buffer, name: string, value: string): Sealed {
  checkKey(key);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(AAD_PREFIX + name, "utf8"));
  const body = Buffer.concat([cipher.update(value, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return {
    keyId: secretKeyId(key),
    nonce: nonce.toString("base64"),
    sealed: body.toString("base64"),
  };
}

/** The value, or null when the key, the name or any stored byte does not match. */
export function openSecret(key: Buffer, name: string, sealed: Sealed): string | null {
  checkKey(key);
  const nonce = Buffer.from(sealed.nonce, "base64");
  const body = Buffer.from(sealed.sealed, "base64");
  if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, nonce, { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(AAD_PREFIX + name, "utf8"));
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(body.subarray(0, body.length - TAG_BYTES)),
      decipher.final(),
    ]).toString("utf8");
  } catch {
    return null;
  }
}

/** A key from its base64 text (RELAY_REVIEW_SECRET_KEY or a key file), or a message saying what is wrong. */
export function parseSecretKey(
  text: string,
  where: string,
): { ok: true; key: Buffer } | { ok: false; message: string } {
  const t = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(t))
    return {
      ok: false,
      message: `${where} must hold a base64-encoded ${SECRET_KEY_BYTES}-byte key (e.g. the output of \`openssl rand -base64 32\`)`,
    };
  const key = Buffer.from(t, "base64");
  if (key.length !== SECRET_KEY_BYTES)
    return {
      ok: false,
      message: `${where} decodes to ${key.length} bytes; it must be ${SECRET_KEY_BYTES} (e.g. \`openssl rand -base64 32\`)`,
    };
  return { ok: true, key };
}

export function newSecretKey(): Buffer {
  return randomBytes(SECRET_KEY_BYTES);
}
