/**
 * Role suggestions against the labelled corpus (tests/corpus): the confusion table per server and
 * measure, then the totals beside the goals of issue 14. Sink precision and recall are for "the
 * tool is a sink" (any of writes, deploys_or_destroys, network_or_shares); then each of the five
 * roles beside issue 32's goals (precision ≥ 0.90, recall ≥ 0.95). tests/corpus/precision.test.ts
 * holds the sink goals in CI, and each role to its goal or to the figures it reached.
 */
import { confusionTable, measureRoles } from "../../lib/roles/metrics";
import { GOALS, judgeCorpus } from "../../tests/corpus/judge";
import { TOOL_ROLES } from "../../lib/review/schema";
import type { BenchResult } from "../types";

const f = (x: number) => x.toFixed(3);

export function run(): Promise<BenchResult[]> {
  const judged = judgeCorpus();
  const metrics = measureRoles(judged);
  console.log(confusionTable(metrics).replace(/^/gm, "  "));
  // Every sink mistake; the other roles' mistakes are counted in the table above.
  const wrong = metrics.mistakes.filter((m) => m.measure === "sink");
  if (wrong.length > 0) {
    console.log("  sink mistakes:");
    for (const m of wrong)
      console.log(`    ${m.kind === "false_positive" ? "FP" : "FN"} sink  ${m.server}/${m.tool}`);
  }
  const { sink } = metrics.total;
  const servers = metrics.byServer.length;
  // Issue 32: every role beside its goal; a miss reads MISS (the goals are never lowered here).
  const perRole = TOOL_ROLES.flatMap((role): BenchResult[] => {
    const s = metrics.total[role];
    return [
      {
        name: `roles: ${role} precision`,
        figure: `${f(s.precision)} (TP ${s.tp}, FP ${s.fp})`,
        goal: `≥ ${GOALS.rolePrecision}`,
        pass: s.precision >= GOALS.rolePrecision,
      },
      {
        name: `roles: ${role} recall`,
        figure: `${f(s.recall)} (TP ${s.tp}, FN ${s.fn})`,
        goal: `≥ ${GOALS.roleRecall}`,
        pass: s.recall >= GOALS.roleRecall,
      },
    ];
  });
  return Promise.resolve([
    {
      name: `roles: sink precision (${metrics.tools} tools, ${servers} servers)`,
      figure: `${f(sink.precision)} (TP ${sink.tp}, FP ${sink.fp})`,
      goal: `≥ ${GOALS.sinkPrecision}`,
      pass: sink.precision >= GOALS.sinkPrecision,
    },
    {
      name: "roles: sink recall",
      figure: `${f(sink.recall)} (TP ${sink.tp}, FN ${sink.fn})`,
      goal: `≥ ${GOALS.sinkRecall}`,
      pass: sink.recall >= GOALS.sinkRecall,
    },
    ...perRole,
  ]);
}
