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
import { MAX_OTHER_PINS, type RelayServer, type SurfacePin } from "@/lib/review/schema";
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
import { credentialKey, credentialText, type Credential } from "@/lib/credential";
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

/** Where a surface was listed: its era, and the credential when known (an older caller may not say). */
export type SurfaceContext = { era: "2025" | "2026"; credential?: Credential };

export function snapshotEra(snapshot: Pick<SurfaceSnapshot, "era">): "2025" | "2026" {
  return snapshot.era ?? "2025";
}

/** Every pin of a server: its main pin first, then those under other eras and credentials. */
export function pinsOf(server: Pick<RelayServer, "pin" | "otherPins">): SurfacePin[] {
  return [...(server.pin ? [server.pin] : []), ...(server.otherPins ?? [])];
}

/**
 * Whether a pin was made in this context (issue 30: a pin is compared only with an inspection of
 * the same era, declared capabilities and credential; comparePin checks the capabilities and says
 * so). A pin made before eras or credentials were recorded names neither and fits any, so upgrading
 * does not block every pinned server.
 */
export function pinFitsContext(pin: SurfacePin, context: SurfaceContext): boolean {
  if (pin.era !== undefined && pin.era !== context.era) return false;
  if (pin.credential === undefined || context.credential === undefined) return true;
  return credentialKey(pin.credential) === credentialKey(context.credential);
}

/** The context a pin names, as the workbench says it. */
export function pinContextLabel(pin: SurfacePin): string {
  const era = pin.era === undefined ? "any era" : pin.era === "2026" ? "2026-07-28" : "2025";
  const credential = pin.credential ? credentialText(pin.credential) : "any credential";
  return `${era}, ${credential}`;
}

/** The pin compared with a surface listed in `context`: the first that fits, or null. */
export function pinForContext(
  server: Pick<RelayServer, "pin" | "otherPins">,
  context: SurfaceContext,
): SurfacePin | null {
  return pinsOf(server).find((p) => pinFitsContext(p, context)) ?? null;
}

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
      sameSet(i.declaredCapabilities, pin.declaredCapabilities) &&
      (pin.credential === undefined ||
        credentialKey(i.credential) === credentialKey(pin.credential)),
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

export type PinCheck = {
  /** The pin the surface was compared with (the one of its era and credential); null when none fits. */
  pin: SurfacePin | null;
  comparison: PinComparison;
  pinnedSnapshot: PinnedSnapshotRef;
};

/**
 * Compare a snapshot with the server's pin of the same era and credential (`credential`: the one
 * it was listed under), with the field-level diff when the pinned snapshot is stored. A pinned
 * server with no pin for this context is "incomparable": another credential's pin says nothing
 * about what this one lists, so it blocks when any pin blocks, until this surface is pinned too.
 */
