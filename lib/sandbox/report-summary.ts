/**
 * How the sandbox report reads at a glance: one line first ("network: none; 3 refused"), the
 * attempts that matter listed, and the benign misses every Node server makes (its loader probing
 * for files, tsx's cache, cgroup and /proc files a runtime reads to size itself) counted and
 * folded. A miss is benign only when it is a read that found nothing at a path of those kinds;
 * anything else (a write, a connect, a run program, a read of any other path, the data folder's
 * included) stays listed.
 */
import type { SandboxAttempt, SandboxReport } from "@/lib/sandbox/plan";

const MISSING = new Set(["ENOENT", "ENOTDIR"]);
const BENIGN_PATHS: readonly RegExp[] = [
  /^\/sys\/fs\/cgroup(\/|$)/,
  /^\/proc\/(self|\d+)\/(cgroup|mountinfo|stat|status|maps)$/,
  /(^|\/)tsx-\d+(\/|$)/,
  /(^|\/)node_modules\/\.cache(\/|$)/,
  // Module resolution: probing node_modules folders and package.json files up the tree.
  /(^|\/)node_modules(\/[^/]+)*\/?$/,
  /(^|\/)package\.json$/,
  /\/node_modules\/.+\.(?:[mc]?[jt]sx?|json|node)$/,
];

/** A read that found nothing at a path every Node server probes. */
export function isBenignMiss(a: SandboxAttempt): boolean {
  return (
    a.kind === "open" &&
    !a.write &&
    MISSING.has(a.result) &&
    BENIGN_PATHS.some((p) => p.test(a.target))
  );
}

/** An attempt the sandbox refused (anything but a program run or a connection that succeeded). */
const isRefused = (a: SandboxAttempt) => a.result !== "ok";

export type SandboxSummary = {
  /** "network: none (no egress granted); 2 refused" — what a reader needs first. */
  lead: string;
  listed: SandboxAttempt[];
  benign: SandboxAttempt[];
  /** Times the folded misses were seen, all together. */
  benignCount: number;
};

/** The report's lead line and its attempts split into those listed and the benign misses folded. */
export function summarizeSandbox(
  report: Extract<SandboxReport, { sandboxed: true }>,
): SandboxSummary {
  const benign = report.attempts.filter(isBenignMiss);
  const listed = report.attempts.filter((a) => !isBenignMiss(a));
  const network = report.egress
    ? `egress to ${report.egress.grants.join(", ")} only, through the workbench's proxy`
    : "none (no egress granted)";
  const refusedNetwork =
    listed.filter((a) => (a.kind === "connect" || a.kind === "send") && isRefused(a)).length +
    (report.egress?.attempts.filter((a) => a.decision === "refused").length ?? 0);
  const refused =
    listed.filter(isRefused).length +
    (report.egress?.attempts.filter((a) => a.decision === "refused").length ?? 0);
  const lead = `network: ${network}; ${refused} refused${refusedNetwork > 0 ? ` (${refusedNetwork} of them network)` : ""}${benign.length > 0 ? `; ${benign.length} benign misses folded` : ""}`;
  return { lead, listed, benign, benignCount: benign.reduce((n, a) => n + a.count, 0) };
}
