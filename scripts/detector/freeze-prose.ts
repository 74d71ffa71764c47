/**
 * Freezes the prose the detector's model learns as clean text into scripts/detector/prose/, so that
 * training reads fixed, recorded inputs: retraining at any later commit gives the same model bytes.
 * (Training used to read the repository's README and docs and node_modules directly, so an unrelated
 * docs commit or a dependency bump changed the model.) Run once, by hand, when the prose should be
 * renewed; the output is committed and its sha256 is recorded in model.json.
 *
 *   npx tsx scripts/detector/freeze-prose.ts
 *
 * What it takes:
 * - this repository's README.md and docs/*.md except docs/detection.md (which quotes payloads):
 *   the project's own text, runbooks and instructions written for people;
 * - the README.md (first 16 kB) of every installed package whose package.json says "license": "MIT"
 *   (developer prose full of "run the following"), each with its name, version and the copyright
 *   line of its LICENSE file, written to NOTICE.md with the MIT licence text, as MIT asks.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";

const MAX = 16_000;
const OUT = "scripts/detector/prose";

type Row = { unit: string; licence: string; text: string };
const rows: Row[] = [];

const docs = ["README.md", ...readdirSync("docs").map((f) => `docs/${f}`)]
  .filter((f) => f.endsWith(".md") && f !== "docs/detection.md")
  .sort();
for (const f of docs)
  rows.push({
    unit: `relay-review/${f}`,
    licence: "this project",
    text: readFileSync(f, "utf8").slice(0, MAX),
  });

const notices: string[] = [];
for (const scope of readdirSync("node_modules").sort()) {
  const dirs = scope.startsWith("@")
    ? readdirSync(`node_modules/${scope}`)
        .sort()
        .map((d) => `node_modules/${scope}/${d}`)
    : [`node_modules/${scope}`];
  for (const d of dirs) {
    let pkg: { name?: string; version?: string; license?: unknown };
    try {
      pkg = JSON.parse(readFileSync(`${d}/package.json`, "utf8")) as typeof pkg;
    } catch {
      continue; // not a package folder
    }
    if (pkg.license !== "MIT" || !existsSync(`${d}/README.md`)) continue;
    const licenceFile = readdirSync(d).find((f) => /^licen[cs]e/i.test(f));
    const copyright = licenceFile
      ? (readFileSync(`${d}/${licenceFile}`, "utf8")
          .split("\n")
          .find((l) => /copyright/i.test(l) && !/permission|above copyright/i.test(l))
          ?.trim() ?? "")
      : "";
    rows.push({
      unit: `npm/${pkg.name}@${pkg.version}/README.md`,
      licence: "MIT",
      text: readFileSync(`${d}/README.md`, "utf8").slice(0, MAX),
    });
    notices.push(
      `| ${pkg.name} | ${pkg.version} | MIT | ${copyright.replace(/\|/g, "\\|") || "(no copyright line in the package)"} |`,
    );
  }
}

writeFileSync(
  `${OUT}/prose.jsonl.gz`,
  gzipSync(rows.map((r) => JSON.stringify(r)).join("\n") + "\n", { level: 9 }),
);
writeFileSync(
  `${OUT}/NOTICE.md`,
  `# Prose the detector's model learns as clean text

\`prose.jsonl.gz\` (one JSON object a line: \`unit\`, \`licence\`, \`text\`) was written by
\`scripts/detector/freeze-prose.ts\` and is read, unchanged, by \`scripts/train-detector.ts\`. Only
weights derived from it ship (lib/detection/model.json records its sha256).

- ${docs.length} files of this repository's README and docs (this project's text), first ${MAX} characters each.
- The README.md (first ${MAX} characters) of ${notices.length} npm packages licensed MIT, listed below with the
  copyright line of each package's licence file. Each is used under the MIT licence:

> Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
> associated documentation files (the "Software"), to deal in the Software without restriction,
> including without limitation the rights to use, copy, modify, merge, publish, distribute,
> sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
> furnished to do so, subject to the following conditions: The above copyright notice and this
> permission notice shall be included in all copies or substantial portions of the Software.
> THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
> NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
> NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
> OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
> CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

| package | version | licence | copyright |
|---|---|---|---|
${notices.join("\n")}
`,
);
console.log(
  `freeze-prose: ${rows.length} texts (${docs.length} docs, ${notices.length} READMEs) → ${OUT}`,
);
