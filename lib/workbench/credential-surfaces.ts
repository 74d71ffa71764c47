import "server-only";
/**
 * A server's surface per credential (issue 30, item 3): the latest successful inspection under each
 * era and credential it was listed under, each with the pin of its own context, the difference
 * between two of them (the per-item diff the pin check uses), and the shared-cache findings: a list
 * that differs between credentials yet is declared `cacheScope: "public"`.
 */
import { AppError } from "@/lib/errors";
import type { ServerToolList } from "@/lib/model/input";
import type { ReviewId, ServerId } from "@/lib/ids";
import type { Db } from "@/lib/store/db";
import type { RelayServer } from "@/lib/review/schema";
import {
  listInspections,
  recentOkInspectionsPerServer,
  type InspectionRecord,
} from "@/lib/store/snapshots";
import { credentialKey, credentialText, type Credential } from "@/lib/credential";
import { sharedCacheFindings } from "@/lib/surface/credential";
import { diffSurfaces, type SurfaceDiff } from "@/lib/surface/diff";
import { itemKey } from "@/lib/surface/fingerprint";
import { comparePin } from "@/lib/surface/registration";
import {
  SURFACE_LISTS,
  surfaceOf,
  type ListCacheHint,
  type SurfaceList,
  type SurfaceSnapshot,
} from "@/lib/surface/types";
import { inspectionSnapshot } from "@/lib/workbench/current-surface";
import {
  loadReviewServer,
  pinContextLabel,
  pinForContext,
  snapshotEra,
} from "@/lib/workbench/surface";

/** How many past inspections are read to find each credential's latest. */
export const CREDENTIAL_INSPECTIONS_SCANNED = 500;
/** How many distinct era × credential surfaces are shown. */
export const MAX_CREDENTIAL_SURFACES = 32;

type CredentialSurfaceOfEra = NonNullable<ServerToolList["credentialSurfaces"]>[number];

export type CredentialSurfaceSummary = {
  /** Stable: the era and the credential's key (lib/surface/credential.ts credentialKey). */
  key: string;
  era: "2025" | "2026";
  credential: Credential;
  /** The credential as text: the OAuth subject, issuer and scopes, or the secrets' names. */
  label: string;
  inspectionId: string;
  inspectedAt: string;
  surfaceSha256: string;
  counts: Record<SurfaceList, number>;
  cacheHints: Partial<Record<SurfaceList, ListCacheHint>>;
  /** This surface against the pin of its own era and credential; null when it has none. */
  pin: { context: string; status: "match" | "mismatch" | "incomparable" } | null;
};

export type CredentialSurfacesView = {
  serverId: string;
  surfaces: CredentialSurfaceSummary[];
  /** `cacheScope: "public"` on a list that varies by credential, one sentence each. */
  findings: { list: SurfaceList; credentials: [string, string]; message: string }[];
  /** From surface `a` to surface `b` (keys above): what `b` lists that `a` does not, and so on. */
  diff: { a: string; b: string; diff: SurfaceDiff } | null;
};

export const surfaceContextKey = (era: "2025" | "2026", credential: Credential) =>
  JSON.stringify([era, credentialKey(credential)]);

type ContextSurface = { summary: CredentialSurfaceSummary; snapshot: SurfaceSnapshot };

/**
 * Each era × credential's latest surface among `inspections` (successful ones of one server,
 * newest first), keyed by `surfaceContextKey`, at most `MAX_CREDENTIAL_SURFACES`. Inspections of
 * an unchanged server share a snapshot, so each stored snapshot is read once.
 */
async function latestPerContext(
  db: Db,
  server: Pick<RelayServer, "pin" | "otherPins">,
  inspections: readonly InspectionRecord[],
): Promise<Map<string, ContextSurface>> {
  const found = new Map<string, ContextSurface>();
  const read = new Map<string, Promise<SurfaceSnapshot | null>>();
  for (const inspection of inspections.slice(0, CREDENTIAL_INSPECTIONS_SCANNED)) {
    if (found.size >= MAX_CREDENTIAL_SURFACES) break;
    const sha = inspection.snapshotSha256;
    if (!sha) continue;
    let pending = read.get(sha);
    if (!pending) read.set(sha, (pending = inspectionSnapshot(db, inspection)));
    const snapshot = await pending;
    if (!snapshot) continue;
    const era = snapshotEra(snapshot);
    const key = surfaceContextKey(era, inspection.credential);
    if (found.has(key)) continue;
    const pin = pinForContext(server, { era, credential: inspection.credential });
    found.set(key, {
      snapshot,
      summary: {
        key,
        era,
        credential: inspection.credential,
        label: credentialText(inspection.credential),
        inspectionId: inspection.id,
        inspectedAt: inspection.inspectedAt,
        surfaceSha256: snapshot.surfaceSha256,
        counts: Object.fromEntries(SURFACE_LISTS.map((l) => [l, snapshot[l].length])) as Record<
          SurfaceList,
          number
        >,
        cacheHints: snapshot.cacheHints ?? {},
        pin: pin
          ? { context: pinContextLabel(pin), status: comparePin(pin, snapshot).status }
          : null,
      },
    });
  }
  return found;
}

