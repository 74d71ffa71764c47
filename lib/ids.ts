/**
 * Branded identifiers. A sink id cannot be passed where a source id is expected: the brand
 * exists only at the type level, and every id is validated by the zod schema that creates it.
 */
import { z } from "zod";

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
const idString = () =>
  z
    .string()
    .regex(
      ID_PATTERN,
      "must be 1–80 characters: letters, digits, '.', '_' or '-', starting with a letter or digit",
    );

export const ReviewIdSchema = idString().brand<"ReviewId">();
export type ReviewId = z.infer<typeof ReviewIdSchema>;
export const ServerIdSchema = idString().brand<"ServerId">();
export type ServerId = z.infer<typeof ServerIdSchema>;
export const SourceIdSchema = idString().brand<"SourceId">();
export type SourceId = z.infer<typeof SourceIdSchema>;
export const AgentIdSchema = idString().brand<"AgentId">();
export type AgentId = z.infer<typeof AgentIdSchema>;
export const DecisionIdSchema = idString().brand<"DecisionId">();
export type DecisionId = z.infer<typeof DecisionIdSchema>;

/** Lower-case hex SHA-256, as produced by the surface fingerprint and record hashes. */
export const Sha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, "must be a lower-case hex SHA-256")
  .brand<"Sha256">();
export type Sha256 = z.infer<typeof Sha256Schema>;

/** A fresh random id with a readable prefix, e.g. `src-3f9a1c2b`. */
export function newId(prefix: string): string {
  const bytes = new Uint8Array(6);
  crypto.getRandomValues(bytes);
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}
