import "server-only";
/**
 * Surface snapshots and inspections. A snapshot is whatever lib/surface decides a server said
 * about itself, stored once under the hash of its canonical JSON: inspecting an unchanged server
 * a thousand times stores one document. An inspection records when, with which declared client
 * capabilities, and with what outcome a server was inspected for a review.
 */
import { and, desc, eq, lte, sql } from "drizzle-orm";
import { newId, type Sha256 } from "@/lib/ids";
import { canonicalJson, sha256Hex } from "@/lib/hash";
import {
  InspectionAuthorizationSchema,
  parseInspectionAuthorization,
  type InspectionAuthorization,
} from "@/lib/store/authorization";
import type { Db } from "@/lib/store/db";
import { credentialOf, type Credential } from "@/lib/credential";
import { inspections, surfaceSnapshots } from "@/lib/store/tables";

export interface SurfaceSnapshotRecord {
  sha256: Sha256;
  document: unknown;
  createdAt: string;
}

export type InspectionStatus = "ok" | "failed";

/** A variable an inspection was given: its name and where its value came from, never the value. */
export type InspectionVariable = { name: string; source: "secret" | "launcher" | "environment" };
const VARIABLE_SOURCES = new Set<string>(["secret", "launcher", "environment"]);

export interface InspectionInput {
  reviewId: string;
  serverId: string;
  /** From putSnapshot; null when the inspection failed before a surface was read. */
  snapshotSha256: Sha256 | null;
  /** The surface fingerprint computed by lib/surface. */
  surfaceSha256: string | null;
  declaredCapabilities: readonly string[];
  status: InspectionStatus;
  error?: unknown;
  /** The sandbox report of a stdio run (what it could see, what it tried); attacker-named paths, no secret values. */
  sandbox?: unknown;
  inspectedAt?: Date;
  variables?: readonly InspectionVariable[];
  /** The OAuth authorization the inspection used (who, granted scopes, expiry); never a token. */
  authorization?: InspectionAuthorization | null;
}

export interface InspectionRecord {
  id: string;
  reviewId: string;
  serverId: string;
  snapshotSha256: Sha256 | null;
  surfaceSha256: string | null;
  declaredCapabilities: string[];
  inspectedAt: string;
  status: InspectionStatus;
  error: unknown;
  sandbox: unknown;
  variables: InspectionVariable[];
  authorization: InspectionAuthorization | null;
  /**
   * The credential the surface was listed under (issue 30, item 3): derived from `authorization`
   * and the variable names, which the row already holds, so older rows have one too and no value
   * is ever stored for it.
   */
  credential: Credential;
}

/** Stores `document` under its content hash and returns the hash. Idempotent. */
export async function putSnapshot(db: Db, document: unknown): Promise<Sha256> {
  const text = canonicalJson(document);
  const sha256 = sha256Hex(text);
  // Store the canonical form, so what is read back hashes to its key.
  await db
    .insert(surfaceSnapshots)
    .values({ sha256, document: JSON.parse(text) as unknown })
    .onConflictDoNothing({ target: surfaceSnapshots.sha256 });
  return sha256;
}

export async function getSnapshot(db: Db, sha256: string): Promise<SurfaceSnapshotRecord | null> {
  const [row] = await db.select().from(surfaceSnapshots).where(eq(surfaceSnapshots.sha256, sha256));
  return row
    ? {
        sha256: row.sha256 as Sha256,
        document: row.document,
        createdAt: row.createdAt.toISOString(),
      }
    : null;
}

function toInspection(row: typeof inspections.$inferSelect): InspectionRecord {
  const record = toInspectionFields(row);
  return { ...record, credential: credentialOf(record) };
}

function toInspectionFields(
  row: typeof inspections.$inferSelect,
): Omit<InspectionRecord, "credential"> {
  return {
    id: row.id,
    reviewId: row.reviewId,
    serverId: row.serverId,
    snapshotSha256: row.snapshotSha256 as Sha256 | null,
    surfaceSha256: row.surfaceSha256,
    declaredCapabilities: Array.isArray(row.declaredCapabilities)
      ? row.declaredCapabilities.map(String)
      : [],
    inspectedAt: row.inspectedAt.toISOString(),
    status: row.status === "ok" ? "ok" : "failed",
    error: row.error ?? null,
    sandbox: row.sandbox ?? null,
    variables: Array.isArray(row.variables)
      ? row.variables.flatMap((v: unknown) => {
          const x = v as Partial<InspectionVariable> | null;
          return x &&
            typeof x.name === "string" &&
            typeof x.source === "string" &&
            VARIABLE_SOURCES.has(x.source)
            ? [{ name: x.name, source: x.source }]
            : [];
        })
      : [],
    authorization: parseInspectionAuthorization(row.authorization),
  };
}

/** Declared capabilities are stored sorted, so "same capabilities" is plain equality. */
function capabilityKey(caps: readonly string[]): string[] {
  return [...new Set(caps)].sort();
}

