/**
 * How the graph groups its sinks: by server, then by what the sink does, most severe first, so a
 * 26-tool server's twelve sinks are drawn as three groups (deploys or destroys, sends or shares,
 * writes) and a control on the sink call (approval) is drawn once per group instead of once per
 * sink. Pure; the layout (components/graph/layout.ts) and the section's group totals
 * (lib/graph/view.ts) key groups alike from here.
 */
import type { ToolRole } from "@/lib/review/schema";

/** The sink roles a group can stand for, most severe first. */
export const SINK_GROUP_ROLES = ["deploys_or_destroys", "network_or_shares", "writes"] as const;
export type SinkGroupRole = (typeof SINK_GROUP_ROLES)[number];

/** What a group's header says after its server's name. */
export const SINK_GROUP_LABEL: Record<SinkGroupRole, string> = {
  deploys_or_destroys: "deploys or destroys",
  network_or_shares: "sends or shares",
  writes: "writes",
};

/** The group a sink is drawn in: its most severe sink role (a sink holds at least one; "writes" otherwise). */
export function sinkGroupRole(sinkRoles: readonly ToolRole[]): SinkGroupRole {
  for (const r of SINK_GROUP_ROLES) if (sinkRoles.includes(r)) return r;
  return "writes";
}

/**
 * The id of a server's sink group for one role. `#` is not allowed in a server id (lib/ids.ts), so
 * the id cannot be read two ways.
 */
export const sinkGroupId = (serverId: string, role: SinkGroupRole): string => `${serverId}#${role}`;
