/**
 * Request and response shapes of the live-surface routes (inspect, surface, pin, registration),
 * shared by the route handlers and the browser fetchers. Pure: the client imports this file, so
 * lib/surface modules that hash (node:crypto) are imported here as types only.
 *
 * A request never names what to run: the inspect body carries limit overrides only, and the
 * target is resolved from the stored review's server entry (the launcher allowlist applies).
 */
import type { CredentialSurfacesView } from "@/lib/workbench/credential-surfaces";
import { z } from "zod";
import type { SandboxReport } from "@/lib/sandbox/plan";
import type { InspectError, InspectProgress } from "@/lib/mcp/types";
import { ReviewRecordSchema } from "@/lib/reviews/record";
import { SurfacePinSchema } from "@/lib/review/schema";
import { Sha256Schema, type Sha256 } from "@/lib/ids";
import { InspectLimitsSchema } from "@/lib/surface/limits";
import type { SurfaceDiff } from "@/lib/surface/diff";
import type { PinComparison, RegistrationRecord } from "@/lib/surface/registration";
import type { SuspiciousFlag } from "@/lib/surface/suspicious";
import { SurfaceSnapshotSchema, type SurfaceList } from "@/lib/surface/types";

/** POST …/inspect: optional limit overrides (each validated by its named bound), nothing else. */
export const InspectRequestSchema = z
  .object({ limits: InspectLimitsSchema.partial().optional() })
  .strict();
export type InspectRequest = z.infer<typeof InspectRequestSchema>;

/** Where the owner lists runnable commands when the shipped allowlist does not have one. */
export const LAUNCHER_FILE_HINT =
  "$RELAY_REVIEW_DATA/launchers.json (or config/launchers.json in the repository)";

export type InspectSummary = {
  counts: Record<SurfaceList, number>;
  rejects: number;
  /** Suspicious-text flags: where to look, never a control. */
  flags: number;
};

/** The pin check condensed for the stream's last line; the full comparison is in the surface view. */
export type PinState =
  | { status: "unpinned"; blocked: false }
  | {
      status: PinComparison["status"];
      blocked: boolean;
      onSurfaceChange: "block" | "warn";
      pinnedSurfaceSha256: Sha256;
    };

/** One line of the NDJSON stream the inspect route answers with. */
export type InspectStreamLine =
  | { type: "progress"; event: InspectProgress }
  | {
      type: "result";
      ok: true;
      inspectionId: string;
      snapshotSha256: Sha256;
      surfaceSha256: Sha256;
      serverInfo: { name: string; version: string };
      summary: InspectSummary;
      pin: PinState;
    }
  | { type: "result"; ok: false; inspectionId: string | null; error: InspectError };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Envelope check of one stream line: the server writes exactly these, the UI renders their fields as text. */
export const InspectStreamLineSchema = z.custom<InspectStreamLine>((v) => {
  if (!isObject(v)) return false;
  if (v.type === "progress") return isObject(v.event) && typeof v.event.type === "string";
  if (v.type !== "result") return false;
  return v.ok === true
    ? typeof v.surfaceSha256 === "string" && isObject(v.summary) && isObject(v.pin)
    : v.ok === false && isObject(v.error);
}, "not an inspect stream line");

/** Where the pinned snapshot came from, for the field-level diff. */
export type PinnedSnapshotRef =
  { found: true; snapshotSha256: Sha256; inspectedAt: string } | { found: false; reason: string };

export type InspectionSummary = {
  id: string;
  inspectedAt: string;
  status: "ok" | "failed";
  surfaceSha256: string | null;
  snapshotSha256: string | null;
  declaredCapabilities: string[];
  error: InspectError | null;
  /** For a stdio run from the web app: what the sandbox showed the server and what it tried. */
  sandbox: SandboxReport | null;
};

