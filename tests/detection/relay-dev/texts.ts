import { readFileSync } from "node:fs";
import path from "node:path";

/** The texts of the self-written relay dev set (one JSON object with a `text` per line), for tests that compare a fast path with the code it replaces. */
export function relayDevTexts(
  files: readonly string[] = ["relay-dev.jsonl", "hard-negatives.jsonl", "planted.jsonl"],
): string[] {
  return files.flatMap((f) =>
    readFileSync(path.join(import.meta.dirname, f), "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => (JSON.parse(l) as { text: string }).text),
  );
}
