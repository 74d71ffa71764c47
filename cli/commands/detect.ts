/**
 * `relay-review detect`: scan text for payloads aimed at a model (issue 31 item 5).
 *
 *   detect [--json] [--tools a,b] [--for-model] FILE|-
 *                                            one text: a verdict (exit 0 clean, 1 flagged); --for-model:
 *                                            the text is written for the model (a tool's description)
 *   detect --jsonl FILE|-                    one JSON object per line ({"text", "tools"?}): one verdict per line, in order
 *   detect eval                              recall and false positives on the held-out data, each beside its goal
 *
 * A verdict never decides anything: detection is not a control. Exit 1 on a flag lets a script
 * count; `eval` exits 1 when a goal is missed (printed as MISS, never a lowered goal).
 */
import { readFileSync } from "node:fs";
import { parseCommandLine } from "@/cli/shared/args";
import { safeText } from "@/cli/shared/render";
import { detect, detectDetailed, shippedModel } from "@/lib/detection/detect";
import { findRoot, formatResult, heldOutSlices, measure } from "@/lib/detection/eval";

const USAGE = [
  "usage: relay-review detect [--json] [--tools NAME,NAME…] [--for-model] FILE|-",
  "       (--for-model: the text is written for the model on purpose, e.g. a tool's description)",
  '       relay-review detect --jsonl FILE|-     (one {"text": …, "tools": [...]} per line; one verdict per line)',
  "       relay-review detect eval               (recall and false positives on the held-out data)",
].join("\n");

const err = (text: string) => process.stderr.write(`relay-review detect: ${safeText(text)}\n`);

function readInput(file: string): string {
  return readFileSync(file === "-" ? 0 : file, "utf8");
}

function runEval(): number {
  const root = findRoot();
  const model = shippedModel();
  process.stdout.write(
    `detector model: threshold ${model.threshold} (${model.forModelThreshold} for text written for the model), trained with seed ${String(model.provenance.seed)} on ${String(model.provenance.examples)} windows; held-out data in tests/detection/data\n`,
  );
  let missed = false;
  for (const slice of heldOutSlices(root)) {
    const result = measure(slice);
    if (result.pass === false) missed = true;
    process.stdout.write(`${formatResult(result)}\n`);
  }
  return missed ? 1 : 0;
}

export async function run(argv: string[]): Promise<number> {
  const line = parseCommandLine(argv, {
    values: ["--jsonl", "--tools"],
    booleans: ["--json", "--for-model"],
    positionals: true,
  });
  if (line.isHelp) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (line.errors.length) {
    err(line.errors.join("; "));
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  if (line.positionals[0] === "eval" && line.positionals.length === 1)
    return Promise.resolve(runEval());

  const jsonl = line.values.get("--jsonl");
  if (jsonl !== undefined) {
    if (line.positionals.length) {
      err("--jsonl takes the file itself; no other file");
      return 2;
    }
    const rows = readInput(jsonl).split("\n");
    let bad = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      if (!row.trim()) continue;
      let text: unknown;
      let tools: unknown;
      try {
        ({ text, tools } = JSON.parse(row) as { text?: unknown; tools?: unknown });
      } catch {
        text = undefined;
      }
      if (
        typeof text !== "string" ||
        (tools !== undefined &&
          !(Array.isArray(tools) && tools.every((t) => typeof t === "string")))
      ) {
        // The output stays one line per input line, in order: a bad line gets an error object.
        process.stdout.write(
          `${JSON.stringify({ error: `line ${i + 1}: need {"text": string, "tools"?: string[]}` })}\n`,
        );
        bad++;
        continue;
      }
      process.stdout.write(`${JSON.stringify(detect(text, { tools: tools }))}\n`);
    }
    return bad ? 2 : 0;
  }

  if (line.positionals.length !== 1) {
    err("name one FILE, or - for standard input");
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const tools = line.values
    .get("--tools")
    ?.split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const verdict = detectDetailed(readInput(line.positionals[0]!), {
    tools,
    forModel: line.booleans.has("--for-model"),
  });
  if (line.booleans.has("--json")) {
    const { flagged, score, reasons } = verdict;
    process.stdout.write(`${JSON.stringify({ flagged, score, reasons })}\n`);
  } else {
    process.stdout.write(
      `${verdict.flagged ? "FLAGGED" : "clean"}  score ${verdict.score}${verdict.truncated ? `  (read ${verdict.scanned} characters of a longer text)` : ""}\n`,
    );
    for (const r of verdict.reasons) process.stdout.write(`  ${r.signal}: ${safeText(r.detail)}\n`);
    if (verdict.flagged) process.stdout.write(`  excerpt: ${safeText(verdict.excerpt)}\n`);
  }
  return verdict.flagged ? 1 : 0;
}
