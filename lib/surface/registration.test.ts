import { describe, expect, test } from "vitest";
import { DECLARED_CAPABILITY_NAMES, DECLARED_CLIENT_CAPABILITIES } from "@/lib/mcp/capabilities";
import { diffSurfaces, formatSurfaceDiff } from "@/lib/surface/diff";
import {
  buildRegistrationRecord,
  comparePin,
  parseRegistrationRecord,
} from "@/lib/surface/registration";
import { surfaceOf, type Surface, type SurfaceSnapshot } from "@/lib/surface/types";
import { snapshotOfSurface } from "@/tests/support/snapshot";

const surface: Surface = {
  instructions: "Read-only.",
  tools: [
    {
      name: "knowledge_search",
      description: "Search tickets.",
      inputSchema: { type: "object" },
      annotations: { readOnlyHint: true },
    },
    { name: "read_page", description: "Read a page.", inputSchema: { type: "object" } },
  ],
  resources: [],
  resourceTemplates: [{ uriTemplate: "atlas://spaces/{key}", name: "space" }],
  prompts: [],
  rejects: [],
};

function snapshotOf(
  s: Surface,
  declared: string[] = [...DECLARED_CAPABILITY_NAMES],
): SurfaceSnapshot {
  return snapshotOfSurface(s, {
    declaredCapabilities: declared,
    clientCapabilities: DECLARED_CLIENT_CAPABILITIES,
  });
}
const changed: Surface = {
  ...surface,
  tools: [
    { ...surface.tools[0]!, description: "Search tickets; fetches linked external pages." },
    { name: "share_file", description: "Share.", inputSchema: { type: "object" } },
  ],
};

describe("registration record", () => {
  test("has the seed's shape and round-trips through its schema", () => {
    const r = buildRegistrationRecord(snapshotOf(surface), { image: null });
    expect(r).toMatchObject({
      server: "knowledge-mcp",
      image: null,
      surface: {
        tools: ["knowledge_search", "read_page"],
        resources: ["atlas://spaces/{key}"],
        prompts: [],
      },
      on_surface_change: "block",
      declared_capabilities: ["elicitation", "roots", "roots.listChanged", "sampling"],
    });
    expect(parseRegistrationRecord(JSON.stringify(r))).toEqual({ ok: true, record: r });
    expect(parseRegistrationRecord("{").ok).toBe(false);
    expect(parseRegistrationRecord({ ...r, surface_sha256: "b21d7c…" })).toMatchObject({
      ok: false,
      issues: [{ path: "surface_sha256" }],
    });
  });
});

describe("comparePin", () => {
  const pin = buildRegistrationRecord(snapshotOf(surface));
  test("match", () => {
    expect(comparePin(pin, snapshotOf(surface))).toMatchObject({ status: "match", blocked: false });
  });
  test("mismatch is blocked under block, with item names and a field diff", () => {
    const cmp = comparePin(pin, snapshotOf(changed), surface);
    expect(cmp.status).toBe("mismatch");
    if (cmp.status !== "mismatch") return;
    expect(cmp.blocked).toBe(true);
    expect(cmp.names).toMatchObject({
      added: [{ list: "tools", key: "share_file" }],
      removed: [{ list: "tools", key: "read_page" }],
      changed: [{ list: "tools", key: "knowledge_search" }],
      instructionsChanged: false,
    });
    expect(cmp.diff?.changed).toEqual([
      {
        list: "tools",
        key: "knowledge_search",
        fields: [
          {
            field: "description",
            before: "Search tickets.",
            after: "Search tickets; fetches linked external pages.",
          },
        ],
      },
    ]);
    expect(comparePin({ ...pin, on_surface_change: "warn" }, snapshotOf(changed)).blocked).toBe(
      false,
    );
  });
  test("incomparable when the declared capabilities differ (and blocked)", () => {
    expect(comparePin(pin, snapshotOf(surface, ["roots"]))).toMatchObject({
      status: "incomparable",
      blocked: true,
      pinned: pin.declared_capabilities,
      inspected: ["roots"],
    });
  });
  test("works from the review's SurfacePin too", () => {
    const s = snapshotOf(surface);
    const reviewPin = {
      surfaceSha256: s.surfaceSha256,
      declaredCapabilities: s.declaredCapabilities,
      pinnedAt: s.inspectedAt,
      pinnedBy: "r",
      reason: "",
      onSurfaceChange: "block" as const,
    };
    expect(comparePin(reviewPin, s).status).toBe("match");
    expect(comparePin(reviewPin, snapshotOf(changed))).toMatchObject({
      status: "mismatch",
      blocked: true,
      names: null,
    });
  });
});

describe("diffSurfaces", () => {
  test("reports fields with before/after and ignores key order", () => {
    const reordered: Surface = {
      ...surface,
      tools: [...surface.tools]
        .reverse()
        .map((t) => Object.fromEntries(Object.entries(t).reverse()) as typeof t),
    };
    expect(diffSurfaces(surface, reordered).isEqual).toBe(true);
    const d = diffSurfaces(surface, { ...changed, instructions: null });
    expect(d.added.map((a) => a.key)).toEqual(["share_file"]);
    expect(d.removed.map((a) => a.key)).toEqual(["read_page"]);
    expect(d.instructions).toEqual({ before: "Read-only.", after: null });
    expect(formatSurfaceDiff(d)).toContain('~ tool "knowledge_search": description changed');
    expect(diffSurfaces(surfaceOf(snapshotOf(surface)), surface).isEqual).toBe(true);
  });
});
