import "server-only";
/**
 * Share links, server side: a link token is 256 random bits (base64url, 43 characters), shown
 * once and stored only as its SHA-256. A link admits nobody once revoked or expired, and the
 * share routes answer that exactly like an unknown token: `loadShareView` returns null for all
 * three, after the same work (one hash, one lookup), so neither the body nor the path differs.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Analysis } from "@/lib/analysis/analyze";
import type { ShareLinkView, ShareViewResponse } from "@/lib/decisions/api";
import type { Db } from "@/lib/store/db";
import { getReview, getRevision } from "@/lib/store/reviews";
import {
  findShareLinkByTokenHash,
  shareLinkIsActive,
  type ShareLink,
} from "@/lib/store/share-links";
import { sharedTransport } from "@/lib/review/transport-variables";
import { logShareLinkView } from "@/lib/store/events";
import { decisionChecks, decisionView } from "@/lib/workbench/decisions";
import { detectionView } from "@/lib/workbench/detection-report";
import { openReview } from "@/lib/workbench/review-context";

/** The share API's body (ShareViewResponse), with the analysis typed for the server-rendered view. */
export type ShareView = Omit<ShareViewResponse, "analysis"> & { analysis: Analysis };

export const SHARE_TOKEN_BYTES = 32;
/** What a token looks like; anything else cannot be one, but is still answered like an unknown token. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newShareToken(): string {
  return randomBytes(SHARE_TOKEN_BYTES).toString("base64url");
}

export function hashShareToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function shareLinkView(link: ShareLink, now: Date = new Date()): ShareLinkView {
  return {
    id: link.id,
    frozenRevision: link.frozenRevision,
    expiresAt: link.expiresAt,
    revokedAt: link.revokedAt,
    createdAt: link.createdAt,
    label: link.label,
    state:
      link.revokedAt !== null ? "revoked" : shareLinkIsActive(link, now) ? "active" : "expired",
  };
}

/** The active link for a token; null for an unknown, revoked or expired one alike. */
export async function activeShareLink(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<ShareLink | null> {
  // Hash whatever was sent (even a malformed token) so every miss does the same work.
  const tokenHash = hashShareToken(token.slice(0, 200));
  const link = await findShareLinkByTokenHash(db, tokenHash);
  if (!link || !SHARE_TOKEN_PATTERN.test(token) || !shareLinkIsActive(link, now)) return null;
  return link;
}

/**
 * What a share link shows: the review at its frozen revision (or the latest), its analysis, and
 * its decisions with their status now. Status is always against the latest revision and the live
 * surface, so a frozen link still shows a decision as stale when the deployment has changed since.
 * Null when the link does not admit anyone.
 */
export async function loadShareView(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<ShareView | null> {
  const link = await activeShareLink(db, token, now);
  if (!link) return null;
  const latest = await getReview(db, link.reviewId);
  if (!latest) return null;
  const shown =
    link.frozenRevision === null
      ? latest
      : await getRevision(db, link.reviewId, link.frozenRevision);
  if (!shown) return null;
  // Who read what through a link is part of the audit log (actor: the link).
  await logShareLinkView(db, {
    linkId: link.id,
    reviewId: link.reviewId,
    revision: shown.revision,
  });
  const ctx = await openReview(db, link.reviewId, { record: latest });
  // Status is against the latest revision's lifecycle: a decision a frozen link shows may have been superseded since.
  const checks = await decisionChecks(ctx, shown.review.decisions);
  const analysis = await ctx.analysisOf(shown.review);
  return {
    revision: shown.revision,
    frozen: link.frozenRevision !== null,
    expiresAt: link.expiresAt,
    // Commands, arguments and URLs never leave through a link: only what the decision record shows.
    review: {
      ...shown.review,
      servers: shown.review.servers.map((s) => ({ ...s, transport: sharedTransport(s.transport) })),
    },
    analysis,
    decisions: shown.review.decisions.map((d) =>
      decisionView(d, latest.review, ctx.surfaces, checks),
    ),
    // Counts now, even on a frozen link: they are what arrived, not part of the frozen review.
    detection: await detectionView(db, link.reviewId),
  };
}
