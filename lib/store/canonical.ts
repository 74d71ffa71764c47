/**
 * Content addressing for stored documents: SHA-256 over the RFC 8785 canonical JSON text, so the
 * same document hashes the same whatever its key order. Pure apart from hashing.
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { Sha256 } from "@/lib/ids";

/** The canonical JSON text; throws on values JSON cannot represent (undefined at the root, cycles, non-finite numbers). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no JSON representation");
  return text;
}

export function sha256Hex(text: string): Sha256 {
  return createHash("sha256").update(text, "utf8").digest("hex") as Sha256;
}

export function contentSha256(value: unknown): Sha256 {
  return sha256Hex(canonicalJson(value));
}
