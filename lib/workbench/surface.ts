import "server-only";
/**
 * Server-side glue for the live-surface routes: the surface view of one review server (latest
 * inspection, its snapshot, suspicious flags, the pin check and the diff against the pinned
 * snapshot), and pinning. "Blocked" is derived here on every read from the current inspection
 * (lib/workbench/current-surface.ts) and the pin, never stored, so it cannot drift from what was inspected; the re-pin
 * records its reason in the pin itself.
 */
import { AppError, reviewNotFound } from "@/lib/errors";
import type { ReviewId, ServerId, Sha256 } from "@/lib/ids";
import type { SandboxReport } from "@/lib/sandbox/plan";
import { INSPECT_ERROR_CODES, type InspectError } from "@/lib/mcp/types";
import type { RelayServer, SurfacePin } from "@/lib/review/schema";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Db } from "@/lib/store/db";
import { getReview, saveReview } from "@/lib/store/reviews";
import { listInspections, type InspectionRecord } from "@/lib/store/snapshots";
import {
  buildRegistrationRecord,
  comparePin,
  type PinComparison,
  type RegistrationRecord,
} from "@/lib/surface/registration";
import { scanSurface } from "@/lib/surface/suspicious";
import { surfaceOf, type SurfaceSnapshot } from "@/lib/surface/types";
import { currentSurface, inspectionSnapshot } from "@/lib/workbench/current-surface";
import type {
  InspectionSummary,
  PinState,
  PinnedSnapshotRef,
  SurfaceView,
} from "@/lib/workbench/surface-api";

/** How many past inspections the view lists. */
export const INSPECTION_HISTORY_LIMIT = 20;

/** The stored review and one of its servers; 404 naming which one is missing. */
export async function loadReviewServer(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
): Promise<{ record: ReviewRecord; server: RelayServer }> {
  const record = await getReview(db, reviewId);
  if (!record) throw reviewNotFound(reviewId);
  const server = record.review.servers.find((s) => s.id === serverId);
  if (!server)
    throw new AppError(
      "NOT_FOUND",
      `review ${JSON.stringify(reviewId)} has no server with id ${JSON.stringify(serverId)}`,
    );
  return { record, server };
}

/** A stored error as an InspectError, or a generic one when it is some other shape. */
export function storedInspectError(value: unknown): InspectError | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "object" && typeof (value as { message?: unknown }).message === "string") {
    const v = value as Partial<InspectError>;
    const code = (INSPECT_ERROR_CODES as readonly string[]).includes(String(v.code))
      ? v.code!
      : "internal";
    return { ...v, code, message: String(v.message) };
  }
  return { code: "internal", message: typeof value === "string" ? value : JSON.stringify(value) };
}

export function summarizeInspection(r: InspectionRecord): InspectionSummary {
  return {
    id: r.id,
    inspectedAt: r.inspectedAt,
    status: r.status,
    surfaceSha256: r.surfaceSha256,
    snapshotSha256: r.snapshotSha256,
    declaredCapabilities: r.declaredCapabilities,
    error: storedInspectError(r.error),
    sandbox: storedSandboxReport(r.sandbox),
  };
}

/** A stored sandbox report, or null for rows without one (HTTP, older rows) or of another shape. */
export function storedSandboxReport(value: unknown): SandboxReport | null {
  if (typeof value !== "object" || value === null) return null;
  const v = value as Partial<Record<string, unknown>>;
  if (v.sandboxed === false)
    return typeof v.reason === "string" ? { sandboxed: false, reason: v.reason } : null;
  if (v.sandboxed !== true || !Array.isArray(v.attempts) || !Array.isArray(v.visible)) return null;
  // An egress record of another shape is left out rather than shown half-read.
  const e = v.egress as Partial<Record<string, unknown>> | undefined;
  if (e !== undefined && (!Array.isArray(e?.attempts) || !Array.isArray(e?.grants))) {
    const { egress: _dropped, ...rest } = v;
    return rest as SandboxReport;
  }
  return value as SandboxReport;
}

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** The stored snapshot a pin was made from: an ok inspection of this server with the pin's sha and capabilities. */
export async function findPinnedSnapshot(
  db: Db,
  reviewId: string,
  serverId: string,
  pin: SurfacePin,
): Promise<{ ref: PinnedSnapshotRef; snapshot: SurfaceSnapshot | null }> {
  const candidates = (await listInspections(db, reviewId, serverId)).filter(
    (i) =>
      i.status === "ok" &&
      i.surfaceSha256 === pin.surfaceSha256 &&
      sameSet(i.declaredCapabilities, pin.declaredCapabilities),
  );
  for (const c of candidates) {
    const snapshot = await inspectionSnapshot(db, c);
    if (snapshot)
      return {
        ref: { found: true, snapshotSha256: c.snapshotSha256!, inspectedAt: c.inspectedAt },
        snapshot,
      };
  }
  return {
    ref: {
      found: false,
      reason: candidates.length
        ? "the inspection the pin was made from is recorded, but its snapshot is missing or in a format this version cannot read; only the fingerprints can be compared"
        : "no stored inspection of this server has the pinned surface fingerprint (the pin may come from another workbench); only the fingerprints can be compared",
    },
    snapshot: null,
  };
}

