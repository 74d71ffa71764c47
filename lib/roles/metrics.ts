/**
 * How good role suggestions are against hand labels: per role and for "is a sink" (any of writes,
 * deploys_or_destroys, network_or_shares), true and false positives and negatives, precision and
 * recall, in total and per server. Pure; the corpus test and the bench's `roles` suite share it.
 */
import type { ToolRole } from "@/lib/review/schema";
import { TOOL_ROLES } from "@/lib/review/schema";

/** One tool's suggested and labelled roles. */
export type Judged = {
  server: string;
  tool: string;
  suggested: readonly ToolRole[];
  labelled: readonly ToolRole[];
};

export type Counts = { tp: number; fp: number; fn: number; tn: number };
/** Counts with precision and recall; a ratio with nothing to count (0/0) is 1, since nothing was got wrong. */
export type Score = Counts & { precision: number; recall: number };

/** What the figures are kept for: each role, and "sink" (a tool with any sink role). */
export const MEASURES = ["sink", ...TOOL_ROLES] as const;
export type Measure = (typeof MEASURES)[number];

export const SINK_ROLES: readonly ToolRole[] = [
  "writes",
  "deploys_or_destroys",
  "network_or_shares",
];

export type Mistake = {
  server: string;
  tool: string;
  measure: Measure;
  kind: "false_positive" | "false_negative";
};

export type RoleMetrics = {
  tools: number;
  total: Record<Measure, Score>;
  byServer: { server: string; tools: number; scores: Record<Measure, Score> }[];
  mistakes: Mistake[];
};

const ratio = (num: number, den: number) => (den === 0 ? 1 : num / den);
const score = (c: Counts): Score => ({
  ...c,
  precision: ratio(c.tp, c.tp + c.fp),
  recall: ratio(c.tp, c.tp + c.fn),
});
const empty = (): Record<Measure, Counts> =>
  Object.fromEntries(MEASURES.map((m) => [m, { tp: 0, fp: 0, fn: 0, tn: 0 }])) as Record<
    Measure,
    Counts
  >;
const scored = (counts: Record<Measure, Counts>) =>
  Object.fromEntries(MEASURES.map((m) => [m, score(counts[m])])) as Record<Measure, Score>;

function has(roles: readonly ToolRole[], measure: Measure): boolean {
  return measure === "sink" ? roles.some((r) => SINK_ROLES.includes(r)) : roles.includes(measure);
}

/** Scores `judged` per measure, in total and per server (servers in first-seen order). */
export function measureRoles(
  judged: readonly Judged[],
  measures: readonly Measure[] = MEASURES,
): RoleMetrics {
  const total = empty();
  const perServer = new Map<string, { tools: number; counts: Record<Measure, Counts> }>();
  const mistakes: Mistake[] = [];
  for (const j of judged) {
    let server = perServer.get(j.server);
    if (!server) perServer.set(j.server, (server = { tools: 0, counts: empty() }));
    server.tools++;
    for (const measure of measures) {
      const s = has(j.suggested, measure);
      const l = has(j.labelled, measure);
      const cell = s && l ? "tp" : s ? "fp" : l ? "fn" : "tn";
      total[measure][cell]++;
      server.counts[measure][cell]++;
      if (cell === "fp" || cell === "fn")
        mistakes.push({
          server: j.server,
          tool: j.tool,
          measure,
          kind: cell === "fp" ? "false_positive" : "false_negative",
        });
    }
  }
  return {
    tools: judged.length,
    total: scored(total),
    byServer: [...perServer].map(([server, s]) => ({
      server,
      tools: s.tools,
      scores: scored(s.counts),
    })),
    mistakes,
  };
}

const pct = (x: number) => x.toFixed(3);

/** A plain-text confusion table: one row per server and measure, then the totals. */
export function confusionTable(
  metrics: RoleMetrics,
  measures: readonly Measure[] = MEASURES,
): string {
  const rows: string[][] = [
    ["server", "tools", "measure", "TP", "FP", "FN", "TN", "precision", "recall"],
  ];
  const row = (server: string, tools: number, m: Measure, s: Score) => [
    server,
    String(tools),
    m,
    String(s.tp),
    String(s.fp),
    String(s.fn),
    String(s.tn),
    pct(s.precision),
    pct(s.recall),
  ];
  for (const s of metrics.byServer)
    for (const m of measures) rows.push(row(s.server, s.tools, m, s.scores[m]));
  for (const m of measures) rows.push(row("TOTAL", metrics.tools, m, metrics.total[m]));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "),
    )
    .join("\n");
}
