/**
 * Role suggestion figures on the labelled corpus, split the way the ninth round measures a rule
 * (tests/corpus/README.md, "Ninth round: evidence from the server's other tools"): the 67 servers the
 * earlier rules were written from ("develop"), the 18 eighth-round servers held out from them
 * ("held-out"), the six eleventh-round servers ("held-out-11", README "Eleventh round": held out from
 * the round's precision rules, then read for its recall rules, so no longer held out), the six
 * twelfth-round servers ("held-out-12", README "Twelfth round"), the 91 before them ("first 91"),
 * the six thirteenth-round servers ("held-out-13", README "Thirteenth round"), the 97 before them
 * ("first 97") and all 103 ("whole"). Precision / recall and counts per role, with MISS where a figure is below what
 * tests/corpus/precision.test.ts holds (the lower of goal and `FLOORS`, whole corpus only).
 *
 * Run: `npx tsx scripts/measure-roles-split.ts` (add `--mistakes held-out` to list one subset's
 * returned-text mistakes; look at held-out mistakes only once a rule is fixed).
 */
import { TOOL_ROLES } from "@/lib/review/schema";
import { measureRoles, type Judged, type Measure } from "@/lib/roles/metrics";
import { FLOORS, GOALS, judgeCorpus } from "@/tests/corpus/judge";
import { loadCorpus } from "@/tests/corpus/corpus";

/** The eighth round's held-out servers (README: "Eighth round together"). */
export const HELD_OUT = new Set([
  "azure-devops",
  "backlog",
  "argocd",
  "rollbar",
  "railway",
  "qase",
  "telegram",
  "salesforce",
  "strapi",
  "contentful",
  "attio",
  "figma",
  "shopify",
  "headless-commerce",
  "slashvibe",
  "leetcode",
  "pinecone",
  "hostinger-dns",
]);

/**
 * The eleventh round's held-out servers, labelled after every earlier rule was written; the round's
 * recall rules were written from their mistakes (README, "Recall rules (not independent)").
 */
export const HELD_OUT_ELEVENTH = new Set([
  "jenkins",
  "grafana",
  "wordpress",
  "gcp-observability",
  "gcp-mcp",
  "gcloud",
]);

/**
 * The twelfth round's held-out servers (README, "Twelfth round: held-out servers, set A" and "set B"),
 * labelled blind after the eleventh round; the twelfth round's rules were written before they were read.
 */
export const HELD_OUT_TWELFTH = new Set([
  "todoist-doist",
  "dynatrace-managed",
  "line-bot",
  "azure-devops-official",
  "mcp-jira-cloud",
  "miro",
]);

/**
 * The thirteenth round's held-out servers (README, "Thirteenth round: held-out servers, set A" and
 * "set B"), labelled blind after the twelfth round.
 */
export const HELD_OUT_THIRTEENTH = new Set([
  "heroku",
  "mapbox",
  "lark",
  "apify",
  "obsidian",
  "tavily",
]);

const corpus = loadCorpus();
const missing = [
  ...HELD_OUT,
  ...HELD_OUT_ELEVENTH,
  ...HELD_OUT_TWELFTH,
  ...HELD_OUT_THIRTEENTH,
].filter((slug) => !corpus.some((s) => s.slug === slug));
if (missing.length > 0)
  throw new Error(`held-out servers not in the corpus: ${missing.join(", ")}`);
const judged = judgeCorpus(corpus);
const subsets: [string, Judged[]][] = [
  [
    "develop",
    judged.filter(
      (j) =>
        !HELD_OUT.has(j.server) &&
        !HELD_OUT_ELEVENTH.has(j.server) &&
        !HELD_OUT_TWELFTH.has(j.server) &&
        !HELD_OUT_THIRTEENTH.has(j.server),
    ),
  ],
  ["held-out", judged.filter((j) => HELD_OUT.has(j.server))],
  ["held-out-11", judged.filter((j) => HELD_OUT_ELEVENTH.has(j.server))],
  ["held-out-12", judged.filter((j) => HELD_OUT_TWELFTH.has(j.server))],
  [
    "first 91",
    judged.filter((j) => !HELD_OUT_TWELFTH.has(j.server) && !HELD_OUT_THIRTEENTH.has(j.server)),
  ],
  ["held-out-13", judged.filter((j) => HELD_OUT_THIRTEENTH.has(j.server))],
  ["first 97", judged.filter((j) => !HELD_OUT_THIRTEENTH.has(j.server))],
  ["whole", judged],
];
const measures: Measure[] = ["sink", ...TOOL_ROLES];
const f = (x: number) => x.toFixed(3);
for (const [label, subset] of subsets) {
  const m = measureRoles(subset);
  const servers = new Set(subset.map((j) => j.server)).size;
  console.log(`\n${label}: ${servers} servers, ${m.tools} tools`);
  for (const measure of measures) {
    const s = m.total[measure];
    const floor = measure === "sink" ? undefined : FLOORS[measure];
    const miss =
      label === "whole" &&
      floor &&
      (s.precision < Math.min(GOALS.rolePrecision, floor.precision) ||
        s.recall < Math.min(GOALS.roleRecall, floor.recall))
        ? "  MISS (below floor)"
        : "";
    console.log(
      `  ${measure.padEnd(24)} ${f(s.precision)} / ${f(s.recall)}  TP ${s.tp} FP ${s.fp} FN ${s.fn}${miss}`,
    );
  }
}
const which = process.argv.indexOf("--mistakes");
if (which >= 0) {
  const label = process.argv[which + 1];
  const subset = subsets.find(([l]) => l === label)?.[1] ?? [];
  for (const mistake of measureRoles(subset, ["returns_untrusted_text"]).mistakes)
    console.log(
      `${mistake.kind === "false_positive" ? "FP" : "FN"} ${mistake.server} ${mistake.tool}`,
    );
}
