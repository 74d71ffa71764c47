/**
 * Proves a change to the detector's speed changed no verdict: runs `detectDetailed` on every text
 * the repository and the shared data hold (held-out and training sides of InjecAgent and BIPIA, the
 * relay dev sets, tests/corpus tool descriptions, every string literal of the detection tests, the
 * bench's ticket results), under several options, and writes one line per input (its key and the
 * whole result: flagged, score, reasons, where, excerpt) to FILE, or compares with FILE.
 *
 *   npx tsx scripts/detector/verdicts.ts --write /tmp/verdicts-before.jsonl   # on the old code
 *   npx tsx scripts/detector/verdicts.ts --check /tmp/verdicts-before.jsonl   # on the new code
 *
 * (`--shared DIR` when ../shared/detection is not beside the checkout.) Texts are keyed by where
 * they come from and their hash, so trees whose tests differ compare on the texts both hold.
 *
 * The snapshot is not committed: it depends on ../shared/detection (not in the repository) and on
 * the shipped model, and a change meant to move verdicts would have to rewrite it.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import {
  bipiaAttacks,
  bipiaContexts,
  injecCases,
  insertAttack,
} from "../../lib/detection/benchmarks";
import { detectDetailed, type DetectOptions } from "../../lib/detection/detect";
import { findRoot, heldOutSlices } from "../../lib/detection/eval";
import { ticketResult } from "../../bench/suites/detect";

const args = process.argv.slice(2);
const root = findRoot();
// `--shared DIR`: the shared data elsewhere (a checkout of the old code in another folder).
const sharedAt = args.indexOf("--shared");
const shared =
  sharedAt >= 0 ? path.resolve(args[sharedAt + 1]!) : path.resolve(root, "../shared/detection");

type Input = { key: string; text: string };
const inputs: Input[] = [];
/** Keyed by where the text comes from and its hash, so snapshots from trees with other tests still line up. */
const add = (key: string, texts: Iterable<string>) => {
  for (const text of texts)
    inputs.push({
      key: `${key}#${createHash("sha256").update(text).digest("hex").slice(0, 16)}`,
      text,
    });
};

for (const slice of heldOutSlices(root)) add(`heldout:${slice.name}`, slice.texts);

const relayDev = path.join(root, "tests/detection/relay-dev");
for (const f of readdirSync(relayDev)
  .filter((f) => f.endsWith(".jsonl"))
  .sort())
  add(
    `relay-dev:${f}`,
    readFileSync(path.join(relayDev, f), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { text: string }).text),
  );

if (existsSync(shared)) {
  for (const setting of ["base", "enhanced"] as const)
    add(
      `shared:injecagent ${setting}`,
      injecCases(shared, setting).map((c) =>
        c["Tool Response"].replace("<Attacker Instruction>", c["Attacker Instruction"]),
      ),
    );
  for (const split of ["train", "test"] as const) {
    for (const task of ["email", "table", "code"] as const) {
      if (!existsSync(path.join(shared, `bipia/benchmark/${task}/${split}.jsonl`))) continue;
      const contexts = bipiaContexts(shared, task, split);
      add(
        `shared:bipia ${task} ${split}`,
        contexts.map((c) => c.text),
      );
      // Each attack once, planted in a context chosen by its index (all pairs are the held-out slices).
      const attacks = bipiaAttacks(shared, task === "code" ? "code" : "text", split);
      const where = ["start", "middle", "end"] as const;
      add(
        `shared:bipia ${task} ${split} attacked`,
        attacks.map((a, i) => insertAttack(contexts[i % contexts.length]!.text, a, where[i % 3]!)),
      );
    }
  }
} else console.warn(`no ${shared}: the shared data is not compared`);

// Every string literal of the detection tests (the texts that must and must not fire).
const literals: string[] = [];
for (const dir of ["lib/detection", "tests/detection", "tests/gate"]) {
  for (const f of readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith(".test.ts"))
    .sort()) {
    const src = ts.createSourceFile(
      f,
      readFileSync(path.join(root, dir, f), "utf8"),
      ts.ScriptTarget.Latest,
    );
    const walk = (n: ts.Node) => {
      if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && n.text.length >= 12)
        literals.push(n.text);
      ts.forEachChild(n, walk);
    };
    walk(src);
  }
}
add("test literals", literals);

add(
  "bench tickets",
  [1024, 10 * 1024, 100 * 1024, 1024 * 1024].map((n) => ticketResult(n)),
);

const TOOLS = ["search_tickets", "send_email", "update_ticket", "transfer_funds", "delete_file"];
const optionSets: [string, DetectOptions][] = [
  ["default", {}],
  ["tools+egress", { tools: TOOLS, admitHost: (h) => h.endsWith("example.com") }],
  ["no-context", { context: false }],
  ["forModel", { forModel: true, tools: TOOLS }],
  ["small-budget", { budget: 2048 }],
];

const [mode, file] = args;
if ((mode !== "--write" && mode !== "--check") || !file)
  throw new Error("usage: verdicts.ts --write FILE | --check FILE [--shared DIR]");

const lines: string[] = [];
const started = performance.now();
for (const { key, text } of inputs)
  for (const [name, options] of optionSets)
    lines.push(JSON.stringify({ key: `${key} ${name}`, result: detectDetailed(text, options) }));
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const flagged = lines.filter((l) => l.includes('"flagged":true')).length;
console.log(
  `${inputs.length} texts × ${optionSets.length} option sets = ${lines.length} verdicts (${flagged} flagged) in ${seconds} s`,
);

if (mode === "--write") {
  writeFileSync(file, `${lines.join("\n")}\n`);
  console.log(`wrote ${file}`);
} else {
  const before = new Map<string, string>();
  for (const l of readFileSync(file, "utf8").split("\n").filter(Boolean))
    before.set((JSON.parse(l) as { key: string }).key, l);
  let compared = 0;
  const differ: [string, string][] = [];
  const now = new Set<string>();
  for (const l of lines) {
    const key = (JSON.parse(l) as { key: string }).key;
    now.add(key);
    const b = before.get(key);
    if (b === undefined) continue;
    compared++;
    if (b !== l) differ.push([b, l]);
  }
  for (const [b, l] of differ.slice(0, 10))
    console.log(`- ${b.slice(0, 400)}\n+ ${l.slice(0, 400)}`);
  const onlyBefore = [...before.keys()].filter((k) => !now.has(k)).length;
  const onlyNow = lines.length - compared;
  console.log(
    `${differ.length === 0 ? "identical" : `${differ.length} differ`}: ${compared} verdicts compared` +
      (onlyBefore + onlyNow > 0
        ? ` (${onlyBefore} only in ${file}, ${onlyNow} only in this run: texts added or removed)`
        : ""),
  );
  process.exitCode = differ.length === 0 && compared > 0 ? 0 : 1;
}
