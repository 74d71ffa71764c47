import "server-only";
/**
 * Reviews and their revisions. Every save is a new revision; a save names the revision it was
 * based on and lands only if that is still the current one (a conditional UPDATE in the same
 * statement as the revision INSERT), so two editors never overwrite each other silently and a
 * crash never leaves half a save. Documents are validated before they are written and loaded
 * through `loadReviewDocument`, so a review saved by an older schema version still opens.
 */
import { and, asc, desc, eq, gte, sql } from "drizzle-orm";
import { z } from "zod";
import { AppError, badRequestFromZod, fieldIssuesFromZod } from "@/lib/errors";
import { newId, type ReviewId } from "@/lib/ids";
import { loadReviewDocument } from "@/lib/review/migrate";
import { ReviewSchema, type Review, type ReviewInput } from "@/lib/review/schema";
import type { ReviewSummary, RevisionSummary } from "@/lib/reviews/api";
import type { ReviewRecord, RevisionRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { reviewRevisions, reviews } from "@/lib/store/tables";

export type SaveReviewResult =
  { ok: true; record: ReviewRecord } | { ok: false; conflict: ReviewRecord };

export const REVIEW_ID_PREFIX = "rev";

/**
 * How a document reaches the store. `parsed`: the caller has just parsed it with ReviewSchema (a
 * route's request body, whose 400 already names each bad field), so it is written as that parse
 * returned it instead of being parsed a second time (on a large review each parse is a walk of the
 * whole document). Without it, the store parses the document itself.
 */
export type SaveDocumentOptions = { parsed?: boolean };

/** Parses before any write: a malformed document is refused with a 400 naming each bad field. */
function validated(review: ReviewInput, options: SaveDocumentOptions): Review {
  // Safe: `parsed` says `review` is ReviewSchema's own output, unchanged since.
  if (options.parsed) return review as Review;
  const parsed = ReviewSchema.safeParse(review);
  if (!parsed.success) throw badRequestFromZod(parsed.error, "review", "review.");
  return parsed.data;
}

/** A stored document that no longer loads is a server fault, never the caller's. */
function loadStored(
  id: string,
  revision: number,
  document: unknown,
): { review: Review; upgradedFrom: number | null } {
  const loaded = loadReviewDocument(document);
  if (!loaded.ok) {
    const issues = fieldIssuesFromZod(loaded.issues);
    throw new AppError("INTERNAL", "a stored review could not be read", {
      message: `review ${id} revision ${revision} does not load: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
    });
  }
  return { review: loaded.review, upgradedFrom: loaded.upgradedFrom };
}

export async function listReviews(db: Db): Promise<ReviewSummary[]> {
  const rows = await db.select().from(reviews).orderBy(desc(reviews.updatedAt), asc(reviews.id));
  return rows.map((r) => ({
    id: r.id as ReviewId,
    title: r.title,
    revision: r.currentRevision,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

export async function reviewExists(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: reviews.id }).from(reviews).where(eq(reviews.id, id));
  return rows.length > 0;
}

export async function countReviews(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(reviews);
  return row?.n ?? 0;
}

export async function createReview(
  db: Db,
  review: ReviewInput,
  author: string,
  options: { id?: ReviewId } & SaveDocumentOptions = {},
): Promise<ReviewRecord> {
  const doc = validated(review, options);
  const id = options.id ?? (newId(REVIEW_ID_PREFIX) as ReviewId);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(reviews)
      .values({ id, title: doc.title, currentRevision: 1 })
      .returning();
    if (!row) throw new Error("INSERT … RETURNING returned no row");
    await tx.insert(reviewRevisions).values({
      reviewId: id,
      revision: 1,
      schemaVersion: doc.schemaVersion,
      document: doc,
      author,
      createdAt: row.createdAt,
    });
    return {
      id,
      revision: 1,
      review: doc,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      upgradedFrom: null,
    };
  });
}

/** Joins a review's row to its current revision (getReview, readReview). */
const isCurrentRevision = and(
  eq(reviewRevisions.reviewId, reviews.id),
  eq(reviewRevisions.revision, reviews.currentRevision),
);

/** What the schedule reads of a stored document: its servers' ids and whether each has a pin. */
const PinnedServersSchema = z.array(z.looseObject({ id: z.string(), pin: z.unknown() }));

/**
 * The reviews saved at or after `since` (all when null), each with the ids of its pinned servers,
 * or null when the stored `servers` do not read as a list of servers. Only the current revision's
 * `servers` is read, not the whole document: the scheduler asks this on every tick for every review
 * saved since the last one, and parsing and validating each whole document there held the embedded
 * store for about 150 ms a tick with fifty reviewers saving (every save waiting behind it). A pin
 * sits at `servers[].pin` in every schema version, and a stored document was validated when saved.
 */
export async function listPinnedServers(
  db: Db,
  since: string | null,
): Promise<{ reviewId: ReviewId; updatedAt: string; pinned: string[] | null }[]> {
  const rows = await db
    .select({
      id: reviews.id,
      updatedAt: reviews.updatedAt,
      servers: sql<unknown>`${reviewRevisions.document}->'servers'`,
    })
    .from(reviews)
    .innerJoin(reviewRevisions, isCurrentRevision)
    .where(since === null ? undefined : gte(reviews.updatedAt, new Date(since)));
  return rows.map((r) => {
    const servers = PinnedServersSchema.safeParse(r.servers ?? []);
    return {
      reviewId: r.id as ReviewId,
      updatedAt: r.updatedAt.toISOString(),
      pinned: servers.success
        ? servers.data.filter((s) => s.pin !== null && s.pin !== undefined).map((s) => s.id)
        : null,
    };
  });
}

/** The latest revision, upgraded to the current schema version; null for an unknown id. */
export async function getReview(db: Db, id: string): Promise<ReviewRecord | null> {
  const [row] = await db
    .select({
      id: reviews.id,
      revision: reviews.currentRevision,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      document: reviewRevisions.document,
    })
    .from(reviews)
    .innerJoin(reviewRevisions, isCurrentRevision)
    .where(eq(reviews.id, id));
  if (!row) return null;
  const { review, upgradedFrom } = loadStored(row.id, row.revision, row.document);
  return {
    id: row.id as ReviewId,
    revision: row.revision,
    review,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    upgradedFrom,
  };
}

/**
 * Parsed documents of stored revisions, for the read paths that only look at a review (the review
 * page, the graph view and the analysis, the revision diff). A revision never changes once written,
 * so its parse (a JSON read and a full schema validation: about 0.1 s for the 5,000-tool review)
 * is kept and shared instead of repeated on every request. Keyed by review id, revision and the time
 * the revision was saved (to the microsecond), so a review deleted and imported again under its id is parsed afresh; one
 * cache per store. Bounded by entries and by the JSON size of the documents held, least recently used
 * out first. Shared objects are deep-frozen: a caller that wrote into one would throw instead of
 * changing what the next request reads.
 */
const PARSED_REVISIONS_MAX_ENTRIES = 16;
const PARSED_REVISIONS_MAX_JSON_CHARS = 16_000_000;
type ParsedRevision = { review: Review; upgradedFrom: number | null; size: number };
const parsedRevisions = new WeakMap<Db, Map<string, ParsedRevision>>();

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** When a revision was saved, to the microsecond (a Date keeps milliseconds): part of its cache key. */
const savedAtKey = sql<string>`${reviewRevisions.createdAt}::text`;

async function readParsedRevision(
  db: Db,
  id: string,
  revision: number,
  savedAt: string,
): Promise<{ review: Review; upgradedFrom: number | null } | null> {
  let cache = parsedRevisions.get(db);
  if (!cache) parsedRevisions.set(db, (cache = new Map<string, ParsedRevision>()));
  const key = `${id}\n${revision}\n${savedAt}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key); // re-inserted: a Map iterates in insertion order, so the first key is the least recently used
    cache.set(key, hit);
    return hit;
  }
  const [row] = await db
    .select({ document: reviewRevisions.document })
    .from(reviewRevisions)
    .where(and(eq(reviewRevisions.reviewId, id), eq(reviewRevisions.revision, revision)));
  if (!row) return null;
  const size = JSON.stringify(row.document).length;
  const loaded = loadStored(id, revision, row.document);
  const parsed = { review: deepFreeze(loaded.review), upgradedFrom: loaded.upgradedFrom, size };
  if (size > PARSED_REVISIONS_MAX_JSON_CHARS) return parsed;
  cache.set(key, parsed);
  let held = 0;
  for (const v of cache.values()) held += v.size;
  for (const [k, v] of cache) {
    if (cache.size <= PARSED_REVISIONS_MAX_ENTRIES && held <= PARSED_REVISIONS_MAX_JSON_CHARS)
      break;
    cache.delete(k);
    held -= v.size;
  }
  return parsed;
}

/**
 * `getReview` for callers that only read the document: the same record, with a parse shared with
 * other requests (see `parsedRevisions`), deep-frozen. Copy it (`structuredClone`) to change it.
 */
export async function readReview(db: Db, id: string): Promise<ReviewRecord | null> {
  const [row] = await db
    .select({
      id: reviews.id,
      revision: reviews.currentRevision,
      createdAt: reviews.createdAt,
      updatedAt: reviews.updatedAt,
      savedAt: savedAtKey,
    })
    .from(reviews)
    .innerJoin(reviewRevisions, isCurrentRevision)
    .where(eq(reviews.id, id));
  if (!row) return null;
  const parsed = await readParsedRevision(db, row.id, row.revision, row.savedAt);
  if (!parsed) return null; // deleted between the two reads
  return {
    id: row.id as ReviewId,
    revision: row.revision,
    review: parsed.review,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    upgradedFrom: parsed.upgradedFrom,
  };
}

/** `getRevision` for callers that only read the document; shared and deep-frozen like `readReview`. */
export async function readRevision(
  db: Db,
  id: string,
  revision: number,
): Promise<RevisionRecord | null> {
  const [row] = await db
    .select({
      createdAt: reviews.createdAt,
      savedAt: reviewRevisions.createdAt,
      savedAtKey,
      author: reviewRevisions.author,
    })
    .from(reviewRevisions)
    .innerJoin(reviews, eq(reviews.id, reviewRevisions.reviewId))
    .where(and(eq(reviewRevisions.reviewId, id), eq(reviewRevisions.revision, revision)));
  if (!row) return null;
  const parsed = await readParsedRevision(db, id, revision, row.savedAtKey);
  if (!parsed) return null;
  return {
    id: id as ReviewId,
    revision,
    review: parsed.review,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.savedAt.toISOString(),
    upgradedFrom: parsed.upgradedFrom,
    author: row.author,
  };
}

/** Timestamps come back as Date from node-postgres and PGlite alike; a string is accepted too. */
type SavedRow = { created_at: Date | string; updated_at: Date | string };

/**
 * Saves `review` as revision `baseRevision + 1` if `baseRevision` is still current. On a save in
 * between, nothing is written and the current record comes back as the conflict. Null: no such review.
 */
export async function saveReview(
  db: Db,
  id: string,
  baseRevision: number,
  review: ReviewInput,
  author: string,
  options: SaveDocumentOptions = {},
): Promise<SaveReviewResult | null> {
  const doc = validated(review, options);
  const next = baseRevision + 1;
  // One statement, so one round trip and atomic without BEGIN/COMMIT: the UPDATE row-locks the
  // review, and a concurrent save re-checks its WHERE after we commit, matches nothing, and so
  // inserts no revision either.
  const raw: unknown = await db.execute(sql`
    WITH bumped AS (
      UPDATE ${reviews} SET ${sql.identifier(reviews.currentRevision.name)} = ${next}, ${sql.identifier(reviews.title.name)} = ${doc.title}, ${sql.identifier(reviews.updatedAt.name)} = now()
      WHERE ${sql.identifier(reviews.id.name)} = ${id} AND ${sql.identifier(reviews.currentRevision.name)} = ${baseRevision}
      RETURNING ${sql.identifier(reviews.id.name)} AS id, ${sql.identifier(reviews.createdAt.name)} AS created_at, ${sql.identifier(reviews.updatedAt.name)} AS updated_at
    )
    INSERT INTO ${reviewRevisions} (${sql.identifier(reviewRevisions.reviewId.name)}, ${sql.identifier(reviewRevisions.revision.name)}, ${sql.identifier(reviewRevisions.schemaVersion.name)}, ${sql.identifier(reviewRevisions.document.name)}, ${sql.identifier(reviewRevisions.author.name)}, ${sql.identifier(reviewRevisions.createdAt.name)})
    SELECT id, ${next}, ${doc.schemaVersion}, ${JSON.stringify(doc)}::jsonb, ${author}, updated_at FROM bumped
    RETURNING (SELECT created_at FROM bumped) AS created_at, ${sql.identifier(reviewRevisions.createdAt.name)} AS updated_at`);
  const [saved] = (raw as { rows: SavedRow[] }).rows; // both drivers answer a raw query with { rows }
  if (saved) {
    return {
      ok: true,
      record: {
        id: id as ReviewId,
        revision: next,
        review: doc,
        createdAt: new Date(saved.created_at).toISOString(),
        updatedAt: new Date(saved.updated_at).toISOString(),
        upgradedFrom: null,
      },
    };
  }
  const current = await getReview(db, id);
  return current ? { ok: false, conflict: current } : null;
}

/** True when a review was deleted; its revisions, inspections, links and records go with it. */
export async function deleteReview(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(reviews).where(eq(reviews.id, id)).returning({ id: reviews.id });
  return rows.length > 0;
}

/** Newest first; null for an unknown review. */
export async function listRevisions(db: Db, id: string): Promise<RevisionSummary[] | null> {
  const rows = await db
    .select({
      revision: reviewRevisions.revision,
      createdAt: reviewRevisions.createdAt,
      author: reviewRevisions.author,
      title: sql<string | null>`${reviewRevisions.document}->>'title'`,
    })
    .from(reviewRevisions)
    .where(eq(reviewRevisions.reviewId, id))
    .orderBy(desc(reviewRevisions.revision));
  if (rows.length === 0) return null; // a review always has revision 1, so none means no review
  return rows.map((r) => ({
    revision: r.revision,
    createdAt: r.createdAt.toISOString(),
    author: r.author,
    title: r.title ?? "",
  }));
}

/** One past revision, upgraded like the latest; `updatedAt` is when that revision was saved. */
export async function getRevision(
  db: Db,
  id: string,
  revision: number,
): Promise<RevisionRecord | null> {
  const [row] = await db
    .select({
      createdAt: reviews.createdAt,
      savedAt: reviewRevisions.createdAt,
      author: reviewRevisions.author,
      document: reviewRevisions.document,
    })
    .from(reviewRevisions)
    .innerJoin(reviews, eq(reviews.id, reviewRevisions.reviewId))
    .where(and(eq(reviewRevisions.reviewId, id), eq(reviewRevisions.revision, revision)));
  if (!row) return null;
  const { review, upgradedFrom } = loadStored(id, revision, row.document);
  return {
    id: id as ReviewId,
    revision,
    review,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.savedAt.toISOString(),
    upgradedFrom,
    author: row.author,
  };
}
