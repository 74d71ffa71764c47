/**
 * The registry is the only place a control has to be added: a throwaway fifth control, registered
 * in a test-local registry and nowhere else, is evaluated by the analysis, bound into a decision,
 * given a residue clause and placed in the graph's view model, while the built-in registry's output
 * stays as it was. Also: what each built-in control declares matches what the rest of the app does
 * with it (its conditions, its configuration list).
 */
import { describe, expect, it } from "vitest";
import { analyzeReview } from "@/lib/analysis/analyze";
import { controlsBindingInput, controlsSha256 } from "@/lib/decisions/binding";
import { canonicalSha256 } from "@/lib/hash";
import type { ServerId } from "@/lib/ids";
import { findingId } from "@/lib/model/ids";
import { toolListsFromReview } from "@/lib/model/input";
import { why } from "@/lib/model/findings";
import { createDemoReview } from "@/lib/review/demo";
import { ControlsSchema, DecisionConditionSchema, type Review } from "@/lib/review/schema";
import { candidateConditions } from "@/lib/workbench/decisions";
import { graphSectionData } from "@/lib/graph/view";
import { controlRows } from "@/components/graph/view-model";
import { defaultCollapsed, layoutGraph } from "@/components/graph/layout";
import { placeControls } from "@/components/graph/placement";
import { CONTROLS_SECTION, SEED_DOCUMENT } from "@/lib/controls/catalog";
import {
  CONTROLS,
  controlsWithoutServer,
  evaluationsOf,
  type ControlRegistry,
} from "@/lib/controls/registry";
import { defineControl, type ControlEvaluationBase } from "@/lib/controls/types";

type ImagePinEvaluation = ControlEvaluationBase & {
  scope: { kind: "server"; serverId: ServerId };
  imageDigest: string | null;
};

/**
 * A throwaway control: a relay server runs a pinned image. Evaluated from the review's own
 * configuration (the server's recorded image digest), server-scoped, drawn on the server's group.
 */
const imagePinControl = defineControl({
  entry: {
    id: "image_pin",
    name: "Pinned server image",
    sitsAt: "server_credential",
    acts: "source_end",
    canCutPath: false,
    stops: "a server binary swapped under the same name",
    residue: "whatever the pinned image itself does",
    source: { document: SEED_DOCUMENT, section: CONTROLS_SECTION, quote: "(test control)" },
  },
  scope: "server",
  output: { key: "imagePins", single: false },
  config: null,
  evaluate: (ctx) =>
    ctx.relayServers.map((serverId): ImagePinEvaluation => {
      const digest = ctx.model.review.servers.find((s) => s.id === serverId)?.imageDigest ?? null;
      const findings = digest
        ? []
        : [
            {
              id: findingId("image_pin.unpinned", serverId),
              kind: "image_pin.unpinned",
              severity: "medium" as const,
              title: "Server image is not pinned",
              controlId: "image_pin",
              subject: { serverId },
              why: why("no image digest is recorded for the server"),
              nodeIds: [],
              pathIds: [],
            },
          ];
      return {
        controlId: "image_pin",
        scope: { kind: "server", serverId },
        status: digest ? "holds" : "fails",
        sitsAt: "server_credential",
        cutsPath: false,
        stops: "a server binary swapped under the same name",
        residue: "whatever the pinned image itself does",
        summary: digest ? `runs ${digest}` : "runs whatever image the name resolves to",
        findings,
        attachesTo: ctx.serverNodes(serverId),
        imageDigest: digest,
      };
    }),
  missing: () => [],
  present: (evaluations) => evaluations.every((e) => e.status === "holds"),
  residue: (isPresent) => [
    isPresent("image_pin")
      ? { at: 1, controlIds: ["image_pin"], present: true, text: "from a pinned image" }
      : { at: 1, controlIds: [], present: false, text: "from any image the name resolves to" },
  ],
  caveat: (e, ctx) => `image pin for ${ctx.serverName(e.scope.serverId)}: ${e.summary}`,
  binding: {
    key: "imagePins",
    select: (review, serverId) => [
      { imageDigest: review.servers.find((s) => s.id === serverId)?.imageDigest ?? null },
    ],
  },
  conditions: [],
  findingRules: [
    {
      kind: "unpinned",
      name: "ImagePinUnpinned",
      severity: "medium",
      short: "The server's image is not pinned",
      help: "Record the image digest the server runs.",
    },
  ],
  graph: { kind: "server_group" },
});

const registry: ControlRegistry = [...CONTROLS, imagePinControl];
const names = { server: (id: string) => id, agent: (id: string) => id };

function analyse(review: Review, controls: ControlRegistry = registry) {
  return analyzeReview(review, toolListsFromReview(review), controls);
}

function withoutDigest(review: Review): Review {
  return { ...review, servers: review.servers.map((s) => ({ ...s, imageDigest: null })) };
}

