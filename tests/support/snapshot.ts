/**
 * A surface snapshot as an inspection would store it, for tests that compare, pin or store
 * surfaces without starting a server: the fingerprint is computed from `surface`, the rest is fixed.
 */
import { fingerprintSurface } from "@/lib/surface/fingerprint";
import { DEFAULT_INSPECT_LIMITS } from "@/lib/surface/limits";
import type { Surface, SurfaceSnapshot } from "@/lib/surface/types";

export function snapshotOfSurface(
  surface: Surface,
  options: {
    declaredCapabilities?: readonly string[];
    clientCapabilities?: SurfaceSnapshot["clientCapabilities"];
  } = {},
): SurfaceSnapshot {
  const fp = fingerprintSurface(surface);
  return {
    snapshotVersion: 1,
    fingerprintVersion: 1,
    transport: "in-memory",
    serverInfo: { name: "knowledge-mcp", version: "4.1.3" },
    protocolVersion: "2025-11-25",
    capabilities: { tools: {} },
    instructions: surface.instructions,
    clientCapabilities: { ...(options.clientCapabilities ?? {}) },
    declaredCapabilities: [...(options.declaredCapabilities ?? [])],
    tools: surface.tools,
    resources: surface.resources,
    resourceTemplates: surface.resourceTemplates,
    prompts: surface.prompts,
    rejects: [],
    surfaceSha256: fp.surfaceSha256,
    itemHashes: fp.itemHashes,
    settle: {
      listChangedNotifications: 0,
      relists: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 },
      pages: { tools: 1, resources: 1, resourceTemplates: 1, prompts: 1 },
    },
    inspectedAt: "2026-12-02T12:00:00.000Z",
    durationMs: 12,
    limits: DEFAULT_INSPECT_LIMITS,
  };
}
