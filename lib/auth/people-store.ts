import "server-only";
/**
 * People and their sessions in the settings table: `person:<issuer>#<subject>` → PersonRecord,
 * `person-session:<session id>` → { person, expiresAt }. A session row is the only way a person's
 * cookie admits anyone; signing out deletes it.
 */
import { and, eq, like, lt, sql } from "drizzle-orm";
import { effectiveRole, isPersonSessionId, type PersonRecord } from "@/lib/auth/people";
import { personKey } from "@/lib/auth/principal";
import { isRole, type Role } from "@/lib/auth/roles";
import type { SessionStanding } from "@/lib/auth/session-epoch";
import type { Db } from "@/lib/store/db";
import { getSetting, setSetting } from "@/lib/store/settings";
import { settings } from "@/lib/store/tables";

const PERSON_PREFIX = "person:";
const SESSION_PREFIX = "person-session:";

function asRecord(value: unknown): PersonRecord | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.issuer !== "string" || typeof v.subject !== "string" || typeof v.name !== "string")
    return null;
  return {
    issuer: v.issuer,
    subject: v.subject,
    name: v.name,
    email: typeof v.email === "string" ? v.email : null,
    groups: Array.isArray(v.groups) ? v.groups.filter((g) => typeof g === "string") : [],
    idpRole: isRole(v.idpRole) ? v.idpRole : null,
    assignedRole: isRole(v.assignedRole) ? v.assignedRole : null,
    firstSeen: typeof v.firstSeen === "string" ? v.firstSeen : "",
    lastSeen: typeof v.lastSeen === "string" ? v.lastSeen : "",
  };
}

export async function getPerson(db: Db, key: string): Promise<PersonRecord | null> {
  return asRecord(await getSetting(db, `${PERSON_PREFIX}${key}`));
}

/** Records a sign-in: name, groups and the IdP's role now; an admin's assignment is kept. */
export async function upsertPersonAtSignIn(
  db: Db,
  seen: Omit<PersonRecord, "assignedRole" | "firstSeen" | "lastSeen">,
  now = new Date(),
): Promise<PersonRecord> {
  const key = personKey(seen);
  const before = await getPerson(db, key);
  const record: PersonRecord = {
    ...seen,
    assignedRole: before?.assignedRole ?? null,
    firstSeen: before?.firstSeen || now.toISOString(),
    lastSeen: now.toISOString(),
  };
  await setSetting(db, `${PERSON_PREFIX}${key}`, record);
  return record;
}

export async function listPeople(db: Db): Promise<PersonRecord[]> {
  const rows = await db
    .select()
    .from(settings)
    .where(like(settings.key, `${PERSON_PREFIX}%`));
  return rows
    .map((r) => asRecord(r.value))
    .filter((p): p is PersonRecord => p !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** An admin's assignment (null: back to the IdP's groups). False when nobody by that key signed in. */
export async function assignRole(
  db: Db,
  key: string,
  role: Role | null,
): Promise<PersonRecord | null> {
  const before = await getPerson(db, key);
  if (!before) return null;
  const record = { ...before, assignedRole: role };
  await setSetting(db, `${PERSON_PREFIX}${key}`, record);
  return record;
}

export async function openPersonSession(
  db: Db,
  sessionId: string,
  key: string,
  expiresAtMs: number,
  nowMs = Date.now(),
): Promise<void> {
  await setSetting(db, `${SESSION_PREFIX}${sessionId}`, {
    person: key,
    expiresAt: new Date(expiresAtMs).toISOString(),
  });
  // Sessions past their end are removed on the way, as signed-out ones are.
  await db
    .delete(settings)
    .where(
      and(
        like(settings.key, `${SESSION_PREFIX}%`),
        lt(sql`${settings.value}->>'expiresAt'`, new Date(nowMs).toISOString()),
      ),
    );
}

export async function closePersonSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(settings).where(eq(settings.key, `${SESSION_PREFIX}${sessionId}`));
}

/** Adds who the person is to a session's standing; a person's session with no live record is signed out. */
export async function withPerson(
  db: Db,
  sessionId: string,
  standing: SessionStanding,
  nowMs = Date.now(),
): Promise<SessionStanding> {
  if (!isPersonSessionId(sessionId)) return standing;
  const row = (await getSetting(db, `${SESSION_PREFIX}${sessionId}`)) as {
    person?: unknown;
    expiresAt?: unknown;
  } | null;
  const person =
    row &&
    typeof row.person === "string" &&
    typeof row.expiresAt === "string" &&
    Date.parse(row.expiresAt) > nowMs
      ? await getPerson(db, row.person)
      : null;
  if (!person) return { ...standing, signedOut: true };
  return {
    ...standing,
    person: {
      issuer: person.issuer,
      subject: person.subject,
      name: person.name,
      role: effectiveRole(person),
    },
  };
}