describe("a fifth control, added through the registry alone", () => {
  const demo = createDemoReview();
  const relay = "knowledge-mcp";

  it("is evaluated, with its findings among the analysis's", () => {
    const pinned = analyse(demo);
    const evaluations = evaluationsOf(pinned.controls, imagePinControl);
    expect(evaluations.map((e) => [e.scope, e.status])).toEqual([
      [{ kind: "server", serverId: relay }, "holds"],
    ]);
    const unpinned = analyse(withoutDigest(demo));
    expect(evaluationsOf(unpinned.controls, imagePinControl)[0]?.status).toBe("fails");
    expect(unpinned.findings.map((f) => f.kind)).toContain("image_pin.unpinned");
    expect(unpinned.agents.find((a) => a.agentId === "on-call")?.controlsOnPath).toContainEqual(
      expect.objectContaining({ controlId: "image_pin", status: "fails", effect: "narrows" }),
    );
  });

  it("is given its clause in the composed residue, and a caveat when it fails", () => {
    expect(analyse(demo).controls.residue.clauses).toContainEqual({
      controlIds: ["image_pin"],
      present: true,
      text: "from a pinned image",
    });
    const residue = analyse(withoutDigest(demo)).controls.residue;
    expect(residue.text).toContain("from any image the name resolves to");
    expect(residue.caveats).toContain(
      "image pin for knowledge-mcp: runs whatever image the name resolves to",
    );
  });

  it("is bound into a decision: its configuration is in the binding, and a change to it is a change", () => {
    const input = controlsBindingInput(demo, relay as never, "on-call" as never, registry);
    expect(input.imagePins).toEqual([{ imageDigest: demo.servers[0]!.imageDigest }]);
    const changed = controlsBindingInput(
      withoutDigest(demo),
      relay as never,
      "on-call" as never,
      registry,
    );
    expect(canonicalSha256(changed)).not.toBe(canonicalSha256(input));
  });

  it("is placed in the graph's view model, on its server's group", () => {
    const analysis = analyse(withoutDigest(demo));
    // The graph view is built with the registry; the browser's view model reads only the view.
    const view = graphSectionData(analysis, "whole", registry);
    const rows = controlRows(view);
    expect(rows.filter((r) => r.controlId === "image_pin").map((r) => r.name)).toEqual([
      "Pinned server image",
    ]);
    // Registry order: after the four built-in controls.
    expect(rows.at(-1)?.controlId).toBe("image_pin");
    const layout = layoutGraph(analysis, defaultCollapsed(analysis));
    const placed = placeControls(view, layout, names);
    const marker = placed.markers.find((m) => m.label.startsWith("image_pin"));
    expect(marker).toMatchObject({ label: "image_pin ✕", status: "fails" });
    expect(marker?.tooltip[0]).toBe("Pinned server image — fails (knowledge-mcp)");
  });

  it("leaves the built-in registry's output as it was", () => {
    const builtIn = analyzeReview(demo, toolListsFromReview(demo));
    const withFifth = analyse(demo);
    expect(builtIn.controls).not.toHaveProperty("imagePins");
    expect(withFifth.controls.credentials).toEqual(builtIn.controls.credentials);
    expect(controlsSha256(demo, relay as never, "on-call" as never)).toBe(
      canonicalSha256(controlsBindingInput(demo, relay as never, "on-call" as never)),
    );
  });
});

describe("what the built-in controls declare", () => {
  it("their conditions are decision conditions, offered for every decision", () => {
    const kinds = new Set(DecisionConditionSchema.options.map((o) => o.shape.kind.value as string));
    const demo = createDemoReview();
    const offered = candidateConditions(
      demo,
      "knowledge-mcp",
      "on-call",
      analyzeReview(demo, toolListsFromReview(demo)),
    ).map((c) => c.condition.kind);
    for (const control of CONTROLS)
      for (const condition of control.conditions) {
        expect(kinds.has(condition.kind), condition.kind).toBe(true);
        expect(offered, condition.kind).toContain(condition.kind);
      }
  });

  it("their configuration lists are the review's controls, statements of intent aside", () => {
    const keys = CONTROLS.flatMap((c) => (c.config ? [c.config.key] : [])).sort();
    expect(keys).toEqual(
      Object.keys(ControlsSchema.shape)
        .filter((k) => k !== "statementsOfIntent")
        .sort(),
    );
  });

  it("removing a server drops its configurations and its tools from approvals", () => {
    const demo = createDemoReview();
    const controls = controlsWithoutServer(demo.controls, "knowledge-mcp" as never);
    expect(controls.credentials.some((c) => c.serverId === "knowledge-mcp")).toBe(false);
    expect(controls.egress.some((c) => c.serverId === "knowledge-mcp")).toBe(false);
    expect(controls.approvals.length).toBe(demo.controls.approvals.length);
    expect(
      controls.approvals.flatMap((a) => a.tools).some((t) => t.serverId === "knowledge-mcp"),
    ).toBe(false);
    expect(controls.statementsOfIntent).toEqual(demo.controls.statementsOfIntent);
  });
});