export async function recordInspection(db: Db, input: InspectionInput): Promise<InspectionRecord> {
  const [row] = await db
    .insert(inspections)
    .values({
      id: newId("insp"),
      reviewId: input.reviewId,
      serverId: input.serverId,
      snapshotSha256: input.snapshotSha256,
      surfaceSha256: input.surfaceSha256,
      declaredCapabilities: capabilityKey(input.declaredCapabilities),
      status: input.status,
      error: input.error === undefined ? null : input.error,
      sandbox: input.sandbox === undefined ? null : input.sandbox,
      variables: (input.variables ?? []).map((v) => ({ name: v.name, source: v.source })),
      // Parsed strictly: a field that is not in the schema (a token) fails here, never reaches the row.
      authorization: input.authorization
        ? InspectionAuthorizationSchema.parse(input.authorization)
        : null,
      ...(input.inspectedAt ? { inspectedAt: input.inspectedAt } : {}),
    })
    .returning();
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return toInspection(row);
}

/**
 * The most recent inspection of one server in one review; with `declaredCapabilities`, only one
 * made with exactly those (a pin compares like with like). `status: "ok"` skips failed ones.
 */
export async function latestInspection(
  db: Db,
  reviewId: string,
  serverId: string,
  filter: { declaredCapabilities?: readonly string[]; status?: InspectionStatus } = {},
): Promise<InspectionRecord | null> {
  const conditions = [eq(inspections.reviewId, reviewId), eq(inspections.serverId, serverId)];
  if (filter.status) conditions.push(eq(inspections.status, filter.status));
  if (filter.declaredCapabilities) {
    conditions.push(
      eq(inspections.declaredCapabilities, capabilityKey(filter.declaredCapabilities)),
    );
  }
  const [row] = await db
    .select()
    .from(inspections)
    .where(and(...conditions))
    .orderBy(desc(inspections.inspectedAt), desc(inspections.id))
    .limit(1);
  return row ? toInspection(row) : null;
}

/** Newest first; all servers of the review unless `serverId` is given. */
export async function listInspections(
  db: Db,
  reviewId: string,
  serverId?: string,
): Promise<InspectionRecord[]> {
  const rows = await db
    .select()
    .from(inspections)
    .where(
      serverId
        ? and(eq(inspections.reviewId, reviewId), eq(inspections.serverId, serverId))
        : eq(inspections.reviewId, reviewId),
    )
    .orderBy(desc(inspections.inspectedAt), desc(inspections.id));
  return rows.map(toInspection);
}

/**
 * The most recent inspection of each server of one review (one query), keyed by server id;
 * `serverId` narrows it to one server, `status: "ok"` skips failed ones.
 */
export async function latestInspectionPerServer(
  db: Db,
  reviewId: string,
  filter: { serverId?: string; status?: InspectionStatus } = {},
): Promise<Map<string, InspectionRecord>> {
  const conditions = [eq(inspections.reviewId, reviewId)];
  if (filter.serverId) conditions.push(eq(inspections.serverId, filter.serverId));
  if (filter.status) conditions.push(eq(inspections.status, filter.status));
  const rows = await db
    .selectDistinctOn([inspections.serverId])
    .from(inspections)
    .where(and(...conditions))
    .orderBy(inspections.serverId, desc(inspections.inspectedAt), desc(inspections.id));
  return new Map(rows.map((row) => [row.serverId, toInspection(row)]));
}

/**
 * Each server's `perServer` newest successful inspections of one review (one query), newest first
 * per server, without the sandbox report and error (the analysis reads the credential and the
 * snapshot only, and a watched server's history grows without end).
 */
export async function recentOkInspectionsPerServer(
  db: Db,
  reviewId: string,
  perServer: number,
): Promise<Map<string, InspectionRecord[]>> {
  const ranked = db
    .select({
      id: inspections.id,
      reviewId: inspections.reviewId,
      serverId: inspections.serverId,
      snapshotSha256: inspections.snapshotSha256,
      surfaceSha256: inspections.surfaceSha256,
      declaredCapabilities: inspections.declaredCapabilities,
      inspectedAt: inspections.inspectedAt,
      status: inspections.status,
      variables: inspections.variables,
      authorization: inspections.authorization,
      rank: sql<number>`row_number() over (partition by ${inspections.serverId} order by ${inspections.inspectedAt} desc, ${inspections.id} desc)`.as(
        "rank",
      ),
    })
    .from(inspections)
    .where(and(eq(inspections.reviewId, reviewId), eq(inspections.status, "ok")))
    .as("ranked");
  const rows = await db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, perServer))
    .orderBy(ranked.serverId, ranked.rank);
  const out = new Map<string, InspectionRecord[]>();
  for (const row of rows) {
    const record = toInspection({ ...row, error: null, sandbox: null });
    const list = out.get(record.serverId);
    if (list) list.push(record);
    else out.set(record.serverId, [record]);
  }
  return out;
}
