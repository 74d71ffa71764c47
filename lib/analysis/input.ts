/**
 * The analysis input besides the review: per server, the tool list to analyse. The glue code picks
 * the latest inspected snapshot's tools when there is one, else the review's hand-entered
 * `declaredTools`; the analysis works from hand-entered tools alone, so nothing here needs a live
 * server.
 */
import type { ServerId } from "@/lib/ids";
import type { Review, ToolAnnotations } from "@/lib/review/schema";

/** One tool as the analysis sees it: what the server (or the reviewer) said about it. */
export type ListedTool = {
  name: string;
  description: string;
  /** Server-authored claims; raw objects from a snapshot are accepted, non-boolean hints count as absent. */
  annotations?: ToolAnnotations | Partial<Record<string, unknown>>;
};

/** The tool list used for one server, and where it came from. */
export type ServerToolList = {
  serverId: ServerId;
  origin: "snapshot" | "declared";
  tools: ListedTool[];
  /**
   * Set when the server's pin is blocked: its latest inspection differs from the pin under
   * "block" (the tools above are still what it serves now). `reason` names what changed.
   */
  blocked?: { reason: string; pinnedSurfaceSha256: string } | null;
};

const isMap = (x: unknown): x is ReadonlyMap<string, readonly ListedTool[]> => x instanceof Map;

/**
 * One tool list per server of the review: the snapshot's tools where `snapshotToolsByServer` has an
 * entry for the server, else the server's `declaredTools`. Servers are kept in review order.
 */
export function toolListsFromReview(
  review: Review,
  snapshotToolsByServer?: ReadonlyMap<string, readonly ListedTool[]> | Readonly<Record<string, readonly ListedTool[]>>,
): ServerToolList[] {
  const lookup = (id: string): readonly ListedTool[] | undefined => {
    if (!snapshotToolsByServer) return undefined;
    if (isMap(snapshotToolsByServer)) return snapshotToolsByServer.get(id);
    return Object.hasOwn(snapshotToolsByServer, id) ? snapshotToolsByServer[id] : undefined;
  };
  return review.servers.map((server) => {
    const snap = lookup(server.id);
    if (snap) return { serverId: server.id, origin: "snapshot", tools: snap.map((t) => ({ ...t })) };
    return {
      serverId: server.id,
      origin: "declared",
      tools: server.declaredTools.map((t) => ({
        name: t.name,
        description: t.description,
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
    };
  });
}
