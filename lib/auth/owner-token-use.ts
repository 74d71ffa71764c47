/**
 * Break-glass logging: every use of the owner token as a principal is an audit event
 * (`auth.owner_token`, actor the owner token). A sign-in logs itself in its route; a bearer request
 * is logged by the proxy before it is let through. The proxy cannot open the store (a separate
 * bundle; two handles on one PGlite folder would corrupt it), so the server start registers the
 * logger on globalThis, as it does the session-epoch reader. Not server-only: the proxy imports it.
 */
import type { OwnerTokenUse } from "@/lib/events/owner-token-use";

const KEY = Symbol.for("relay-review.owner-token-use");

type GlobalWithLogger = typeof globalThis & { [KEY]?: (use: OwnerTokenUse) => Promise<void> };

export function registerOwnerTokenUseLogger(log: (use: OwnerTokenUse) => Promise<void>): void {
  (globalThis as GlobalWithLogger)[KEY] = log;
}

/** Logs the use; false when it could not be logged (no logger registered, or the write failed). */
export async function reportOwnerTokenUse(use: OwnerTokenUse): Promise<boolean> {
  const log = (globalThis as GlobalWithLogger)[KEY];
  if (!log) {
    console.error("[auth] no owner-token use logger is registered; the use is refused");
    return false;
  }
  try {
    await log(use);
    return true;
  } catch (error) {
    console.error(
      "[auth] cannot log a use of the owner token:",
      error instanceof Error ? error.message : String(error),
    );
    return false;
  }
}
