/**
 * The registration record (the seed's pin shape) and the pin check. A pin names the surface
 * fingerprint and the client capabilities the pinned inspection declared; it is compared only
 * against an inspection that declared the same ones ("incomparable" otherwise), and under
 * `on_surface_change: "block"` anything but a match is blocked. Pure.
 */
import { z } from "zod";
import { Sha256Schema, type Sha256 } from "@/lib/ids";
import { ImageDigestSchema, type SurfacePin } from "@/lib/review/schema";
import { parseStrictJson } from "@/lib/strict-json";
import { diffSurfaces, type ItemRef, type SurfaceDiff } from "@/lib/surface/diff";
import { FINGERPRINT_VERSION } from "@/lib/surface/fingerprint";
import {
  SURFACE_LISTS,
  surfaceOf,
  type Surface,
  type SurfaceList,
  type SurfaceSnapshot,
} from "@/lib/surface/types";

const ItemHashEntrySchema = z.object({ key: z.string(), sha256: Sha256Schema }).strict();

export const RegistrationRecordSchema = z
  .object({
    server: z.string().min(1).max(500),
    image: ImageDigestSchema.nullable(),
    surface_sha256: Sha256Schema,
    surface: z
      .object({
        tools: z.array(z.string()),
        /** Resource URIs and resource-template URI templates (only URIs when resourceTemplates is given). */
        resources: z.array(z.string()),
        /** A decision record's registration block names templates apart (lib/decisions/record.ts). */
        resourceTemplates: z.array(z.string()).optional(),
        prompts: z.array(z.string()),
      })
      .strict(),
    on_surface_change: z.enum(["block", "warn"]),
    declared_capabilities: z.array(z.string().max(64)).max(16),
    fingerprint_version: z.literal(FINGERPRINT_VERSION).default(FINGERPRINT_VERSION),
    /** Per-item hashes, so a mismatch can name the changed item without the full pinned snapshot. */
    item_sha256: z
      .object({
        tools: z.array(ItemHashEntrySchema),
        resources: z.array(ItemHashEntrySchema),
        resourceTemplates: z.array(ItemHashEntrySchema),
        prompts: z.array(ItemHashEntrySchema),
        instructions: Sha256Schema.nullable(),
        /** MCP Apps `ui://` resources as read; present only when the surface has one. */
        uiResources: z.array(ItemHashEntrySchema).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type RegistrationRecord = z.infer<typeof RegistrationRecordSchema>;

/** Build the registration record for a snapshot. */
export function buildRegistrationRecord(
  snapshot: SurfaceSnapshot,
  options: { server?: string; image?: string | null; onSurfaceChange?: "block" | "warn" } = {},
): RegistrationRecord {
  const { itemHashes: h } = snapshot;
  return {
    server: options.server ?? (snapshot.serverInfo.name || "unnamed-server"),
    image: options.image ?? null,
    surface_sha256: snapshot.surfaceSha256,
    surface: {
      tools: h.tools.map((t) => t.key),
      resources: [...h.resources.map((r) => r.key), ...h.resourceTemplates.map((r) => r.key)],
      prompts: h.prompts.map((p) => p.key),
    },
    on_surface_change: options.onSurfaceChange ?? "block",
    declared_capabilities: [...snapshot.declaredCapabilities],
    fingerprint_version: FINGERPRINT_VERSION,
    item_sha256: {
      tools: h.tools,
      resources: h.resources,
      resourceTemplates: h.resourceTemplates,
      prompts: h.prompts,
      instructions: h.instructions,
      ...(h.uiResources?.length ? { uiResources: h.uiResources } : {}),
    },
  };
}

export type ParseRegistrationResult =
  | { ok: true; record: RegistrationRecord }
  | { ok: false; issues: { path: string; message: string }[] };

/** Parse a registration record from JSON text or a value; never throws. */
export function parseRegistrationRecord(input: unknown): ParseRegistrationResult {
  let value = input;
  if (typeof input === "string") {
    const parsed = parseStrictJson(input);
    if (!parsed.ok) return { ok: false, issues: [{ path: "(root)", message: parsed.message }] };
    value = parsed.value;
  }
  const r = RegistrationRecordSchema.safeParse(value);
  if (r.success) return { ok: true, record: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => ({
      path: i.path.length ? i.path.map(String).join(".") : "(root)",
      message: i.message,
    })),
  };
}

/** What a pin carries, from either a registration record or the review's `SurfacePin`. */
export type PinLike = RegistrationRecord | SurfacePin;

type NormalPin = {
  sha: Sha256;
  declared: string[];
  onChange: "block" | "warn";
  record: RegistrationRecord | null;
};
function normalise(pin: PinLike): NormalPin {
  if ("surface_sha256" in pin) {
    return {
      sha: pin.surface_sha256,
      declared: pin.declared_capabilities,
      onChange: pin.on_surface_change,
      record: pin,
    };
  }
  return {
    sha: pin.surfaceSha256,
    declared: pin.declaredCapabilities,
    onChange: pin.onSurfaceChange,
    record: null,
  };
}

export type NameDiff = {
  added: ItemRef[];
  removed: ItemRef[];
  changed: ItemRef[];
  instructionsChanged: boolean | null;
};

export type PinComparison =
  | { status: "match"; blocked: false; surfaceSha256: Sha256 }
  | {
      status: "mismatch";
      blocked: boolean;
      expected: Sha256;
      actual: Sha256;
      /** Item-level differences from the record's names and per-item hashes. */
      names: NameDiff | null;
      /** Field-level differences, when the pinned surface itself was supplied. */
      diff: SurfaceDiff | null;
    }
  | {
      status: "incomparable";
      blocked: boolean;
      reason: string;
      pinned: string[];
      inspected: string[];
    };

const sameSet = (a: readonly string[], b: readonly string[]) => {
  const x = [...new Set(a)].sort();
  const y = [...new Set(b)].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

function nameDiff(record: RegistrationRecord, snapshot: SurfaceSnapshot): NameDiff {
  const out: NameDiff = { added: [], removed: [], changed: [], instructionsChanged: null };
  const pinned = record.item_sha256;
  if (pinned) {
    for (const list of SURFACE_LISTS) {
      const a = new Map(pinned[list].map((e) => [e.key, e.sha256]));
      const b = new Map(snapshot.itemHashes[list].map((e) => [e.key, e.sha256]));
      for (const key of b.keys()) if (!a.has(key)) out.added.push({ list, key });
      for (const [key, sha] of a) {
        const now = b.get(key);
        if (now === undefined) out.removed.push({ list, key });
        else if (now !== sha) out.changed.push({ list, key });
      }
    }
    out.instructionsChanged = pinned.instructions !== snapshot.itemHashes.instructions;
    return out;
  }
  const current: Record<"tools" | "resources" | "prompts", [SurfaceList, string][]> = {
    tools: snapshot.itemHashes.tools.map((t) => ["tools", t.key]),
    resources: [
      ...snapshot.itemHashes.resources.map((r): [SurfaceList, string] => ["resources", r.key]),
      ...snapshot.itemHashes.resourceTemplates.map((r): [SurfaceList, string] => [
        "resourceTemplates",
        r.key,
      ]),
    ],
    prompts: snapshot.itemHashes.prompts.map((p) => ["prompts", p.key]),
  };
  for (const group of ["tools", "resources", "prompts"] as const) {
    const was = new Set(record.surface[group]);
    const now = new Map(current[group].map(([list, key]) => [key, list]));
    for (const [key, list] of now) if (!was.has(key)) out.added.push({ list, key });
    for (const key of was) if (!now.has(key)) out.removed.push({ list: group, key });
  }
  return out;
}

/** Names what one set of declared capabilities has that the other lacks, both ways. */
function capabilityDifference(pinned: readonly string[], inspected: readonly string[]): string {
  const only = (a: readonly string[], b: readonly string[]) =>
    a.filter((n) => !b.includes(n)).sort();
  const parts: string[] = [];
  const pinnedOnly = only(pinned, inspected);
  const inspectedOnly = only(inspected, pinned);
  if (pinnedOnly.length) parts.push(`only the pin declared ${pinnedOnly.join(", ")}`);
  if (inspectedOnly.length) parts.push(`only this inspection declared ${inspectedOnly.join(", ")}`);
  return parts.join("; ");
}

/**
 * Compare a pin with a fresh inspection. `pinnedSurface` (the surface of the pinned snapshot),
 * when available, adds a field-level diff with before/after values.
 */
export function comparePin(
  pin: PinLike,
  snapshot: SurfaceSnapshot,
  pinnedSurface?: Surface,
): PinComparison {
  const p = normalise(pin);
  const isBlocking = p.onChange === "block";
  if (!sameSet(p.declared, snapshot.declaredCapabilities)) {
    return {
      status: "incomparable",
      blocked: isBlocking,
      reason: `the pin was made with different declared client capabilities (${capabilityDifference(p.declared, snapshot.declaredCapabilities)}), and a server may show a different surface to a different client; re-inspect with the pinned capabilities or re-pin`,
      pinned: [...p.declared].sort(),
      inspected: [...snapshot.declaredCapabilities].sort(),
    };
  }
  if (p.sha === snapshot.surfaceSha256)
    return { status: "match", blocked: false, surfaceSha256: p.sha };
  return {
    status: "mismatch",
    blocked: isBlocking,
    expected: p.sha,
    actual: snapshot.surfaceSha256,
    names: p.record ? nameDiff(p.record, snapshot) : null,
    diff: pinnedSurface ? diffSurfaces(pinnedSurface, surfaceOf(snapshot)) : null,
  };
}
