/**
 * One use of the owner token as a principal, as the audit log records it (kind `auth.owner_token`):
 * how it was presented and for what. Pure; lib/auth/owner-token-use.ts reports it.
 */
export type OwnerTokenUse = {
  via: "bearer" | "sign-in";
  method: string;
  /** The path only: a query is not logged. */
  path: string;
};

/** The event's summary: what the token was used for. */
export function describeOwnerTokenUse(use: OwnerTokenUse): string {
  return use.via === "sign-in"
    ? "Signed in with the owner token (break-glass)"
    : `Owner token used as bearer (break-glass): ${use.method} ${use.path}`;
}
