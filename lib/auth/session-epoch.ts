/**
 * The session epoch as the proxy reads it. The epoch lives in the settings table (key
 * `session-epoch`), but the proxy cannot open the store itself (it is a separate bundle, and two
 * handles on one PGlite folder would corrupt it), so the server start registers a reader on
 * globalThis that the proxy calls on every request with a session cookie: one query, and a sign
 * out everywhere on any instance ends the sessions on every instance at once. Not server-only:
 * the proxy bundle imports it.
 */
const KEY = Symbol.for("relay-review.session-epoch");
type GlobalWithEpoch = typeof globalThis & { [KEY]?: () => Promise<string> };

export const SESSION_EPOCH_SETTING = "session-epoch";

export function registerSessionEpochReader(read: () => Promise<string>): void {
  (globalThis as GlobalWithEpoch)[KEY] = read;
}

/** The epoch now, or null when no reader is registered or it fails (the caller then admits no cookie). */
export async function readSessionEpoch(): Promise<string | null> {
  const read = (globalThis as GlobalWithEpoch)[KEY];
  if (!read) return null;
  try {
    return await read();
  } catch (error) {
    console.error(
      "[auth] cannot read the session epoch:",
      error instanceof Error ? error.message : String(error),
    );
    return null;
  }
}
