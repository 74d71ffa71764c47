/**
 * Hashing for decision bindings and records: SHA-256 over RFC 8785 canonical JSON, so a value
 * hashes the same whatever its key order. Pure computation (node:crypto's hash, no I/O).
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Sha256 } from "@/lib/ids";

/** RFC 8785 canonical JSON text; throws on values JSON cannot represent (cycles, NaN, lone surrogates). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

export function sha256Hex(data: string | Uint8Array): Sha256 {
  const hash = createHash("sha256");
  if (typeof data === "string") hash.update(data, "utf8");
  else hash.update(data);
  // Safe: a SHA-256 hex digest is exactly what Sha256Schema accepts (64 lower-case hex).
  return hash.digest("hex") as Sha256;
}

/** SHA-256 of the canonical JSON of `value`. */
export function canonicalSha256(value: unknown): Sha256 {
  return sha256Hex(canonicalJson(value));
}
