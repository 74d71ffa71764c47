/**
 * The gate's cost per tools/call: the same knowledge-mcp server reached directly over stdio and
 * through `relay-review gate` over stdio, both warm, calls interleaved one for one so load on
 * the machine hits both alike. Figure: median of the paired differences (gate − direct).
 * Goal: under 2 ms on loopback.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import { median, type BenchResult } from "../types";

const CALLS = 500;
const WARMUP = 50;
const GOAL_MS = 2;

async function connect(args: string[], root: string): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args,
      cwd: root,
      env: getDefaultEnvironment(),
      stderr: "ignore",
    }),
    { timeout: 120_000 },
  );
  return client;
}

export async function run(): Promise<BenchResult[]> {
  const { BIN, KNOWLEDGE_ARGS, ROOT, inspectKnowledge, signedDocsRecord } =
    await import("@/tests/gate/fixtures");
  const signed = signedDocsRecord(await inspectKnowledge());
  const [direct, gated] = await Promise.all([
    connect(KNOWLEDGE_ARGS, ROOT),
    connect(
      [
        BIN,
        "gate",
        "--record",
        signed.recordPath,
        "--public-key",
        signed.publicKeyPath,
        "--",
        "node",
        ...KNOWLEDGE_ARGS,
      ],
      ROOT,
    ),
  ]);
  const call = async (c: Client) => {
    const t = performance.now();
    await c.callTool({ name: "knowledge_search", arguments: { query: "refund", limit: 2 } });
    return performance.now() - t;
  };
  try {
    for (let i = 0; i < WARMUP; i++) {
      await call(direct);
      await call(gated);
    }
    const d: number[] = [];
    const g: number[] = [];
    const diff: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      // alternate which goes first, so neither always runs on a just-woken event loop
      let a: number;
      let b: number;
      if (i % 2) {
        a = await call(direct);
        b = await call(gated);
      } else {
        b = await call(gated);
        a = await call(direct);
      }
      d.push(a);
      g.push(b);
      diff.push(b - a);
    }
    const overhead = median(diff);
    return [
      {
        name: `gate overhead per tools/call (${CALLS} interleaved calls, stdio, warm)`,
        figure: `${overhead.toFixed(3)} ms median (direct ${median(d).toFixed(3)} ms, through the gate ${median(g).toFixed(3)} ms)`,
        goal: `< ${GOAL_MS} ms`,
        pass: overhead < GOAL_MS,
      },
    ];
  } finally {
    await Promise.all([direct.close(), gated.close()]);
  }
}
