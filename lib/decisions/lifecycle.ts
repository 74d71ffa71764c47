/**
 * A decision's lifecycle: a newer decision for the same server and agent supersedes the older one,
 * and only the decision in force for each pair counts toward a review's state. One rule, used by
 * the state route (and so `relay-review check`), the drift watch, the decisions list and the share
 * view, so none of them can count a decision another has retired. Decisions are kept in the order
 * they were made (the review document appends them), so the last one for a pair is the one in force.
 *
 * A pending proposal (four eyes, lib/decisions/four-eyes.ts) is never in force and retires
 * nothing: the decision it would replace stays in force until the proposal is approved. A decision
 * made after a proposal retires the proposal too.
 * Pure.
 */
import { isPending } from "@/lib/decisions/four-eyes";
import type { Decision } from "@/lib/review/schema";

const pairKey = (d: Pick<Decision, "serverId" | "agentId">) =>
  JSON.stringify([d.serverId, d.agentId]);

/** Each superseded decision's id → the id of the decision that replaced it (the next one in force for its pair). */
export function supersededBy(decisions: readonly Decision[]): Map<string, string> {
  const out = new Map<string, string>();
  const open = new Map<string, string[]>();
  for (const d of decisions) {
    const key = pairKey(d);
    const earlier = open.get(key) ?? [];
    if (isPending(d)) {
      open.set(key, [...earlier, d.id]);
      continue;
    }
    for (const id of earlier) out.set(id, d.id);
    open.set(key, [d.id]);
  }
  return out;
}

/** The decisions in force: for each (server, agent) pair the newest that is not pending, in the order they were made. */
export function decisionsInForce(decisions: readonly Decision[]): Decision[] {
  const retired = supersededBy(decisions);
  return decisions.filter((d) => !retired.has(d.id) && !isPending(d));
}

/** The id of the decision in force for (server, agent), which a new decision for that pair supersedes; null when none. */
export function decisionInForceFor(
  decisions: readonly Decision[],
  serverId: string,
  agentId: string,
): string | null {
  for (let i = decisions.length - 1; i >= 0; i--) {
    const d = decisions[i]!;
    if (d.serverId === serverId && d.agentId === agentId && !isPending(d)) return d.id;
  }
  return null;
}

/**
 * Where a decision is in its life, for the summary and the reviews list:
 * - `pending`: a proposal still waiting for its approvals (four eyes, issue 29 item 3): it does not
 *   count as a decision yet (`isPending`: fewer approvals than it requires; a decision recorded
 *   before four eyes requires none).
 * - `superseded`: a newer decision for the same pair replaced it.
 * - `in_force`: neither; its state (current or stale) is `decisionStatus`'s (lib/decisions/staleness.ts).
 */
export type DecisionLifecycleStatus = "in_force" | "superseded" | "pending";

export function lifecycleStatus(
  decision: Decision,
  retired: ReadonlyMap<string, string>,
): DecisionLifecycleStatus {
  if (isPending(decision)) return "pending";
  return retired.has(decision.id) ? "superseded" : "in_force";
}
