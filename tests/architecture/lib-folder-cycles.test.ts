/**
 * No import cycle between the top-level folders of `lib/` (issue 16, part 4): `lib/analysis`
 * imports `lib/controls`, which imports only the shared layer beneath both (`lib/model`), never the
 * other way round. A cycle between folders means neither can be read, tested or changed without the
 * other. Edges come from every `import`/`export … from` in the non-test `.ts` files under `lib/`,
 * type-only imports included (a type is a dependency too); a root file such as `lib/ids.ts` is a
 * node of its own. Tests are left out: a test may import a module's consumers to exercise it.
 *
 * Scope: `lib/` only. The same walk can cover `components/` (query keys) by adding a root below.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
/** The trees checked: each top-level folder (or root file) under them is one node. */
const TREES = ["lib"];

/**
 * Cycles that predate this guard and belong to other work (the data-folder and key rules of issue
 * 16, part 4): tolerated as they are, so the guard can fail on every new cycle today. A cycle that
 * grows, or one that is gone, fails too: remove its entry here when its folders stop importing
 * each other.
 */
const KNOWN_CYCLES: readonly string[] = ["lib/review ↔ lib/reviews ↔ lib/secrets ↔ lib/store"];

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+["']([^"']+)["']/g;
const SIDE_EFFECT_IMPORT = /(?:^|\n)\s*import\s+["']([^"']+)["']/g;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The node a repository path belongs to: `lib/controls` for `lib/controls/egress/policy.ts`, `lib/ids.ts` for itself. */
function nodeOf(tree: string, rel: string): string | null {
  const parts = rel.split("/");
  if (parts[0] !== tree || parts.length < 2) return null;
  return parts.length === 2 ? `${tree}/${parts[1]!.replace(/\.tsx?$/, "")}` : `${tree}/${parts[1]}`;
}

/** Folder-level import edges, each with one file and specifier that makes it. */
export function folderEdges(tree: string): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const file of walk(path.join(ROOT, tree))) {
    const rel = path.relative(ROOT, file).split(path.sep).join("/");
    const from = nodeOf(tree, rel)!;
    const text = readFileSync(file, "utf8");
    const specs = [...text.matchAll(IMPORT), ...text.matchAll(SIDE_EFFECT_IMPORT)].map(
      (m) => m[1]!,
    );
    for (const spec of specs) {
      let target: string | null = null;
      if (spec.startsWith("@/")) target = spec.slice(2);
      else if (spec.startsWith("."))
        target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
      if (target === null) continue;
      const to = nodeOf(tree, target.endsWith(".ts") ? target : `${target}.ts`);
      if (to === null || to === from) continue;
      let out = edges.get(from);
      if (!out) edges.set(from, (out = new Map<string, string>()));
      if (!out.has(to)) out.set(to, `${rel} imports ${spec}`);
    }
  }
  return edges;
}

/** Strongly connected components with more than one node (Tarjan). */
export function cycles(edges: Map<string, Map<string, string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const nodes = new Set<string>([
    ...edges.keys(),
    ...[...edges.values()].flatMap((m) => [...m.keys()]),
  ]);
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
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
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...nodes].sort()) if (!index.has(v)) visit(v);
  return out;
}

describe("folder cycles", () => {
  it.each(TREES)("no import cycle between the top-level folders of %s/", (tree) => {
    const edges = folderEdges(tree);
    const all = cycles(edges);
    const known = all.map((c) => c.join(" ↔ ")).filter((c) => KNOWN_CYCLES.includes(c));
    expect(known, "a known cycle is gone: remove it from KNOWN_CYCLES").toEqual(
      KNOWN_CYCLES.filter((c) => c.startsWith(`${tree}/`)),
    );
    const found = all
      .filter((c) => !KNOWN_CYCLES.includes(c.join(" ↔ ")))
      .map((component) => {
        const inside = new Set(component);
        const why = component.flatMap((from) =>
          [...(edges.get(from) ?? [])]
            .filter(([to]) => inside.has(to))
            .map(([to, example]) => `  ${from} → ${to} (${example})`),
        );
        return `${component.join(" ↔ ")}\n${why.join("\n")}`;
      });
    expect(found, found.join("\n")).toEqual([]);
  });
});
