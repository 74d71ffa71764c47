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
 * What the suggestions reached on the 1,516-tool corpus (41 servers) when the fifth round of issue
 * 32's rules landed, rounded down: no change may fall below these while a goal above is still
 * missed (`npm run bench` prints each role beside its goal, MISS where it is missed). Where a goal is
 * met (precision of reads_private_data and network_or_shares, both of deploys_or_destroys and
 * writes) the test holds the goal or the higher figure it held before. The fifth round added four
 * servers (cloudflare, digitalocean, twilio-serverless, and coolify held out); their labels lower
 * returns_untrusted_text to 0.711 / 0.905 and reads_private_data recall to 0.927 on the whole corpus,
 * while on the first 37 servers those figures are unchanged (0.823 / 0.913, 0.906 / 0.925): the floors
 * of those two roles follow the larger corpus, not a change of rule (see tests/corpus/README.md,
 * "Fifth round: deploys and sharing").
 */
export const FLOORS: Record<ToolRole, { precision: number; recall: number }> = {
  returns_untrusted_text: { precision: 0.71, recall: 0.9 },
  reads_private_data: { precision: 0.9, recall: 0.92 },
  writes: { precision: 0.95, recall: 0.99 },
  deploys_or_destroys: { precision: 0.9, recall: 0.95 },
  network_or_shares: { precision: 0.9, recall: 0.88 },
};

export function corpusMetrics(): RoleMetrics {
  return measureRoles(judgeCorpus());
}