/** What the shared-cache check reads of a surface: its era, credential, item keys and cache hints. */
function credentialSurfaceOf(e: ContextSurface): CredentialSurfaceOfEra {
  return {
    era: e.summary.era,
    credential: e.summary.credential,
    keys: Object.fromEntries(
      SURFACE_LISTS.map((l) => [l, e.snapshot[l].map((item) => itemKey(l, item as never))]),
    ),
    cacheHints: e.summary.cacheHints,
  };
}

/**
 * Each era × credential's latest successful surface of one server, newest first; with `compare`,
 * the diff between two of them (by key), else between the two newest when there are two.
 */
export async function credentialSurfaces(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
  compare?: { a: string; b: string },
): Promise<CredentialSurfacesView> {
  const { server } = await loadReviewServer(db, reviewId, serverId);
  return credentialSurfacesOf(db, reviewId, server, compare);
}

/** `credentialSurfaces` of a server already read from its review (the review page's prefetch). */
export async function credentialSurfacesOf(
  db: Db,
  reviewId: string,
  server: RelayServer,
  compare?: { a: string; b: string },
): Promise<CredentialSurfacesView> {
  const serverId = server.id;
  const inspections = (await listInspections(db, reviewId, serverId)).filter(
    (i) => i.status === "ok",
  );
  const found = await latestPerContext(db, server, inspections);
  const entries = [...found.values()];
  const findings = (["2025", "2026"] as const).flatMap((era) => {
    const ofEra = entries.filter((e) => e.summary.era === era).map(credentialSurfaceOf);
    return sharedCacheFindings(ofEra, SURFACE_LISTS).map((f) => ({
      list: f.list,
      credentials: [credentialText(f.credentials[0]), credentialText(f.credentials[1])] as [
        string,
        string,
      ],
      message: f.message,
    }));
  });
  let diff: CredentialSurfacesView["diff"] = null;
  const pair =
    compare ??
    (entries.length >= 2 ? { a: entries[1]!.summary.key, b: entries[0]!.summary.key } : null);
  if (pair) {
    const a = found.get(pair.a);
    const b = found.get(pair.b);
    if (!a || !b)
      throw new AppError(
        "NOT_FOUND",
        `this server has no surface under ${a ? "the second" : "the first"} credential asked for; inspect it under that credential first`,
      );
    diff = {
      a: pair.a,
      b: pair.b,
      diff: diffSurfaces(surfaceOf(a.snapshot), surfaceOf(b.snapshot)),
    };
  }
  return { serverId, surfaces: entries.map((e) => e.summary), findings, diff };
}

/**
 * The analysis's input for the shared-cache finding (lib/analysis/credential-findings.ts): per
 * server listed under two or more credentials, each era × credential's latest surface (whichever
 * revision's document is analysed: the inspections are the server's, not a revision's). One query
 * reads each server's newest inspections (as many as the credentials view scans); a server with
 * one credential reads no snapshot, since a list cannot differ between credentials it was never
 * listed under.
 */
export async function credentialSurfacesForAnalysis(
  db: Db,
  reviewId: string,
): Promise<Map<string, CredentialSurfaceOfEra[]>> {
  const byServer = await recentOkInspectionsPerServer(db, reviewId, CREDENTIAL_INSPECTIONS_SCANNED);
  const out = new Map<string, CredentialSurfaceOfEra[]>();
  for (const [serverId, inspections] of byServer) {
    const credentials = new Set(inspections.map((i) => credentialKey(i.credential)));
    if (credentials.size < 2) continue;
    // No pin is compared here: the analysis reads the lists and cache hints only.
    const found = await latestPerContext(db, { pin: null }, inspections);
    if (found.size >= 2) out.set(serverId, [...found.values()].map(credentialSurfaceOf));
  }
  return out;
}
