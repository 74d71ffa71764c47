import "server-only";
/** The session epoch in the settings table: read on every cookie request, replaced by sign-out-everywhere. */
import { randomBytes } from "node:crypto";
import { INITIAL_SESSION_EPOCH, SESSION_EPOCH_PATTERN } from "@/lib/auth/session";
import { SESSION_EPOCH_SETTING } from "@/lib/auth/session-epoch";
import type { Db } from "@/lib/store/db";
import { getSetting, setSetting } from "@/lib/store/settings";

export async function currentSessionEpoch(db: Db): Promise<string> {
  const value = await getSetting(db, SESSION_EPOCH_SETTING);
  return typeof value === "string" && SESSION_EPOCH_PATTERN.test(value)
    ? value
    : INITIAL_SESSION_EPOCH;
}

/** A new random epoch: every session cookie signed before it stops working, on every instance. */
export async function revokeAllSessions(db: Db): Promise<string> {
  const epoch = randomBytes(12).toString("base64url");
  await setSetting(db, SESSION_EPOCH_SETTING, epoch);
  return epoch;
}
