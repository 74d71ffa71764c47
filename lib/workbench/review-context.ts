import "server-only";
/**
 * The way in: a review's state, loaded once per request into one object that the analysis, the
 * decisions, the state route, the share view, the report, the record and the SARIF export read
 * (issue 29, item 6). Before it, each helper loaded the same facts again (the report entered the
 * snapshot store three times; three places assembled the same four loaders), and nothing made
 * sure two helpers of one request read the same inspection.
 *
 * What `openReview` loads, once:
 *   - the review's current revision (`getReview`, a private copy the caller may change);
 *   - each server's current inspection (lib/workbench/current-surface.ts says which) and its
 *     snapshot, parsed once; each server's latest inspection, failed or not;
 *   - the fingerprints and OAuth grants decisions bind to;
 *   - each pinned server's pin check against its current snapshot.
 * What it computes on first use, then keeps for the request: the analysis of the document, the
 * suspicious-text flags of each current surface and the open findings of each (server, agent).
 *
 * A context is for one request: it is never shared between requests or kept, so it cannot serve
 * a fact that changed since (the shared analysis cache in lib/workbench/analysis.ts keys on the
 * facts themselves). Route handlers read as parse → open → compute → respond.
 */
import type { Analysis } from "@/lib/analysis/analyze";
import { OWNER_AUTHOR } from "@/lib/auth/principal";
import { grantedScopesBinding } from "@/lib/controls/granted-scopes";
import {
  agentFindingCounts,
  decisionFindings,
  type DecisionFinding,
} from "@/lib/decisions/findings";
import { reviewNotFound } from "@/lib/errors";
import type { ServerId } from "@/lib/ids";
import type { RelayServer, Review } from "@/lib/review/schema";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { getReview, readReview } from "@/lib/store/reviews";
import { latestInspectionPerServer, type InspectionRecord } from "@/lib/store/snapshots";
import { scanSurface, type SuspiciousFlag } from "@/lib/surface/suspicious";
import { surfaceOf, type SurfaceSnapshot } from "@/lib/surface/types";
import { analyzeInContext } from "@/lib/workbench/analysis";
import { currentInspections, inspectionSnapshot } from "@/lib/workbench/current-surface";
import { checkPin, pinsOf, type PinCheck } from "@/lib/workbench/surface";
import { credentialKey, type Credential } from "@/lib/credential";

/** The open findings of a review now: the analysis, the surface flags, and a pair's findings. */
export type FindingsNow = {
  analysis: Analysis;
  surfaceFlags: { serverId: string; flags: SuspiciousFlag[] }[];
  /** The open findings of a pair, per lib/decisions/findings.ts. */
  of: (serverId: string, agentId: string) => DecisionFinding[];
  /**
   * The union of `of(server, agentId)` over the servers the agent holds tools of, counted by
   * severity: its paths and the rest (`agentFindingCounts`).
   */
  countsOfAgent: (agentId: string) => ReturnType<typeof agentFindingCounts>;
};

export type ReviewContext = {
  readonly db: Db;
  readonly reviewId: string;
  readonly record: ReviewRecord;
  readonly review: Review;
  /** Who is asking: the author label the request acts as (the owner unless a caller says otherwise). */
  readonly asker: string;
  /** Each server's current inspection; a server never inspected successfully is absent. */
  readonly current: ReadonlyMap<string, InspectionRecord>;
  /** Each server's latest inspection, failed or not. */
  readonly latest: ReadonlyMap<string, InspectionRecord>;
  /** Each server's current snapshot, parsed; absent when it has none or it cannot be read. */
  readonly snapshots: ReadonlyMap<string, SurfaceSnapshot>;
  /** Each server's current surface fingerprint; null when never inspected. */
  readonly surfaces: ReadonlyMap<ServerId, string | null>;
  /** Each server's current OAuth grant (sorted scopes); null without one. */
  readonly grants: ReadonlyMap<ServerId, string[] | null>;
  /** Each pinned server's pin check against its current snapshot; absent without pin or snapshot. */
  readonly pinChecks: ReadonlyMap<string, PinCheck>;
  /** The pin check of a server of any revision's document (the share view's may be old), cached. */
  pinCheckOf(server: RelayServer): Promise<PinCheck | null>;
  /** The analysis of the current document, computed once. */
  analysis(): Promise<Analysis>;
  /** The analysis of another revision's document, against the same current surfaces. */
  analysisOf(review: Review): Promise<Analysis>;
  /** The suspicious-text flags of each current surface, scanned once. */
  surfaceFlags(): { serverId: string; flags: SuspiciousFlag[] }[];
  /** The open findings now, computed once. */
  findings(): Promise<FindingsNow>;
};

