import { measureRoles, type Judged, type RoleMetrics } from "@/lib/roles/metrics";
import { suggestRoles } from "@/lib/roles/suggest";
import { loadCorpus, type CorpusServer } from "./corpus";

/**
 * Every corpus tool's suggested roles beside its hand label. The suggestion sees what a review
 * would have before the reviewer maps sources: the tool as listed and its server's name, so
 * `reads_private_data` is suggested only where the name says so (it is otherwise source-driven).
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
        },
        null,
        undefined,
        { serverName: server.slug },
      ).roles.map((r) => r.role),
      labelled: server.labels[tool.name]!.roles,
    })),
  );
}

/** The goals the corpus is held to (issue 14): a missed sink is the worse error. */
export const GOALS = {
  sinkPrecision: 0.95,
  sinkRecall: 0.99,
  returnsUntrustedTextRecall: 0.99,
} as const;

export function corpusMetrics(): RoleMetrics {
  return measureRoles(judgeCorpus());
}
