/**
 * What an inspection records about the OAuth authorization it used (inspections.authorization):
 * who connected (as the authorization server reports it, display only), the scopes it granted in
 * the token response, and when the access token expires. Never a token: the schema is strict, so
 * a token field put here by mistake fails the parse instead of being stored.
 */
import { z } from "zod";

/** A bound on what the authorization server may make us store and show per field. */
export const MAX_AUTHORIZATION_TEXT = 512;
export const MAX_GRANTED_SCOPES = 64;

const text = () => z.string().max(MAX_AUTHORIZATION_TEXT);

export const InspectionAuthorizationSchema = z
  .object({
    /** The authorization server that issued the token (its issuer identifier). */
    issuer: text().nullable(),
    /** Who connected, as the authorization server reported it; null when it did not say. */
    subject: text().nullable(),
    /** The granted scopes, from the token response (the request's when the response omits them). */
    scopes: z.array(z.string().max(200)).max(MAX_GRANTED_SCOPES),
    /** Where `scopes` came from: the token response, or the request when the response named none. */
    scopeSource: z.enum(["response", "requested", "none"]).optional(),
    /** ISO time the access token expires; null when the authorization server gave no lifetime. */
    expiresAt: z.iso.datetime().nullable(),
  })
  .strict();
export type InspectionAuthorization = z.infer<typeof InspectionAuthorizationSchema>;

/** The record, or null for a missing or unreadable column (older rows, or a value that is not ours). */
export function parseInspectionAuthorization(value: unknown): InspectionAuthorization | null {
  if (value === null || value === undefined) return null;
  const parsed = InspectionAuthorizationSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** `scope` as OAuth writes it (space-separated) to a sorted, de-duplicated, bounded list. */
export function scopeList(scope: string | null | undefined): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(/\s+/).filter((s) => s.length > 0 && s.length <= 200))]
    .sort()
    .slice(0, MAX_GRANTED_SCOPES);
}