export type OpenReviewOptions = {
  /** The author label of who is asking; the owner when absent (the single-owner workbench). */
  asker?: string;
  /** A record already read by the caller (the decide path reads it to check the base revision). */
  record?: ReviewRecord;
  /**
   * Read only: the document is the parse shared between requests (`readReview`, deep-frozen; a
   * `record` passed with it must be that parse), and
   * its analysis may be shared too, so the Graph section's routes do not analyse it again per call.
   */
  readOnly?: boolean;
};

const pinKey = (server: RelayServer, credential: Credential | undefined) => {
  const pins = pinsOf(server);
  return pins.length
    ? JSON.stringify([
        server.id,
        credential ? credentialKey(credential) : null,
        ...pins.map((pin) => [
          pin.surfaceSha256,
          pin.onSurfaceChange,
          [...pin.declaredCapabilities].sort(),
          pin.era ?? null,
          pin.credential ? credentialKey(pin.credential) : null,
        ]),
      ])
    : null;
};

/** The review's state for this request; NOT_FOUND for an unknown review. */
export async function openReview(
  db: Db,
  reviewId: string,
  options: OpenReviewOptions = {},
): Promise<ReviewContext> {
  const shared = options.readOnly === true;
  const record =
    options.record ?? (shared ? await readReview(db, reviewId) : await getReview(db, reviewId));
  if (!record) throw reviewNotFound(reviewId);
  const { review } = record;
  const [current, latest] = await Promise.all([
    currentInspections(db, reviewId),
    latestInspectionPerServer(db, reviewId),
  ]);
  const snapshots = new Map<string, SurfaceSnapshot>();
  for (const server of review.servers) {
    const snapshot = await inspectionSnapshot(db, current.get(server.id) ?? null);
    if (snapshot) snapshots.set(server.id, snapshot);
  }
  const surfaces = new Map<ServerId, string | null>(
    review.servers.map((s) => [s.id, current.get(s.id)?.surfaceSha256 ?? null]),
  );
  const grants = new Map<ServerId, string[] | null>(
    review.servers.map((s) => [
      s.id,
      grantedScopesBinding(current.get(s.id)?.authorization?.scopes),
    ]),
  );
  const pinCache = new Map<string, Promise<PinCheck | null>>();
  const pinCheckOf = (server: RelayServer): Promise<PinCheck | null> => {
    const credential = current.get(server.id)?.credential;
    const key = pinKey(server, credential);
    const snapshot = snapshots.get(server.id);
    if (key === null || !snapshot) return Promise.resolve(null);
    let check = pinCache.get(key);
    if (!check) {
      check = checkPin(db, reviewId, server, snapshot, credential);
      pinCache.set(key, check);
    }
    return check;
  };
  const pinChecks = new Map<string, PinCheck>();
  for (const server of review.servers) {
    const check = await pinCheckOf(server);
    if (check) pinChecks.set(server.id, check);
  }

  const analyzeWith = async (doc: Review) => analyzeInContext(ctx, doc, doc === review && shared);
  let analysis: Promise<Analysis> | null = null;
  let flags: { serverId: string; flags: SuspiciousFlag[] }[] | null = null;
  let findings: Promise<FindingsNow> | null = null;

  const ctx: ReviewContext = {
    db,
    reviewId,
    record,
    review,
    asker: options.asker ?? OWNER_AUTHOR,
    current,
    latest,
    snapshots,
    surfaces,
    grants,
    pinChecks,
    pinCheckOf,
    analysis: () => (analysis ??= analyzeWith(review)),
    analysisOf: (doc) => (doc === review ? ctx.analysis() : analyzeWith(doc)),
    surfaceFlags: () =>
      (flags ??= review.servers.flatMap((server) => {
        const snapshot = snapshots.get(server.id);
        return snapshot ? [{ serverId: server.id, flags: scanSurface(surfaceOf(snapshot)) }] : [];
      })),
    findings: () =>
      (findings ??= ctx.analysis().then((a) => {
        const surfaceFlags = ctx.surfaceFlags();
        const cache = new Map<string, DecisionFinding[]>();
        const byAgent = new Map<string, ReturnType<typeof agentFindingCounts>>();
        return {
          analysis: a,
          surfaceFlags,
          of: (serverId: string, agentId: string) => {
            const key = JSON.stringify([serverId, agentId]);
            let found = cache.get(key);
            if (!found) {
              found = decisionFindings({ analysis: a, review, serverId, agentId, surfaceFlags });
              cache.set(key, found);
            }
            return found;
          },
          countsOfAgent: (agentId: string) => {
            let counted = byAgent.get(agentId);
            if (!counted) {
              counted = agentFindingCounts({ analysis: a, review, agentId, surfaceFlags });
              byAgent.set(agentId, counted);
            }
            return counted;
          },
        };
      })),
  };
  return ctx;
}
