/**
 * Surface benchmark, measured side by side in one run:
 *  - our CLI `inspect --json` over stdio vs a bare MCP SDK client script doing the same listing
 *    with the same declared capabilities and settle rule (tests/fixtures/servers/bare-sdk-client.mjs),
 *    on server-everything and on a 10,000-tool server (goal: ≤ 1.15× the bare client's median);
 *  - the same over the 2026-07-28 era: `inspect --era 2026` vs a bare v2 client pinned to that
 *    era (tests/fixtures/servers/bare-v2-client.mjs), on the same 10,000 tools served on the v2
 *    line (tests/fixtures/servers/many-tools-v2.ts); same goal;
 *  - the fingerprint of 10,000 tools (goal: < 100 ms, median).
 * Runs are interleaved (ours, bare, ours, …) so load drift hits both sides alike.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { median, type BenchResult } from "../types";
import { fingerprintSurface } from "@/lib/surface/fingerprint";
import type { Surface, ToolItem } from "@/lib/surface/types";
import { manyTools } from "../../tests/fixtures/servers/many-tools-listing";

const exec = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
/** Interleaved pairs per server: with 5, the 10,000-tool ratio swung 0.97–1.14× from run to run on a 2-core host. */
const RUNS = Number(process.env.BENCH_SURFACE_RUNS ?? 9);

async function wall(args: string[]): Promise<number> {
  const t0 = performance.now();
  await exec(process.execPath, args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
  return performance.now() - t0;
}

/** The 2025 era through the v1 SDK client, or the 2026-07-28 era through the v2 client, both sides. */
type Era = "2025" | "2026";
const BARE_CLIENT: Record<Era, string> = {
  "2025": "tests/fixtures/servers/bare-sdk-client.mjs",
  "2026": "tests/fixtures/servers/bare-v2-client.mjs",
};

async function compare(label: string, server: string[], era: Era = "2025"): Promise<BenchResult[]> {
  const ours: number[] = [];
  const bare: number[] = [];
  const oursArgs = [
    path.join(ROOT, "bin/relay-review.mjs"),
    "inspect",
    "--json",
    ...(era === "2026" ? ["--era", "2026"] : []),
    "--",
    ...server,
  ];
  const bareArgs = [path.join(ROOT, BARE_CLIENT[era]), "--", ...server];
  await wall(oursArgs); // warm tsx's transform cache and the OS file cache, for both sides
  await wall(bareArgs);
  for (let i = 0; i < RUNS; i++) {
    ours.push(await wall(oursArgs));
    bare.push(await wall(bareArgs));
  }
  const o = median(ours);
  const b = median(bare);
  const ratio = o / b;
  console.log(
    `  ${label}: ours ${ours.map((x) => x.toFixed(0)).join(", ")} ms; bare ${bare.map((x) => x.toFixed(0)).join(", ")} ms`,
  );
  return [
    {
      name: `inspect over stdio, ${label}`,
      figure: `median ${o.toFixed(0)} ms vs bare ${era === "2026" ? "v2" : "SDK"} client ${b.toFixed(0)} ms = ${ratio.toFixed(2)}×`,
      goal: "≤ 1.15× the bare client's median",
      pass: ratio <= 1.15,
    },
  ];
}

function fingerprintBench(): BenchResult {
  const tools: ToolItem[] = manyTools(10_000);
  const surface: Surface = {
    instructions: null,
    tools,
    resources: [],
    resourceTemplates: [],
    prompts: [],
    rejects: [],
  };
  for (let i = 0; i < 3; i++) fingerprintSurface(surface); // JIT warm-up
  const times: number[] = [];
  for (let i = 0; i < 9; i++) {
    const t0 = performance.now();
    fingerprintSurface(surface);
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`  fingerprint 10,000 tools: ${times.map((x) => x.toFixed(1)).join(", ")} ms`);
  return {
    name: "fingerprint of 10,000 tools",
    figure: `median ${m.toFixed(1)} ms (min ${Math.min(...times).toFixed(1)} ms)`,
    goal: "< 100 ms",
    pass: m < 100,
  };
}

export async function run(): Promise<BenchResult[]> {
  // Measure the CLI as installed: bin/relay-review.mjs runs the sources through tsx when they are
  // newer than the bundle npm install built, which an edit since would otherwise leave us timing.
  await exec(process.execPath, [path.join(ROOT, "scripts/build-cli.mjs")], { cwd: ROOT });
  const everything = [
    "node",
    path.join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js"),
    "stdio",
  ];
  const many = [
    "node",
    "--import",
    "tsx",
    path.join(ROOT, "tests/fixtures/servers/hostile.ts"),
    "many-tools",
    "10000",
  ];
  // The same tools on the v2 line, which speaks both eras: inspected over 2026-07-28 against a
  // bare v2 client pinned to it (issue 30).
  const manyV2 = [
    "node",
    "--import",
    "tsx",
    path.join(ROOT, "tests/fixtures/servers/many-tools-v2.ts"),
    "10000",
  ];
  return [
    fingerprintBench(),
    ...(await compare("server-everything", everything)),
    ...(await compare("10,000-tool server", many)),
    ...(await compare("10,000-tool v2 server, 2026-07-28 era", manyV2, "2026")),
  ];
}
