import "server-only";
/**
 * The session epoch and the signed-out sessions in the settings table: read on every cookie
 * request; sign-out-everywhere replaces the epoch, sign-out records one session as ended.
 */
import { randomBytes } from "node:crypto";
import { and, inArray, lt, like, sql } from "drizzle-orm";
import { INITIAL_SESSION_EPOCH, SESSION_EPOCH_PATTERN } from "@/lib/auth/session";
import {
  SESSION_EPOCH_SETTING,
  SIGNED_OUT_SESSION_PREFIX,
  type SessionStanding,
} from "@/lib/auth/session-epoch";
import type { Db } from "@/lib/store/db";
import { getSetting, setSetting } from "@/lib/store/settings";
import { settings } from "@/lib/store/tables";

/** The stored epoch setting's value as an epoch: the initial one when absent or malformed. */
const epochOf = (value: unknown): string =>
  typeof value === "string" && SESSION_EPOCH_PATTERN.test(value) ? value : INITIAL_SESSION_EPOCH;

export async function currentSessionEpoch(db: Db): Promise<string> {
  return epochOf(await getSetting(db, SESSION_EPOCH_SETTING));
}

/** A new random epoch: every session cookie signed before it stops working, on every instance. */
export async function revokeAllSessions(db: Db): Promise<string> {
  const epoch = randomBytes(12).toString("base64url");
  await setSetting(db, SESSION_EPOCH_SETTING, epoch);
  return epoch;
}

/**
 * Sign out one session on the server: its id is kept as signed out until `expiresAtMs`, when its
 * cookie stops working anyway; records of sessions past that are removed on the way.
 */
export async function signOutSession(
  db: Db,
  sessionId: string,
  expiresAtMs: number,
  nowMs: number = Date.now(),
): Promise<void> {
  await setSetting(db, `${SIGNED_OUT_SESSION_PREFIX}${sessionId}`, {
    expiresAt: new Date(expiresAtMs).toISOString(),
  });
  await db
    .delete(settings)
    .where(
      and(
        like(settings.key, `${SIGNED_OUT_SESSION_PREFIX}%`),
        lt(sql`${settings.value}->>'expiresAt'`, new Date(nowMs).toISOString()),
      ),
    );
}

/**
 * What the proxy checks a session cookie against: the epoch, and whether this session signed out.
 * Both keys in one statement: this runs on every request with a session cookie (every save), and
 * on the embedded store each statement waits its turn behind every other one.
 */
export async function sessionStanding(db: Db, sessionId: string): Promise<SessionStanding> {
  const signedOutKey = `${SIGNED_OUT_SESSION_PREFIX}${sessionId}`;
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [SESSION_EPOCH_SETTING, signedOutKey]));
  const epoch = rows.find((r) => r.key === SESSION_EPOCH_SETTING)?.value;
  return {
    epoch: epochOf(epoch),
    signedOut: rows.some((r) => r.key === signedOutKey),
  };
}