export type PinCheck = { comparison: PinComparison; pinnedSnapshot: PinnedSnapshotRef };

/** Compare a snapshot with the server's pin, with the field-level diff when the pinned snapshot is stored. */
export async function checkPin(
  db: Db,
  reviewId: string,
  server: RelayServer,
  snapshot: SurfaceSnapshot,
): Promise<PinCheck | null> {
  if (!server.pin) return null;
  const pinned = await findPinnedSnapshot(db, reviewId, server.id, server.pin);
  const comparison = comparePin(
    server.pin,
    snapshot,
    pinned.snapshot ? surfaceOf(pinned.snapshot) : undefined,
  );
  return { comparison, pinnedSnapshot: pinned.ref };
}

/**
 * The server's pin compared with its current surface (what the surface panel shows); null when
 * the server has no pin or its current inspection has no readable snapshot.
 */
export async function pinCheckNow(
  db: Db,
  reviewId: string,
  server: RelayServer,
): Promise<PinCheck | null> {
  if (!server.pin) return null;
  const snapshot = (await currentSurface(db, reviewId, server.id))?.snapshot ?? null;
  return snapshot ? checkPin(db, reviewId, server, snapshot) : null;
}

export function pinState(pin: SurfacePin | null, comparison: PinComparison | null): PinState {
  if (!pin || !comparison) return { status: "unpinned", blocked: false };
  return {
    status: comparison.status,
    blocked: comparison.blocked,
    onSurfaceChange: pin.onSurfaceChange,
    pinnedSurfaceSha256: pin.surfaceSha256,
  };
}

export function blockedReason(comparison: PinComparison | null): string | null {
  if (!comparison || !comparison.blocked) return null;
  if (comparison.status === "incomparable") return comparison.reason;
  if (comparison.status === "mismatch") {
    return `the live surface (${comparison.actual.slice(0, 12)}…) does not match the pinned fingerprint (${comparison.expected.slice(0, 12)}…) under on_surface_change "block"; a reviewer re-pins it, with a reason, to unblock`;
  }
  return null;
}

export function registrationFor(
  server: RelayServer,
  snapshot: SurfaceSnapshot,
  onSurfaceChange?: "block" | "warn",
): RegistrationRecord {
  return buildRegistrationRecord(snapshot, {
    server: server.name,
    image: server.imageDigest,
    onSurfaceChange: onSurfaceChange ?? server.pin?.onSurfaceChange ?? "block",
  });
}

/** Everything the surface panel shows for one server, as stored. */
export async function surfaceView(
  db: Db,
  record: ReviewRecord,
  server: RelayServer,
): Promise<SurfaceView> {
  const history = (await listInspections(db, record.id, server.id)).slice(
    0,
    INSPECTION_HISTORY_LIMIT,
  );
  const latest = history[0] ?? null;
  const current = await currentSurface(db, record.id, server.id);
  const latestOk = current?.inspection ?? null;
  const snapshot = current?.snapshot ?? null;
  const snapshotProblem =
    latestOk && !snapshot
      ? "the latest successful inspection's snapshot is missing or in a format this version cannot read; inspect again"
      : null;
  const check = snapshot ? await checkPin(db, record.id, server, snapshot) : null;
  const comparison = check?.comparison ?? null;
  return {
    reviewId: record.id,
    revision: record.revision,
    serverId: server.id,
    serverName: server.name,
    imageDigest: server.imageDigest,
    isInspectable: server.transport.kind !== "manual",
    latest: latest ? summarizeInspection(latest) : null,
    current: latestOk && snapshot ? { inspection: summarizeInspection(latestOk), snapshot } : null,
    snapshotProblem,
    flags: snapshot ? scanSurface(surfaceOf(snapshot)) : [],
    pin: server.pin,
    comparison,
    pinnedSnapshot:
      check?.pinnedSnapshot ??
      (server.pin
        ? await findPinnedSnapshot(db, record.id, server.id, server.pin).then((p) => p.ref)
        : null),
    diff: comparison?.status === "mismatch" ? comparison.diff : null,
    blocked: { isBlocked: comparison?.blocked ?? false, reason: blockedReason(comparison) },
    registration: snapshot ? registrationFor(server, snapshot) : null,
    inspections: history.map(summarizeInspection),
  };
}

