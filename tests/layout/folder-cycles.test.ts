/**
 * No two top-level folders of lib/ or components/ import each other, directly or round a loop.
 * A folder cycle means neither side can be read, tested or changed alone; the cure is a third
 * module both depend on (components/query-keys.ts broke review ↔ surface and reviews ↔ import).
 * Every import counts, type-only ones and `import()` included; tests are not part of the graph.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const LAYERS = ["lib", "components"] as const;
const SOURCE = /\.tsx?$/;
const TEST_FILE = /\.test\.tsx?$/;

/**
 * Cycles being removed. Each entry must still be a cycle: once it is gone the test fails until
 * the entry is deleted, so the list only shrinks.
 */
const KNOWN_CYCLES: readonly (readonly string[])[] = [
  // controls use analysis's ids, findings, model and prose; analysis runs the controls. The
  // `registry` branch moves the shared model under both (issue 16, part 4). Delete when it lands.
  ["lib/analysis", "lib/controls"],
  // secrets/key.ts reads the data folder from store/config.ts while store/secrets.ts seals with
  // secrets/crypto.ts; review/schema.ts checks values with secrets/redact.ts while
  // secrets/references.ts reads review's Transport. The `hygiene` branch's next step (one
  // data-folder rule) removes it.
  ["lib/review", "lib/reviews", "lib/secrets", "lib/store"],
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return SOURCE.test(entry.name) && !TEST_FILE.test(entry.name) && !entry.name.endsWith(".d.ts")
      ? [full]
      : [];
  });
}

/** The repository-relative file an import names, or null for a package or a missing file. */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith("@/")) base = path.join(ROOT, specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.resolve(path.dirname(from), specifier);
  else return null;
  const stem = base.replace(/\.js$/, "");
  for (const candidate of [
    base,
    `${stem}.ts`,
    `${stem}.tsx`,
    path.join(base, "index.ts"),
    path.join(base, "index.tsx"),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile())
      return path.relative(ROOT, candidate);
  }
  return null;
}

/** A file's folder unit: `lib/analysis` for lib/analysis/x/y.ts, the file itself for lib/errors.ts. */
function unitOf(file: string): string | null {
  const parts = file.split(path.sep);
  if (!LAYERS.includes(parts[0] as (typeof LAYERS)[number])) return null;
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts.join("/");
}

type Edge = { from: string; to: string; via: string };

function folderEdges(): Edge[] {
  const edges = new Map<string, Edge>();
  for (const layer of LAYERS) {
    for (const full of sourceFiles(path.join(ROOT, layer))) {
      const file = path.relative(ROOT, full);
      const from = unitOf(file);
      const info = ts.preProcessFile(fs.readFileSync(full, "utf8"), true, true);
      for (const ref of info.importedFiles) {
        const target = resolveImport(full, ref.fileName);
        const to = target && unitOf(target);
        if (!from || !to || to === from) continue;
        const key = `${from}→${to}`;
        if (!edges.has(key)) edges.set(key, { from, to, via: `${file} imports ${target}` });
      }
    }
  }
  return [...edges.values()];
}

/** Strongly connected components of more than one folder (Tarjan). */
function cycles(edges: Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of new Set(edges.flatMap((e) => [e.from, e.to]))) if (!index.has(v)) visit(v);
  return found;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((x, i) => x === [...b].sort()[i]);

describe("folder imports", () => {
  const edges = folderEdges();
  const found = cycles(edges);
  const explain = (component: string[]) =>
    [
      component.join(" ↔ "),
      ...edges
        .filter((e) => component.includes(e.from) && component.includes(e.to))
        .map((e) => `  ${e.via}`),
    ].join("\n");

  test("the walker sees the imports it must judge", () => {
    // A walker that resolves nothing would pass every check below.
    expect(edges).toContainEqual(
      expect.objectContaining({ from: "components/review", to: "components/surface" }),
    );
    expect(edges).toContainEqual(
      expect.objectContaining({ from: "components/reviews", to: "components/import" }),
    );
    expect(edges.some((e) => e.from.startsWith("lib/") && e.to === "lib/errors.ts")).toBe(true);
  });

  test("no cycle between top-level folders of lib/ or components/", () => {
    const unexpected = found.filter((c) => !KNOWN_CYCLES.some((k) => sameSet(k, c)));
    expect(unexpected.map(explain)).toEqual([]);
  });

  test("every known exception is still a cycle (delete the entry once it is fixed)", () => {
    const stale = KNOWN_CYCLES.filter((k) => !found.some((c) => sameSet(k, c)));
    expect(stale.map((k) => k.join(" ↔ "))).toEqual([]);
  });
});
