/**
 * Role suggestions against the labelled corpus (tests/corpus): the confusion table per server and
 * measure, then the totals beside the goals of issue 14. Sink precision and recall are for "the
 * tool is a sink" (any of writes, deploys_or_destroys, network_or_shares); reads_private_data is
 * source-driven, so the corpus (which has no sources) measures only its name-driven suggestions and
 * has no goal. tests/corpus/precision.test.ts holds the same goals in CI.
 */
import { confusionTable, measureRoles } from "../../lib/roles/metrics";
import { GOALS, judgeCorpus } from "../../tests/corpus/judge";
import type { BenchResult } from "../types";

const f = (x: number) => x.toFixed(3);

export function run(): Promise<BenchResult[]> {
  const judged = judgeCorpus();
  const metrics = measureRoles(judged);
  console.log(confusionTable(metrics).replace(/^/gm, "  "));
  // Every sink mistake and every missed returning tool; extra returned-text suggestions are the
  // generous side of a recall goal and are only counted.
  const wrong = metrics.mistakes.filter(
    (m) =>
      m.measure === "sink" ||
      (m.measure === "returns_untrusted_text" && m.kind === "false_negative"),
  );
  if (wrong.length > 0) {
    console.log("  sink mistakes and missed returning tools:");
    for (const m of wrong)
      console.log(
        `    ${m.kind === "false_positive" ? "FP" : "FN"} ${m.measure}  ${m.server}/${m.tool}`,
      );
  }
  const { sink, returns_untrusted_text: text, reads_private_data: privateData } = metrics.total;
  const servers = metrics.byServer.length;
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
    {
      name: "roles: returns_untrusted_text recall",
      figure: `${f(text.recall)} (TP ${text.tp}, FN ${text.fn}; precision ${f(text.precision)})`,
      goal: `≥ ${GOALS.returnsUntrustedTextRecall}`,
      pass: text.recall >= GOALS.returnsUntrustedTextRecall,
    },
    {
      name: "roles: reads_private_data from names alone",
      figure: `precision ${f(privateData.precision)} (TP ${privateData.tp}, FP ${privateData.fp}); ${privateData.fn} labelled tools need a confidential source mapped`,
      goal: "reported, no goal (source-driven)",
      pass: true,
    },
  ]);
}
