/**
 * Hashing for everything we store or sign: SHA-256 over RFC 8785 canonical JSON, so a value hashes
 * the same whatever its key order (content-addressed snapshots, decision bindings and records).
 * The surface fingerprint has its own faster canonical form (lib/surface/fingerprint.ts), checked
 * byte for byte against the same `canonicalize` package.
 */
import { hash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Sha256 } from "@/lib/ids";

/** RFC 8785 canonical JSON text; throws on values JSON cannot represent (undefined at the root, cycles, NaN, lone surrogates). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

/** Lower-case hex SHA-256 of a UTF-8 string or of bytes (one-shot `crypto.hash`: half the cost of createHash on short inputs). */
export function sha256Hex(data: string | Uint8Array): Sha256 {
  // Safe: a SHA-256 hex digest is exactly what Sha256Schema accepts (64 lower-case hex).
  return hash("sha256", data, "hex") as Sha256;
}

/** SHA-256 of the canonical JSON of `value`. */
export function canonicalSha256(value: unknown): Sha256 {
  return sha256Hex(canonicalJson(value));
}
