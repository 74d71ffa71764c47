/**
 * Role suggestions measured against the hand labels of the corpus: real servers' surfaces. A missed
 * sink is the worse error (recall 0.99); a flood of false sinks is the other failure (precision
 * 0.95), the goals of issue 14. Sink figures are for "the tool is a sink" (any of writes,
 * deploys_or_destroys, network_or_shares). Each role is held to issue 32's goals where it meets
 * them and to the figures it reached (FLOORS) where it does not yet; the bench prints the misses.
 */
import { describe, expect, it } from "vitest";
import { confusionTable, measureRoles, MEASURES, type Judged } from "@/lib/roles/metrics";
import { newRoleCache, suggestRoles } from "@/lib/roles/suggest";
import { loadCorpus } from "./corpus";
import { TOOL_ROLES } from "@/lib/review/schema";
import { FLOORS, GOALS, judgeCorpus } from "./judge";

const judged = judgeCorpus();
const metrics = measureRoles(judged);
const missed = (measure: string) =>
  metrics.mistakes
    .filter((m) => m.measure === measure && m.kind === "false_negative")
    .map((m) => `${m.server}/${m.tool}`);
const extra = (measure: string) =>
  metrics.mistakes
    .filter((m) => m.measure === measure && m.kind === "false_positive")
    .map((m) => `${m.server}/${m.tool}`);

describe("role suggestions on the labelled corpus", () => {
  it("are measured over every corpus tool, per server and per role", () => {
    console.log(confusionTable(metrics));
    expect(metrics.tools).toBe(judged.length);
    expect(metrics.tools).toBeGreaterThanOrEqual(250);
    expect(metrics.byServer.length).toBeGreaterThanOrEqual(8);
    for (const m of MEASURES) {
      const s = metrics.total[m];
      expect(s.tp + s.fp + s.fn + s.tn).toBe(metrics.tools);
    }
  });

  it("an analysis, which shares inferences through its cache, suggests exactly what each tool alone gets", () => {
    const cache = newRoleCache();
    for (const server of loadCorpus()) {
      for (const t of server.surface.tools) {
        const tool = {
          name: t.name,
          description: t.description,
          annotations: t.annotations,
          inputSchema: t.inputSchema,
          outputSchema: t.outputSchema,
        };
        const context = { serverName: server.slug };
        expect(suggestRoles(tool, null, cache, context), `${server.slug}/${t.name}`).toEqual(
          suggestRoles(tool, null, undefined, context),
        );
      }
    }
  });

  it(`miss almost no sink: recall ≥ ${GOALS.sinkRecall}`, () => {
    expect(
      metrics.total.sink.recall,
      `missed sinks: ${missed("sink").join(", ")}`,
    ).toBeGreaterThanOrEqual(GOALS.sinkRecall);
  });

  it(`flood no reviewer with false sinks: precision ≥ ${GOALS.sinkPrecision}`, () => {
    expect(
      metrics.total.sink.precision,
      `false sinks: ${extra("sink").join(", ")}`,
    ).toBeGreaterThanOrEqual(GOALS.sinkPrecision);
  });

  describe.each(TOOL_ROLES)("%s", (role) => {
    const floor = FLOORS[role];
    const goal = `goal: precision ≥ ${GOALS.rolePrecision}, recall ≥ ${GOALS.roleRecall}`;
    it(`holds its precision (${goal}; never below ${floor.precision})`, () => {
      const s = metrics.total[role];
      expect(
        s.precision,
        `false ${role}: ${extra(role).slice(0, 40).join(", ")}`,
      ).toBeGreaterThanOrEqual(Math.min(GOALS.rolePrecision, floor.precision));
    });
    it(`holds its recall (${goal}; never below ${floor.recall})`, () => {
      const s = metrics.total[role];
      expect(
        s.recall,
        `missed ${role}: ${missed(role).slice(0, 40).join(", ")}`,
      ).toBeGreaterThanOrEqual(Math.min(GOALS.roleRecall, floor.recall));
    });
  });
});

describe("the metric", () => {
  const j = (
    tool: string,
    suggested: Judged["suggested"],
    labelled: Judged["labelled"],
    server = "s",
  ): Judged => ({ server, tool, suggested, labelled });

  it("counts a tool as a sink when it has any sink role, whichever", () => {
    const m = measureRoles([
      j("a", ["writes"], ["deploys_or_destroys", "writes"]),
      j("b", ["network_or_shares"], []),
      j("c", [], ["writes"]),
      j("d", ["returns_untrusted_text"], []),
    ]);
    expect(m.total.sink).toEqual({ tp: 1, fp: 1, fn: 1, tn: 1, precision: 0.5, recall: 0.5 });
    expect(m.total.writes).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(m.total.deploys_or_destroys).toMatchObject({ tp: 0, fn: 1 });
    expect(m.mistakes).toContainEqual({
      server: "s",
      tool: "c",
      measure: "sink",
      kind: "false_negative",
    });
  });

  it("keeps servers apart, and a ratio of nothing is 1", () => {
    const m = measureRoles([j("a", [], [], "x"), j("b", ["writes"], ["writes"], "y")]);
    expect(m.byServer.map((s) => [s.server, s.tools, s.scores.sink.tp])).toEqual([
      ["x", 1, 0],
      ["y", 1, 1],
    ]);
    expect(m.byServer[0]?.scores.sink).toMatchObject({ precision: 1, recall: 1 });
    expect(confusionTable(m).split("\n")[0]).toMatch(
      /server\s+tools\s+measure\s+TP\s+FP\s+FN\s+TN\s+precision\s+recall/,
    );
  });
});
