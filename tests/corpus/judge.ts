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
 * What the suggestions reached on the 1,920-tool corpus (61 servers) after both seventh-round parts
 * of issue 32 (tests/corpus/README.md, "Network round", "Seventh round: returned text" and "Both
 * seventh-round parts together"), rounded down: no change may fall below these while a goal above is
 * still missed (`npm run bench` prints each role beside its goal, MISS where it is missed). Where a
 * goal is met the test holds the goal or the higher figure reached. returns_untrusted_text is the
 * one role still below both goals; its precision floor is below the sixth pass's 0.82 on 1,682 tools
 * only in name: the fifteen servers added this round bring false suggestions under its rules (plain
 * reads of names: n8n's tags, users and projects, Cloudinary's asset lists), while its figure on the
 * 46 earlier servers rose (0.823 to 0.846).
 */
export const FLOORS: Record<ToolRole, { precision: number; recall: number }> = {
  returns_untrusted_text: { precision: 0.83, recall: 0.92 },
  reads_private_data: { precision: 0.91, recall: 0.95 },
  writes: { precision: 0.97, recall: 0.99 },
  deploys_or_destroys: { precision: 0.91, recall: 0.95 },
  network_or_shares: { precision: 0.95, recall: 0.95 },
};

export function corpusMetrics(): RoleMetrics {
  return measureRoles(judgeCorpus());
}