export type PinInput = {
  reason: string;
  surfaceSha256?: Sha256;
  baseRevision?: number;
  onSurfaceChange?: "block" | "warn";
  author: string;
  now?: Date;
};

/**
 * Pin the current inspection (the latest successful one, lib/workbench/current-surface.ts): writes `server.pin` as a new review revision. A re-pin
 * over a mismatch (or incomparable capabilities) needs a reason; a newer inspection than the one
 * the reviewer looked at, or a save in between, answers 409.
 */
export async function pinLatest(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
  input: PinInput,
): Promise<{ record: ReviewRecord; pin: SurfacePin }> {
  const { record, server } = await loadReviewServer(db, reviewId, serverId);
  const current = await currentSurface(db, reviewId, serverId);
  if (!current?.inspection.surfaceSha256)
    throw new AppError(
      "CONFLICT",
      "this server has no successful inspection to pin; inspect it first",
    );
  const snapshot = current.snapshot;
  if (!snapshot)
    throw new AppError(
      "CONFLICT",
      "the latest successful inspection's snapshot cannot be read; inspect again before pinning",
    );
  if (input.surfaceSha256 && input.surfaceSha256 !== snapshot.surfaceSha256) {
    throw new AppError(
      "CONFLICT",
      `the latest inspection has fingerprint ${snapshot.surfaceSha256}, not the ${input.surfaceSha256} you looked at; review the new surface before pinning it`,
    );
  }
  if (input.baseRevision !== undefined && input.baseRevision !== record.revision) {
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${record.revision} since revision ${input.baseRevision}; reload it and pin again`,
      {
        details: { current: record },
      },
    );
  }
  if (server.pin) {
    const comparison = comparePin(server.pin, snapshot);
    if (comparison.status !== "match" && input.reason.trim() === "") {
      throw new AppError(
        "BAD_REQUEST",
        "re-pinning over a changed surface needs a reason: say what changed and why it is acceptable",
        {
          issues: [{ path: "reason", message: "required when re-pinning over a mismatch" }],
        },
      );
    }
    // Turning "block" into "warn" lets the next change through unreviewed: as weighty as a re-pin over one.
    if (
      server.pin.onSurfaceChange === "block" &&
      input.onSurfaceChange === "warn" &&
      input.reason.trim() === ""
    ) {
      throw new AppError(
        "BAD_REQUEST",
        'changing on_surface_change from "block" to "warn" needs a reason: say why a change need not block',
        {
          issues: [{ path: "reason", message: "required when a pin stops blocking" }],
        },
      );
    }
  }
  const pin: SurfacePin = {
    surfaceSha256: snapshot.surfaceSha256,
    declaredCapabilities: [...snapshot.declaredCapabilities],
    pinnedAt: (input.now ?? new Date()).toISOString(),
    pinnedBy: input.author,
    reason: input.reason.trim(),
    onSurfaceChange: input.onSurfaceChange ?? server.pin?.onSurfaceChange ?? "block",
  };
  const review = structuredClone(record.review);
  const target = review.servers.find((s) => s.id === serverId)!;
  target.pin = pin;
  const saved = await saveReview(db, reviewId, record.revision, review, input.author);
  if (!saved) throw reviewNotFound(reviewId);
  if (!saved.ok) {
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${saved.conflict.revision} while pinning; reload it and pin again`,
      {
        details: { current: saved.conflict },
      },
    );
  }
  return { record: saved.record, pin };
}

/** The registration record to export: the pinned snapshot's when pinned (what the gate enforces), else the current surface's. */
export async function exportRegistration(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
): Promise<{ record: RegistrationRecord; isPinned: boolean; serverName: string }> {
  const { server } = await loadReviewServer(db, reviewId, serverId);
  if (server.pin) {
    const pinned = await findPinnedSnapshot(db, reviewId, serverId, server.pin);
    if (!pinned.snapshot)
      throw new AppError(
        "NOT_FOUND",
        `cannot build the registration record: ${pinned.ref.found ? "" : pinned.ref.reason}`,
      );
    return {
      record: registrationFor(server, pinned.snapshot, server.pin.onSurfaceChange),
      isPinned: true,
      serverName: server.name,
    };
  }
  const snapshot = (await currentSurface(db, reviewId, serverId))?.snapshot ?? null;
  if (!snapshot)
    throw new AppError(
      "NOT_FOUND",
      "this server has no pin and no successful inspection; inspect it first",
    );
  return { record: registrationFor(server, snapshot), isPinned: false, serverName: server.name };
}
