/**
 * Analysis at scale: a generated review with 50 servers, 5,000 tools, 200 sources and 20 agents,
 * each agent holding 250 tools from several servers. Paths are source × returning tool × sink per
 * agent, so this review has millions of them; the analysis counts them exactly and lists a bounded
 * number (MAX_PATHS_LISTED). Goal: median under 100 ms, wall time, after warm-up; CPU time and the
 * JSON size are reported beside it, and the first analysis of the process (no role inference kept
 * yet) is printed as a note. Run alone with `npx tsx bench/suites/analysis.ts`.
 */
import { availableParallelism, loadavg } from "node:os";
import { analyzeReview } from "@/lib/analysis/analyze";
import { toolListsFromReview } from "@/lib/model/input";
import { ReviewSchema, type Review, type ReviewInput } from "@/lib/review/schema";
import { median, type BenchResult } from "../types";

const SERVERS = 50;
const TOOLS_PER_SERVER = 100;
const SOURCES = 200;
const AGENTS = 20;
const TOOLS_PER_AGENT = 250;
const RUNS = Number(process.env.BENCH_ANALYSIS_RUNS ?? 15);
const WARMUP_RUNS = 3;
const GOAL_MS = 100;

/** A deterministic pseudo-random sequence, so every run benches the same review. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function generateReview(): Review {
  const rand = lcg(42);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sources = Array.from({ length: SOURCES }, (_, i) => ({
    id: `src-${i}`,
    name: `source ${i}`,
    writers:
      i % 3 === 0
        ? { externalAccounts: 1000 + i, selfServiceSignupOpen: i % 2 === 0 }
        : { internalAccounts: 100 + i },
  }));
  const verbs = [
    "search",
    "read",
    "get",
    "list",
    "create",
    "update",
    "delete",
    "deploy",
    "send",
    "share",
  ];
  const servers: ReviewInput["servers"] = [];
  const tools: NonNullable<ReviewInput["tools"]> = [];
  for (let s = 0; s < SERVERS; s++) {
    const declaredTools = Array.from({ length: TOOLS_PER_SERVER }, (_, t) => {
      const verb = verbs[t % verbs.length]!;
      return {
        name: `${verb}_thing_${t}`,
        description: `${verb} things`,
        annotations: t % 4 === 0 ? {} : { readOnlyHint: t % 10 < 4 },
      };
    });
    servers.push({
      id: `srv-${s}`,
      name: `server ${s}`,
      transport: { kind: "manual" },
      declaredTools,
    });
    declaredTools.forEach((t, i) => {
      if (i % 5 === 4) return; // a fifth of the tools are never assessed
      const returning = i % 10 < 4;
      tools.push({
        serverId: `srv-${s}`,
        tool: t.name,
        sourceIds: returning
          ? [pick(sources).id, pick(sources).id, pick(sources).id].filter(
              (v, k, a) => a.indexOf(v) === k,
            )
          : [],
        roles: returning
          ? ["returns_untrusted_text"]
          : i % 10 < 7
            ? ["writes"]
            : ["network_or_shares"],
        rolesConfirmed: i % 3 !== 0,
      });
    });
  }
  const agents = Array.from({ length: AGENTS }, (_, a) => {
    const held = new Set<string>();
    while (held.size < TOOLS_PER_AGENT)
      held.add(`${Math.floor(rand() * SERVERS)}/${Math.floor(rand() * TOOLS_PER_SERVER)}`);
    return {
      id: `agent-${a}`,
      name: `agent ${a}`,
      tools: [...held].map((k) => {
        const [s, t] = k.split("/").map(Number) as [number, number];
        return { serverId: `srv-${s}`, tool: servers[s]!.declaredTools![t]!.name };
      }),
    };
  });
  return ReviewSchema.parse({ schemaVersion: 2, title: "bench", servers, sources, tools, agents });
}

/**
 * Path count of the generated review, pinned: the generator is deterministic (lib/analysis/scale.test.ts
 * recounts it). It rests on the role suggestions of its unconfirmed tools, so it moves when role
 * inference does (613,172 under keyword matching; fewer since a read's or a write's name no longer
 * makes every unannotated tool a returning one and a sink of every kind).
 */
export const GENERATED_PATH_TOTAL = 310_461;

const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;

/**
 * What the route does for the analysis, timed: tool lists from the review, then `analyzeReview`.
 * Serialising the result (the route's JSON response) is timed separately and reported with its size.
 */
export async function run(): Promise<BenchResult[]> {
  const review = generateReview();
  // The first analysis in a process infers every tool's roles; later ones find them kept
  // (lib/roles/suggest.ts, `keptInference`), as the route does on every edit after the first.
  const cold0 = performance.now();
  analyzeReview(review, toolListsFromReview(review));
  const cold = performance.now() - cold0;
  for (let i = 1; i < WARMUP_RUNS; i++) analyzeReview(review, toolListsFromReview(review));
  const times: number[] = [];
  const cpu: number[] = [];
  const totals = new Set<number>();
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const a = analyzeReview(review, toolListsFromReview(review));
    times.push(performance.now() - t0);
    cpu.push(cpuMs(process.cpuUsage(c0)));
    // Only the count is kept: the route drops each result once it is sent, so holding the previous
    // result through the next run would time a heap the route never has.
    totals.add(a.paths.total);
  }
  if (totals.size !== 1)
    throw new Error(`the analysis is not deterministic: path totals ${[...totals].join(", ")}`);
  // One more, serialised after the timed runs, so its garbage does not land in them.
  const last = analyzeReview(review, toolListsFromReview(review));
  const stringify: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    bytes = JSON.stringify(last).length;
    stringify.push(performance.now() - t1);
  }
  const total = last.paths.total;
  const listed = last.paths.listed.length;
  const m = median(times);
  const counted =
    total === GENERATED_PATH_TOTAL
      ? ""
      : ` — expected ${GENERATED_PATH_TOTAL.toLocaleString("en-US")}`;
  console.log(`  first analysis in this process (no inference kept yet): ${cold.toFixed(0)} ms`);
  console.log(
    `  analysis runs: ${times.map((x) => x.toFixed(0)).join(", ")} ms; CPU ${cpu.map((x) => x.toFixed(0)).join(", ")} ms`,
  );
  console.log(
    `  JSON: ${(bytes / 1e6).toFixed(1)} MB, JSON.stringify median ${median(stringify).toFixed(0)} ms (not part of the goal)`,
  );
  return Promise.resolve([
    {
      name: `analyzeReview: ${SERVERS} servers, ${SERVERS * TOOLS_PER_SERVER} tools, ${SOURCES} sources, ${AGENTS} agents (${total.toLocaleString("en-US")} paths counted${counted}, ${listed} listed)`,
      // CPU time and load average are reported because a shared machine inflates wall time.
      figure: `${m.toFixed(1)} ms median of ${RUNS} after ${WARMUP_RUNS} warm-up (min ${Math.min(...times).toFixed(1)} ms; CPU median ${median(cpu).toFixed(1)} ms; JSON ${(bytes / 1e6).toFixed(1)} MB; load average ${loadavg()[0]?.toFixed(1) ?? "?"} on ${availableParallelism()} cores)`,
      goal: `< ${GOAL_MS} ms median`,
      pass: m < GOAL_MS && total === GENERATED_PATH_TOTAL,
    },
  ]);
}

// `npx tsx bench/suites/analysis.ts` runs this suite alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run())
    console.log(`${r.pass ? "PASS" : "MISS"}  ${r.name}: ${r.figure}  (goal: ${r.goal})`);
}
