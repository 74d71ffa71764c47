/**
 * Four eyes: an approval that accepts a critical or high finding is a proposal until approvers
 * other than its author approve it. On by default when an identity provider is configured (without
 * one there is a single owner, and nobody to be the second pair of eyes); the number of approvals
 * needed is a workbench setting. Pure, apart from reading the environment in `fourEyesSettings`.
 *
 * - RELAY_REVIEW_FOUR_EYES        `on` or `off` (default: on with an IdP, off without)
 * - RELAY_REVIEW_REQUIRED_APPROVALS  how many approvers besides the author (default 1, at most 5)
 */
import type { Decision } from "@/lib/review/schema";

export interface FourEyesSettings {
  enabled: boolean;
  requiredApprovals: number;
}

export function fourEyesSettings(env: NodeJS.ProcessEnv = process.env): FourEyesSettings {
  const flag = env.RELAY_REVIEW_FOUR_EYES?.trim().toLowerCase();
  const hasIdp = Boolean(env.RELAY_REVIEW_OIDC_ISSUER?.trim());
  const enabled = flag === "on" ? true : flag === "off" ? false : hasIdp;
  const n = Number(env.RELAY_REVIEW_REQUIRED_APPROVALS ?? "1");
  return { enabled, requiredApprovals: Number.isInteger(n) && n >= 1 && n <= 5 ? n : 1 };
}

/** How many approvals a new decision needs: 0 unless four eyes is on and it is an approval accepting critical or high risk. */
export function approvalsNeeded(
  decision: Pick<Decision, "verdict" | "acceptedRisks">,
  settings: FourEyesSettings,
): number {
  if (!settings.enabled || decision.verdict === "rejected") return 0;
  const risky = (decision.acceptedRisks ?? []).some(
    (r) => r.severity === "critical" || r.severity === "high",
  );
  return risky ? settings.requiredApprovals : 0;
}

/** A decision still waiting for approvers: never in force, never current. */
export function isPending(decision: Pick<Decision, "requiredApprovals" | "approvals">): boolean {
  return (decision.approvals?.length ?? 0) < (decision.requiredApprovals ?? 0);
}
