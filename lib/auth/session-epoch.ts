/**
 * The standing of a session as the proxy reads it: the session epoch, and whether this session was
 * signed out. Both live in the settings table (key `session-epoch`, keys `signed-out-session:<id>`),
 * but the proxy cannot open the store itself (it is a separate bundle, and two handles on one
 * PGlite folder would corrupt it), so the server start registers a reader on globalThis that the
 * proxy calls on every request with a session cookie: a sign out (one session) or sign out
 * everywhere (every session) on any instance takes effect on every instance at once. Not
 * server-only: the proxy bundle imports it.
 */
import type { Role } from "@/lib/auth/roles";

const KEY = Symbol.for("relay-review.session-standing");

export type SessionStanding = {
  /** The session epoch now; a cookie of another epoch was signed out everywhere. */
  epoch: string;
  /** Whether this very session was signed out (its cookie may still be copied somewhere). */
  signedOut: boolean;
  /**
   * For a person's session (lib/auth/people.ts): who they are and their role now. Absent for the
   * owner token's sessions. A person's session whose record is gone is `signedOut`, never the owner.
   */
  person?: { issuer: string; subject: string; name: string; role: Role | null };
};
type Reader = (sessionId: string) => Promise<SessionStanding>;
type GlobalWithReader = typeof globalThis & { [KEY]?: Reader };

export const SESSION_EPOCH_SETTING = "session-epoch";
/** `signed-out-session:<session id>` → `{ expiresAt }`: one ended session, kept until its cookie would expire. */
export const SIGNED_OUT_SESSION_PREFIX = "signed-out-session:";

export function registerSessionStandingReader(read: Reader): void {
  (globalThis as GlobalWithReader)[KEY] = read;
}

/** The standing of session `sessionId` now, or null when no reader is registered or it fails (the caller then admits no cookie). */
export async function readSessionStanding(sessionId: string): Promise<SessionStanding | null> {
  const read = (globalThis as GlobalWithReader)[KEY];
  if (!read) return null;
  try {
    return await read(sessionId);
  } catch (error) {
    console.error(
      "[auth] cannot read the session's standing:",
      error instanceof Error ? error.message : String(error),
    );
    return null;
  }
}
