import "server-only";
/**
 * Share links: read-only access to one review by a link token. Only the token's hash is stored
 * (the caller hashes; lib/store never sees a token). Whether a link still admits anyone is
 * `shareLinkIsActive`, and the share routes must answer an unknown token exactly like a revoked
 * or expired one.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import { shareLinks } from "@/lib/store/tables";

export interface ShareLink {
  id: string;
  reviewId: string;
  tokenHash: string;
  /** Null: the link shows the latest revision. */
  frozenRevision: number | null;
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
  label: string;
}

export interface CreateShareLinkInput {
  reviewId: string;
  tokenHash: string;
  frozenRevision?: number | null;
  expiresAt?: Date | null;
  label?: string;
}

function toShareLink(row: typeof shareLinks.$inferSelect): ShareLink {
  return {
    id: row.id,
    reviewId: row.reviewId,
    tokenHash: row.tokenHash,
    frozenRevision: row.frozenRevision,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    label: row.label,
  };
}

export function shareLinkIsActive(link: ShareLink, now: Date = new Date()): boolean {
  if (link.revokedAt !== null) return false;
  return link.expiresAt === null || Date.parse(link.expiresAt) > now.getTime();
}

export async function createShareLink(db: Db, input: CreateShareLinkInput): Promise<ShareLink> {
  const [row] = await db
    .insert(shareLinks)
    .values({
      id: newId("share"),
      reviewId: input.reviewId,
      tokenHash: input.tokenHash,
      frozenRevision: input.frozenRevision ?? null,
      expiresAt: input.expiresAt ?? null,
      label: input.label ?? "",
    })
    .returning();
  if (!row) throw new Error("INSERT … RETURNING returned no row");
  return toShareLink(row);
}

/** The link with this token hash, active or not; null when there is none. */
export async function findShareLinkByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<ShareLink | null> {
  const [row] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash));
  return row ? toShareLink(row) : null;
}

/** Revokes once; revoking again keeps the first time. Null for an unknown link. */
export async function revokeShareLink(
  db: Db,
  id: string,
  now: Date = new Date(),
): Promise<ShareLink | null> {
  const [revoked] = await db
    .update(shareLinks)
    .set({ revokedAt: now })
    .where(and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt)))
    .returning();
  if (revoked) return toShareLink(revoked);
  const [existing] = await db.select().from(shareLinks).where(eq(shareLinks.id, id));
  return existing ? toShareLink(existing) : null;
}

export async function listShareLinks(db: Db, reviewId: string): Promise<ShareLink[]> {
  const rows = await db
    .select()
    .from(shareLinks)
    .where(eq(shareLinks.reviewId, reviewId))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
  return rows.map(toShareLink);
}
