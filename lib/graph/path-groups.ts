/**
 * Paths grouped by where they start and where they end: one group per head source × sink, in the
 * order its first path is listed. A 26-tool server in one agent lists about 120 paths that differ
 * only in the returning tool between the same source and the same sink; a reviewer reads the
 * source × sink pairs first and opens a pair to see its paths. Pure.
 */
/** More cross-tool paths than this are listed in groups; fewer are listed one by one. */
export const PATH_GROUPS_ABOVE = 20;

export type PathGroup<P extends Grouped> = {
  /** Stable while the same paths are listed: the head's node and the sink. */
  key: string;
  /** The first path of the group, for its head's and sink's names. */
  first: P;
  paths: P[];
  /** The distinct returning tools and agents the group's paths run through. */
  returningTools: P["returningTool"][];
  agents: P["agentId"][];
};

/** What grouping reads of a path (PathView has it). */
type Grouped = {
  head: { nodeId: string };
  sink: string;
  returningTool: string;
  agentId: string;
};

export function groupPaths<P extends Grouped>(paths: readonly P[]): PathGroup<P>[] {
  const byKey = new Map<string, PathGroup<P> & { seen: Set<string> }>();
  for (const p of paths) {
    const key = `${p.head.nodeId}\n${p.sink}`;
    let g = byKey.get(key);
    if (!g) {
      g = { key, first: p, paths: [], returningTools: [], agents: [], seen: new Set() };
      byKey.set(key, g);
    }
    g.paths.push(p);
    if (!g.seen.has(`t${p.returningTool}`)) {
      g.seen.add(`t${p.returningTool}`);
      g.returningTools.push(p.returningTool);
    }
    if (!g.seen.has(`a${p.agentId}`)) {
      g.seen.add(`a${p.agentId}`);
      g.agents.push(p.agentId);
    }
  }
  return [...byKey.values()].map(({ seen: _seen, ...g }) => g);
}
