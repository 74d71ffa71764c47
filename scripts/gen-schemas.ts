/**
 * Writes the JSON Schemas generated from zod into public/schemas/: `npx tsx scripts/gen-schemas.ts`.
 * `--check` exits 1 when a committed file differs from what would be written (tests do the same).
 */
import { readFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { format, resolveConfig } from "prettier";
import { DECISION_RECORD_SCHEMA_FILE, decisionRecordJsonSchema } from "@/lib/decisions/json-schema";

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Each generated file: its path from the repository root and its exact text (Prettier-formatted, as `format:check` expects). */
export async function generatedSchemaFiles(): Promise<{ file: string; text: string }[]> {
  const files = [{ file: DECISION_RECORD_SCHEMA_FILE, value: decisionRecordJsonSchema() }];
  return Promise.all(
    files.map(async ({ file, value }) => {
      const filepath = path.join(ROOT, file);
      const options = (await resolveConfig(filepath)) ?? {};
      return { file, text: await format(JSON.stringify(value), { ...options, filepath }) };
    }),
  );
}

async function main(argv: string[]): Promise<number> {
  const isCheck = argv.includes("--check");
  let isStale = false;
  for (const { file, text } of await generatedSchemaFiles()) {
    const target = path.join(ROOT, file);
    const current = await readFile(target, "utf8").catch(() => null);
    if (current === text) continue;
    if (isCheck) {
      process.stderr.write(`${file} is out of date: run npx tsx scripts/gen-schemas.ts\n`);
      isStale = true;
      continue;
    }
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, text);
    process.stdout.write(`wrote ${file}\n`);
  }
  return isStale ? 1 : 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