export async function checkPin(
  db: Db,
  reviewId: string,
  server: RelayServer,
  snapshot: SurfaceSnapshot,
  credential?: Credential,
): Promise<PinCheck | null> {
  const pins = pinsOf(server);
  if (!pins.length) return null;
  const context: SurfaceContext = {
    era: snapshotEra(snapshot),
    ...(credential ? { credential } : {}),
  };
  const pin = pinForContext(server, context);
  if (!pin) {
    const listedUnder = `${context.era === "2026" ? "2026-07-28" : "2025"} era, ${credential ? credentialText(credential) : "an unrecorded credential"}`;
    const reason = `no pin of this server was made under the ${listedUnder}; its pins are for ${pins.map(pinContextLabel).join("; ")}. Another era's or credential's pin says nothing about this surface: review it and pin it`;
    return {
      pin: null,
      comparison: {
        status: "incomparable",
        blocked: pins.some((p) => p.onSurfaceChange === "block"),
        reason,
        pinned: [...pins[0]!.declaredCapabilities].sort(),
        inspected: [...snapshot.declaredCapabilities].sort(),
      },
      pinnedSnapshot: { found: false, reason },
    };
  }
  const pinned = await findPinnedSnapshot(db, reviewId, server.id, pin);
  const comparison = comparePin(
    pin,
    snapshot,
    pinned.snapshot ? surfaceOf(pinned.snapshot) : undefined,
  );
  return { pin, comparison, pinnedSnapshot: pinned.ref };
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
  if (!pinsOf(server).length) return null;
  const current = await currentSurface(db, reviewId, server.id);
  return current?.snapshot
    ? checkPin(db, reviewId, server, current.snapshot, current.inspection.credential)
    : null;
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
  const check =
    snapshot && latestOk
      ? await checkPin(db, record.id, server, snapshot, latestOk.credential)
      : null;
  const comparison = check?.comparison ?? null;
  const shownPin = check ? check.pin : server.pin;
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
    pin: shownPin,
    otherPins: pinsOf(server)
      .filter((p) => p !== shownPin)
      .map((p) => ({ pin: p, context: pinContextLabel(p) })),
    ...(latestOk ? { credential: credentialText(latestOk.credential) } : {}),
    comparison,
    pinnedSnapshot:
      check?.pinnedSnapshot ??
      (shownPin
        ? await findPinnedSnapshot(db, record.id, server.id, shownPin).then((p) => p.ref)
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
  requireBaseRevision(record, input.baseRevision, "pin again");
  // The pin this one replaces: the one of the same era and credential (issue 30); a surface under
  // a new era or credential gets a pin of its own beside the others.
  const context: SurfaceContext = {
    era: snapshotEra(snapshot),
    credential: current.inspection.credential,
  };
  const replaced = pinForContext(server, context);
  if (replaced) {
    const comparison = comparePin(replaced, snapshot);
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
      replaced.onSurfaceChange === "block" &&
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
    onSurfaceChange: input.onSurfaceChange ?? replaced?.onSurfaceChange ?? "block",
    era: context.era,
    credential: current.inspection.credential,
  };
  const saved = await saveServerEdit(db, reviewId, serverId, record, input.author, {
    edit: (target) => placePin(target, replaced, pin),
    during: "pinning",
    redo: "pin again",
  });
  return { record: saved, pin };
}

export type RemovePinInput = {
  /** The pin to remove, by what names it: its fingerprint and when it was pinned. */
  surfaceSha256: string;
  pinnedAt: string;
  baseRevision?: number;
  author: string;
};

/**
 * Remove one of a server's pins of another era or credential (issue 30): a new review revision.
 * The pin the current surface is compared with is not removed here (re-pin it instead), nor the
 * server's last pin: there is no unpinning. Removing another context's pin lets nothing through
 * unreviewed: a surface of that context is then compared with no pin ("incomparable"), which
 * blocks while any pin of the server blocks.
 */
export async function removePin(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
  input: RemovePinInput,
): Promise<{ record: ReviewRecord; pin: SurfacePin; context: string }> {
  const { record, server } = await loadReviewServer(db, reviewId, serverId);
  requireBaseRevision(record, input.baseRevision, "remove the pin again");
  const pins = pinsOf(server);
  const removed = pins.find(
    (p) => p.surfaceSha256 === input.surfaceSha256 && p.pinnedAt === input.pinnedAt,
  );
  if (!removed)
    throw new AppError(
      "NOT_FOUND",
      `${server.name} has no pin of fingerprint ${input.surfaceSha256.slice(0, 16)}… pinned at ${input.pinnedAt}; reload the surface`,
    );
  if (pins.length === 1)
    throw new AppError(
      "CONFLICT",
      "this is the server's only pin; a pin is replaced by re-pinning, never removed",
    );
  const current = await currentSurface(db, reviewId, serverId);
  if (current?.snapshot) {
    const inUse = pinForContext(server, {
      era: snapshotEra(current.snapshot),
      credential: current.inspection.credential,
    });
    if (inUse && pinSame(inUse, removed))
      throw new AppError(
        "CONFLICT",
        "the current surface is compared with this pin; re-pin it instead of removing it",
      );
  }
  const saved = await saveServerEdit(db, reviewId, serverId, record, input.author, {
    edit: (target) => {
      const remaining = pinsOf(target).filter((p) => !pinSame(p, removed));
      target.pin = remaining[0] ?? null;
      if (remaining.length > 1) target.otherPins = remaining.slice(1);
      else delete target.otherPins;
    },
    during: "removing the pin",
    redo: "try again",
  });
  return { record: saved, pin: removed, context: pinContextLabel(removed) };
}

/**
 * 409 when the review was saved since `baseRevision`, the revision the reviewer looked at (pinning
 * and removing a pin both send it); `redo` says what to do after reloading.
 */
function requireBaseRevision(
  record: ReviewRecord,
  baseRevision: number | undefined,
  redo: string,
): void {
  if (baseRevision !== undefined && baseRevision !== record.revision)
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${record.revision} since revision ${baseRevision}; reload it and ${redo}`,
      { details: { current: record } },
    );
}

/**
 * Saves `record` with `edit` applied to a copy of one of its servers, as a new revision; 409 when
 * another save came first (`during` and `redo` name what was being done), 404 when it was deleted.
 */
async function saveServerEdit(
  db: Db,
  reviewId: ReviewId,
  serverId: ServerId,
  record: ReviewRecord,
  author: string,
  change: { edit: (server: RelayServer) => void; during: string; redo: string },
): Promise<ReviewRecord> {
  const review = structuredClone(record.review);
  change.edit(review.servers.find((s) => s.id === serverId)!);
  const saved = await saveReview(db, reviewId, record.revision, review, author);
  if (!saved) throw reviewNotFound(reviewId);
  if (!saved.ok)
    throw new AppError(
      "CONFLICT",
      `this review was saved as revision ${saved.conflict.revision} while ${change.during}; reload it and ${change.redo}`,
      { details: { current: saved.conflict } },
    );
  return saved.record;
}

/** Puts `pin` in place of `replaced` (the main pin when it is that one, or when there is none), else beside the others. */
function placePin(server: RelayServer, replaced: SurfacePin | null, pin: SurfacePin): void {
  const others = server.otherPins ?? [];
  if (!server.pin || (replaced && pinSame(server.pin, replaced))) {
    server.pin = pin;
    return;
  }
  const at = replaced ? others.findIndex((p) => pinSame(p, replaced)) : -1;
  if (at >= 0) others[at] = pin;
  else if (others.length >= MAX_OTHER_PINS)
    throw new AppError(
      "CONFLICT",
      `this server already has ${MAX_OTHER_PINS} pins beside its main one; remove one before pinning another era or credential`,
    );
  else others.push(pin);
  server.otherPins = others;
}

const pinSame = (a: SurfacePin, b: SurfacePin) =>
  a.pinnedAt === b.pinnedAt && a.surfaceSha256 === b.surfaceSha256;

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
