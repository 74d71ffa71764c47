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
 * What the suggestions reached on the 2,371-tool corpus (85 servers) after the eighth round of issue 32
 * (tests/corpus/README.md, the "Eighth round" sections), rounded down: no change may fall below these
 * (`npm run bench` prints each role beside its goal, MISS where it is missed). Where a goal is met the
 * test holds the goal or the higher figure reached. returns_untrusted_text met both goals on the 67
 * servers its eighth-round rules were written from (0.902 / 0.950) and misses both once the eighteen
 * held-out servers of the round are in (0.851 / 0.945): its floor is what the 85 servers reach. The
 * tenth round's rules (README, "Tenth round") took its recall on the 85 servers to 0.962, so its
 * recall floor is raised to 0.96 and the test holds the 0.95 goal; its precision (0.853) keeps the
 * 0.85 floor. The other floors are kept as they were; where the larger corpus sits between a floor
 * and its goal (private-data and sharing precision), the test holds the goal. The eleventh round
 * added six servers labelled after every rule so far (README, "Eleventh round"): on the 91 servers
 * the rules of the tenth round reach 0.827 / 0.944 for returned text, and the eleventh round's
 * rules 0.8597 / 0.944 (0.883 / 0.962 on the first 85), so its floor is that reading, rounded down.
 * The six servers' recall (0.722) kept the whole below the 0.95 goal until the round's recall rules,
 * written from those six and so not independent (README, "Recall rules (not independent)"), took
 * the 91 servers to 0.873 / 0.953: the floor is that reading rounded down, and recall holds its goal.
 * The twelfth round added six more servers labelled blind (README, "Twelfth round"); on them the
 * rules read 0.708 / 0.815 for returned text and 0.786 / 0.550 for sharing, before and after the
 * round's rules written from the 91 (which moved neither). Rules then written from those six's own
 * mistakes (not independent) took the 97 servers to 0.868 / 0.939 for returned text and 0.924 /
 * 0.947 for sharing: those floors are that reading rounded down, below the goals the 91 had met
 * (sharing recall) or nearly met (returned-text recall). The other floors are kept. The thirteenth
 * round added six more servers labelled blind (README, "Thirteenth round"); on them the rules read
 * 0.641 / 0.735 for returned text, 0.875 / 0.778 for deploys and 0.786 / 0.786 for sharing before
 * the round's rules, all written from those six's mistakes (not independent). On the 97 servers
 * before them those rules withdrew one false sink and one false private-data suggestion, and cost one
 * false returned-text suggestion and one private-data miss. On all 103 servers returned text reads
 * 0.860 / 0.934 (precision 0.8598), deploys 0.8998 / 0.960 and sharing 0.917 / 0.939: those floors
 * are that reading rounded down (0.85, 0.89, 0.93), below what the 97 held; the others are kept.
 */
export const FLOORS: Record<ToolRole, { precision: number; recall: number }> = {
  returns_untrusted_text: { precision: 0.85, recall: 0.93 },
  reads_private_data: { precision: 0.91, recall: 0.95 },
  writes: { precision: 0.97, recall: 0.99 },
  deploys_or_destroys: { precision: 0.89, recall: 0.95 },
  network_or_shares: { precision: 0.95, recall: 0.93 },
};

export function corpusMetrics(): RoleMetrics {
  return measureRoles(judgeCorpus());
}
