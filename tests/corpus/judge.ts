import type { ToolRole } from "@/lib/review/schema";
import { measureRoles, type Judged, type RoleMetrics } from "@/lib/roles/metrics";
import { suggestRoles } from "@/lib/roles/suggest";
import { loadCorpus, type CorpusServer } from "./corpus";

/**
 * Every corpus tool's suggested roles beside its hand label. The suggestion sees what a review
 * would have before the reviewer maps sources: the tool as listed (name, description, annotations,
 * input and output schemas) and its server's name.
 */
export function judgeCorpus(corpus: readonly CorpusServer[] = loadCorpus()): Judged[] {
  return corpus.flatMap((server) =>
    server.surface.tools.map((tool) => ({
      server: server.slug,
      tool: tool.name,
      suggested: suggestRoles(
        {
          name: tool.name,
          description: tool.description,
          annotations: tool.annotations,
          inputSchema: tool.inputSchema,
          outputSchema: tool.outputSchema,
        },
        null,
        undefined,
        { serverName: server.slug },
      ).roles.map((r) => r.role),
      labelled: server.labels[tool.name]!.roles,
    })),
  );
}

/**
 * The goals the corpus is held to: a missed sink is the worse error (issue 14), and every role has
 * precision ≥ 0.90 and recall ≥ 0.95 (issue 32, which replaces issue 14's lone recall goal for
 * returned text with this pair).
 */
export const GOALS = {
  sinkPrecision: 0.95,
  sinkRecall: 0.99,
  rolePrecision: 0.9,
  roleRecall: 0.95,
} as const;

/**
 * What the suggestions reached on the 1,797-tool corpus (53 servers) after issue 32 part 3's rules
 * (tests/corpus/README.md, "Seventh round: returned text"), rounded down: no change may fall below
 * these while a goal above is still missed (`npm run bench` prints each role beside its goal, MISS
 * where it is missed). Where a goal is met the test holds the goal or the higher figure reached.
 * The seventh round's rules were written with five of its seven new servers' misses in view (and
 * the earlier servers'); the two held-out servers' figures are in the README.
 * returns_untrusted_text is still below both goals (one-off false suggestions remain, see the
 * README), and network_or_shares below its recall goal.
 */
export const FLOORS: Record<ToolRole, { precision: number; recall: number }> = {
  returns_untrusted_text: { precision: 0.85, recall: 0.93 },
  reads_private_data: { precision: 0.91, recall: 0.95 },
  writes: { precision: 0.96, recall: 0.99 },
  deploys_or_destroys: { precision: 0.9, recall: 0.95 },
  network_or_shares: { precision: 0.94, recall: 0.88 },
};

export function corpusMetrics(): RoleMetrics {
  return measureRoles(judgeCorpus());
}
