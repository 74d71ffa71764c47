/**
 * Sign out ends one session on the server (issue 28, finding 13): the session is recorded as
 * signed out in the settings table until its cookie would expire, other sessions keep working,
 * and records past their expiry are removed. On both store backends.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSessionValue, sessionIdOf } from "@/lib/auth/session";
import { SIGNED_OUT_SESSION_PREFIX } from "@/lib/auth/session-epoch";
import { revokeAllSessions, sessionStanding, signOutSession } from "@/lib/auth/session-epoch-store";
import { openStore, type Store } from "@/lib/store/db";
import { getSetting } from "@/lib/store/settings";
import { BACKENDS } from "@/tests/store/support/backends";

const TOKEN = "an-owner-token-for-the-standing-test-0123456789";
const HOUR = 3600_000;

describe.each(BACKENDS)("session standing on $name", (backend) => {
  let store: Store;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    const provisioned = await backend.provision();
    drop = provisioned.drop;
    store = await openStore({ target: provisioned.target });
  });
  afterAll(async () => {
    await store?.close();
    await drop?.();
  });

  test("signing one session out leaves the other standing; the epoch is untouched", async () => {
    const now = Date.now();
    const mine = sessionIdOf(createSessionValue(TOKEN, now))!;
    const other = sessionIdOf(createSessionValue(TOKEN, now))!;
    expect(await sessionStanding(store.db, mine)).toEqual({ epoch: "0", signedOut: false });
    await signOutSession(store.db, mine, now + 12 * HOUR, now);
    expect(await sessionStanding(store.db, mine)).toEqual({ epoch: "0", signedOut: true });
    expect(await sessionStanding(store.db, other)).toEqual({ epoch: "0", signedOut: false });
    const epoch = await revokeAllSessions(store.db);
    expect(await sessionStanding(store.db, other)).toEqual({ epoch, signedOut: false });
  });

  test("a record past its cookie's expiry is removed at the next sign out", async () => {
    const now = Date.now();
    const old = sessionIdOf(createSessionValue(TOKEN, now - 13 * HOUR))!;
    await signOutSession(store.db, old, now - HOUR, now - 13 * HOUR);
    expect(await getSetting(store.db, `${SIGNED_OUT_SESSION_PREFIX}${old}`)).not.toBeNull();
    const next = sessionIdOf(createSessionValue(TOKEN, now))!;
    await signOutSession(store.db, next, now + 12 * HOUR, now);
    expect(await getSetting(store.db, `${SIGNED_OUT_SESSION_PREFIX}${old}`)).toBeNull();
    expect(await getSetting(store.db, `${SIGNED_OUT_SESSION_PREFIX}${next}`)).not.toBeNull();
  });
});
