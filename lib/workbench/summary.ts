import "server-only";
/**
 * Server-side glue for the Summary tab and the reviews list's columns (lib/reviews/summary.ts): all
 * read from one review context (lib/workbench/review-context.ts), through the same functions the
 * state route (servers, decisions), the Decide form (open findings, lib/decisions/findings.ts)
 * and the lifecycle (lib/decisions/lifecycle.ts) use.
 */
import { controlEntry } from "@/lib/controls/registry";
import { lifecycleStatus, supersededBy } from "@/lib/decisions/lifecycle";
import { overallState, stateReasons } from "@/lib/decisions/review-state";
import type { Review } from "@/lib/review/schema";
import {
  EXPIRING_DAYS,
  emptyCounts,
  type AgentSummary,
  type DecisionSummary,
  type ReviewFlags,
  type ReviewOverviewRow,
  type ReviewSummaryView,
  type ServerSummary,
  type SeverityCounts,
} from "@/lib/reviews/summary";
import type { Db } from "@/lib/store/db";
import { listReviews } from "@/lib/store/reviews";
import { detectionView } from "@/lib/workbench/detection-report";
import { openReview, type ReviewContext } from "@/lib/workbench/review-context";
import { decisionStates, serverStates } from "@/lib/workbench/review-state";

const DAY_MS = 24 * 60 * 60 * 1000;

/** The severities the Summary shows (info findings are not counted there). */
const shownCounts = ({ critical, high, medium, low }: SeverityCounts): SeverityCounts => ({
  critical,
  high,
  medium,
  low,
});

const scopeWord = (
  review: Review,
  scope:
    { kind: "server"; serverId: string } | { kind: "agent"; agentId: string } | { kind: "review" },
) =>
  scope.kind === "server"
    ? (review.servers.find((s) => s.id === scope.serverId)?.name ?? scope.serverId)
    : scope.kind === "agent"
      ? (review.agents.find((a) => a.id === scope.agentId)?.name ?? scope.agentId)
      : "every agent session";

/** The summary of the context's review now. */
export async function summaryIn(
  ctx: ReviewContext,
  now: Date = new Date(),
): Promise<ReviewSummaryView> {
  const { review } = ctx;
  const findings = await ctx.findings();
  const analysis = findings.analysis;

  const agents: AgentSummary[] = review.agents.map((agent) => {
    const view = analysis.agents.find((a) => a.agentId === agent.id);
    // The agent's open findings, as the Decide form lists them for each server it holds tools of.
    const counted = findings.countsOfAgent(agent.id);
    const paths = shownCounts(counted.paths);
    const other = shownCounts(counted.other);
    const controls = new Map<string, AgentSummary["controls"][number]>();
    for (const c of view?.controlsOnPath ?? []) {
      const scope = scopeWord(review, c.scope);
      controls.set(`${c.controlId}\u0000${scope}`, {
        controlId: c.controlId,
        name: controlEntry(c.controlId).name,
        status: c.status,
        scope,
      });
    }
    const leg = (l: { present: boolean; tools: readonly unknown[] } | undefined) => ({
      present: l?.present ?? false,
      tools: l?.tools.length ?? 0,
    });
    return {
      agentId: agent.id,
      name: agent.name,
      toolCount: agent.tools.length,
      paths,
      findings: other,
      trifecta: {
        met: view?.trifecta.met ?? false,
        untrustedInput: leg(view?.trifecta.untrustedInput),
        privateData: leg(view?.trifecta.privateData),
        outboundCommunication: leg(view?.trifecta.outboundCommunication),
      },
      ruleOfTwo: { count: view?.ruleOfTwo.count ?? 0, violated: view?.ruleOfTwo.violated ?? false },
      controls: [...controls.values()],
    };
  });

  const serverStateList = serverStates(ctx);
  const servers: ServerSummary[] = serverStateList.map((s) => ({
    serverId: s.serverId,
    name: s.name,
    pin: s.blocked ? "blocked" : s.pin ? "pinned" : "unpinned",
    blockedReason: s.blocked?.reason ?? null,
    inspected: s.currentSurfaceSha256 !== null,
    failing: s.latestInspection?.status === "failed",
  }));

  const states = await decisionStates(ctx, now);
  const retired = supersededBy(review.decisions);
  const soon = now.getTime() + EXPIRING_DAYS * DAY_MS;
  const decisions: DecisionSummary[] = review.decisions.map((d, i) => {
    const state = states[i]!;
    const life = lifecycleStatus(d, retired);
    const accepts = (d.acceptedRisks ?? []).map((r) => ({
      severity: r.severity,
      text: r.text,
      owner: r.owner,
      until: r.until,
    }));
    const ends = accepts.map((a) => Date.parse(a.until)).filter((t) => Number.isFinite(t));
    const first = ends.length > 0 ? Math.min(...ends) : null;
    return {
      decisionId: d.id,
      serverName: state.serverName,
      agentName: state.agentName,
      verdict: d.verdict,
      status:
        life === "pending"
          ? "pending"
          : life === "superseded"
            ? "superseded"
            : state.state === "stale"
              ? "stale"
              : "current",
      staleBecause: state.changes.map((c) => c.message),
      decidedAt: d.decidedAt,
      reviewer: d.reviewer,
      accepts,
      expiresAt: first !== null && first <= soon ? new Date(first).toISOString() : null,
    };
  });

  const reasons = stateReasons(serverStateList, states);
  const live = decisions.filter((d) => d.status !== "superseded");
  const inForce = review.decisions.filter((d) => lifecycleStatus(d, retired) === "in_force");
  const openPaths = emptyCounts();
  for (const a of agents)
    for (const k of Object.keys(openPaths) as (keyof SeverityCounts)[]) openPaths[k] += a.paths[k];
  const flags: ReviewFlags = {
    state: overallState(reasons),
    openPaths,
    stale: live.filter((d) => d.status === "stale").length,
    blocked: servers.filter((s) => s.pin === "blocked").length,
    pending: live.filter((d) => d.status === "pending").length,
    // Four eyes: a proposal waits for someone other than its author.
    pendingMine: live.filter((d) => d.status === "pending" && d.reviewer !== ctx.asker).length,
    expiring: live.filter((d) => d.expiresAt !== null).length,
    acceptsCritical: live.some((d) => d.accepts.some((a) => a.severity === "critical")),
    verdict: inForce.at(-1)?.verdict ?? null,
  };
  return {
    reviewId: ctx.reviewId,
    revision: ctx.record.revision,
    flags,
    agents,
    servers,
    decisions,
    detection: await detectionView(ctx.db, ctx.reviewId),
  };
}

/**
 * The reviews list's rows with their flags. Each review is opened and summarised in turn (the
 * machine is shared; one at a time keeps a burst of list loads from analysing every review at
 * once); one that cannot be summarised is listed without flags rather than failing the list.
 */
export async function reviewsOverview(db: Db, asker?: string): Promise<ReviewOverviewRow[]> {
  const rows: ReviewOverviewRow[] = [];
  for (const r of await listReviews(db)) {
    let flags: ReviewFlags | null = null;
    try {
      const ctx = await openReview(db, r.id, { readOnly: true, ...(asker ? { asker } : {}) });
      flags = (await summaryIn(ctx)).flags;
    } catch (error) {
      console.error(
        `[overview] could not summarise review ${r.id}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    rows.push({ id: r.id, title: r.title, revision: r.revision, updatedAt: r.updatedAt, flags });
  }
  return rows;
}
