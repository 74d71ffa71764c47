/**
 * Detection (issue 31): the held-out figures `relay-review detect eval` prints, each beside its goal,
 * and the work the gate would add per result: the detector's median time on a 10 kB tool result
 * (goal ≤ 2 ms), the same for 10 kB of relay prose (goal ≤ 2 ms), and on a 1 MB one (bounded by the character budget: goal ≤ 25 ms).
 */
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectDetailed, shippedModel } from "../../lib/detection/detect";
import { findRoot, formatResult, heldOutSlices, measure } from "../../lib/detection/eval";
import { median, type BenchResult } from "../types";

/** A tool result like a ticket search: JSON records with prose bodies, `bytes` long. */
export function ticketResult(bytes: number): string {
  const bodies = [
    "Customer reports that the export to CSV fails with a timeout after about 30 seconds on large projects.",
    "Please reset the SSO configuration for the staging tenant; the certificate expired last night.",
    "The invoice for March shows the wrong VAT rate. Could you send a corrected copy to billing?",
    "Steps: open Settings, choose Integrations, click Reconnect. The page reloads but nothing changes.",
  ];
  const records: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = JSON.stringify({
      id: `T-${10_000 + i}`,
      status: i % 3 ? "open" : "pending",
      body: bodies[i % bodies.length],
    });
    records.push(r);
    size += r.length + 1;
  }
  return `[${records.join(",")}]`.slice(0, bytes);
}

/**
 * A tool result of relay prose: the repository's hard-negative relay texts and planted tickets
 * (tests/detection/relay-dev) as JSON records, `bytes` long. Unlike the ticket list, few of its
 * sentences repeat and many name an AI or are in another language, so every window is scored and
 * the rules beyond English run: the costliest ordinary text the gate sees.
 */
export function relayProseResult(bytes: number, root = findRoot()): string {
  const dir = path.join(root, "tests/detection/relay-dev");
  const texts = ["hard-negatives.jsonl", "planted.jsonl"].flatMap((file) =>
    readFileSync(path.join(dir, file), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => (JSON.parse(line) as { text: string }).text),
  );
  const records: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = JSON.stringify({ id: `R-${20_000 + i}`, body: texts[i % texts.length] });
    records.push(r);
    size += r.length + 1;
  }
  return `[${records.join(",")}]`.slice(0, bytes);
}

/**
 * Median wall time and median CPU time (this process's user + system) per call. On a shared
 * machine the wall time includes waiting for a core; the CPU time is the work the call adds.
 */
function timeIt(text: string, runs: number): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    detectDetailed(text, { tools: ["search_tickets", "send_email", "update_ticket"] });
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

export function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const model = shippedModel();
  console.log(`  model threshold ${model.threshold}, seed ${String(model.provenance.seed)}`);
  for (const slice of heldOutSlices(findRoot())) {
    const r = measure(slice);
    console.log(`  ${formatResult(r)}`);
    if (r.goal === null) continue;
    results.push({
      name: `detect: ${r.name} (${r.kind === "attack" ? "recall" : "false positives"})`,
      figure: `${r.rate.share.toFixed(3)} (${r.rate.k}/${r.rate.n}, 95 % CI ${r.rate.low.toFixed(3)}–${r.rate.high.toFixed(3)})`,
      goal: r.kind === "attack" ? `≥ ${r.goal}` : `≤ ${r.goal}`,
      pass: r.pass === true,
    });
  }
  const small = ticketResult(10 * 1024);
  const prose = relayProseResult(10 * 1024);
  const large = ticketResult(1024 * 1024);
  timeIt(small, 20); // warm up
  timeIt(prose, 20);
  const tSmall = timeIt(small, 200);
  const tProse = timeIt(prose, 200);
  const tLarge = timeIt(large, 20);
  const load = os.loadavg()[0]!.toFixed(1);
  results.push(
    {
      name: "detect: added per 10 kB tool result (median of 200, wall)",
      figure: `${tSmall.wall.toFixed(2)} ms wall, ${tSmall.cpu.toFixed(2)} ms CPU (load average ${load} on ${os.cpus().length} cores)`,
      goal: "≤ 2 ms",
      pass: tSmall.wall <= 2,
    },
    {
      name: "detect: added per 10 kB of relay prose (median of 200, wall)",
      figure: `${tProse.wall.toFixed(2)} ms wall, ${tProse.cpu.toFixed(2)} ms CPU (load average ${load})`,
      goal: "≤ 2 ms",
      pass: tProse.wall <= 2,
    },
    {
      name: "detect: added per 1 MB tool result (median of 20; 64 KiB read, wall)",
      figure: `${tLarge.wall.toFixed(2)} ms wall, ${tLarge.cpu.toFixed(2)} ms CPU`,
      goal: "≤ 25 ms (bounded by the budget)",
      pass: tLarge.wall <= 25,
    },
  );
  return Promise.resolve(results);
}