/** GET …/surface. */
export type SurfaceView = {
  reviewId: string;
  revision: number;
  serverId: string;
  serverName: string;
  imageDigest: string | null;
  /** Whether this server has a live surface at all (manual servers do not). */
  isInspectable: boolean;
  /** The most recent inspection, failed or not. */
  latest: InspectionSummary | null;
  /** The most recent successful inspection and its snapshot (what everything below describes). */
  current: {
    inspection: InspectionSummary;
    snapshot: z.infer<typeof SurfaceSnapshotSchema>;
  } | null;
  /** Set when the latest successful inspection's snapshot is missing or in a format this version cannot read. */
  snapshotProblem: string | null;
  flags: SuspiciousFlag[];
  /** The pin the current surface is compared with: the one of its era and credential. */
  pin: z.infer<typeof SurfacePinSchema> | null;
  /** The server's other pins (other eras and credentials), each with the context it names. */
  otherPins?: { pin: z.infer<typeof SurfacePinSchema>; context: string }[];
  /** The credential the current surface was listed under, as text (names, never a value). */
  credential?: string;
  comparison: PinComparison | null;
  pinnedSnapshot: PinnedSnapshotRef | null;
  /** Field-level diff from the pinned snapshot to the current one, when both are stored and they differ. */
  diff: SurfaceDiff | null;
  /** Derived, never stored: the latest successful inspection mismatches a pin under "block". */
  blocked: { isBlocked: boolean; reason: string | null };
  /** The registration record of the current snapshot (what a pin would record now). */
  registration: RegistrationRecord | null;
  inspections: InspectionSummary[];
};

export const SurfaceViewSchema = z.custom<SurfaceView>((v) => {
  if (!isObject(v) || typeof v.serverId !== "string" || typeof v.revision !== "number")
    return false;
  if (!Array.isArray(v.flags) || !Array.isArray(v.inspections) || !isObject(v.blocked))
    return false;
  if (v.current !== null) {
    if (!isObject(v.current) || !SurfaceSnapshotSchema.safeParse(v.current.snapshot).success)
      return false;
  }
  return v.pin === null || SurfacePinSchema.safeParse(v.pin).success;
}, "not a surface view");

/** POST …/pin. `surfaceSha256` names what the reviewer looked at: a newer inspection in between answers 409. */
export const PinRequestSchema = z
  .object({
    reason: z.string().trim().max(4000).default(""),
    surfaceSha256: Sha256Schema.optional(),
    baseRevision: z.number().int().min(1).optional(),
    onSurfaceChange: z.enum(["block", "warn"]).optional(),
  })
  .strict();
export type PinRequest = z.input<typeof PinRequestSchema>;

export const PinResponseSchema = z.object({ record: ReviewRecordSchema, pin: SurfacePinSchema });
export type PinResponse = z.infer<typeof PinResponseSchema>;

/** POST …/pin/remove: which of the server's other pins to remove (by fingerprint and time), and why. */
export const RemovePinRequestSchema = z
  .object({
    surfaceSha256: Sha256Schema,
    pinnedAt: z.iso.datetime(),
    reason: z.string().trim().max(4000).default(""),
    baseRevision: z.number().int().min(1).optional(),
  })
  .strict();
export type RemovePinRequest = z.input<typeof RemovePinRequestSchema>;

export const RemovePinResponseSchema = z.object({
  record: ReviewRecordSchema,
  pin: SurfacePinSchema,
  context: z.string(),
});
export type RemovePinResponse = z.infer<typeof RemovePinResponseSchema>;

/** GET …/credentials (lib/workbench/credential-surfaces.ts): the surface per era and credential. */
export const CredentialSurfacesViewSchema = z.custom<CredentialSurfacesView>(
  (v) =>
    isObject(v) &&
    typeof v.serverId === "string" &&
    Array.isArray(v.surfaces) &&
    Array.isArray(v.findings) &&
    (v.diff === null || isObject(v.diff)),
  "not a credential surfaces view",
);
