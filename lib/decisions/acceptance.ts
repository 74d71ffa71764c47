/**
 * Risk acceptance at the decision: an approval (plain or with conditions) while critical or high
 * findings are open names, for each, a condition that removes it or an acceptance by an owner of
 * the risk, with why and until when. Nothing is assumed: an acceptance names its finding by id,
 * and a finding nobody named refuses the approval (UNPROCESSABLE, 422) listing what is uncovered.
 * Pure: the clock is an argument.
 */
import { AppError, type FieldIssue } from "@/lib/errors";
import type { AcceptedRisk, Decision, DecisionCondition } from "@/lib/review/schema";
import { uncoveredFindings, type DecisionFinding } from "@/lib/decisions/findings";

/** An acceptance lasts this long unless the reviewer says otherwise. */
export const DEFAULT_ACCEPTANCE_DAYS = 90;
/** The workbench maximum: no risk is accepted for longer than a year without being looked at again. */
export const MAX_ACCEPTANCE_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;

/** One acceptance as a request names it (lib/decisions/api.ts AcceptRiskRequestSchema). */
export type AcceptanceInput = {
  findingId: string;
  owner: string;
  why: string;
  /** An ISO date (`2027-03-01`, the end of that day UTC) or date-time; omitted: DEFAULT_ACCEPTANCE_DAYS from now. */
  until?: string | undefined;
};

/** `2027-03-01` → the end of that day UTC; a date-time as given; null when neither. */
export function parseUntil(until: string): Date | null {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T23:59:59.000Z` : until;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d;
}

const label = (f: DecisionFinding) => `[${f.severity}] ${f.text} (${f.id})`;

export type ResolveAcceptancesInput = {
  verdict: Decision["verdict"];
  conditions: readonly DecisionCondition[];
  acceptances: readonly AcceptanceInput[];
  /** The open findings of the decision's agent and server now (lib/decisions/findings.ts). */
  findings: readonly DecisionFinding[];
  now: Date;
  maxDays?: number;
};

/**
 * The accepted risks a decision records, each with what its finding is now. Throws AppError:
 * BAD_REQUEST naming each bad acceptance (unknown or repeated finding, a date in the past or past
 * the maximum, an acceptance on a rejection); UNPROCESSABLE naming every critical or high finding
 * an approval leaves neither removed by a condition nor accepted (`details.uncovered`).
 */
export function resolveAcceptances(input: ResolveAcceptancesInput): AcceptedRisk[] {
  const { verdict, findings, now } = input;
  const maxDays = input.maxDays ?? MAX_ACCEPTANCE_DAYS;
  const issues: FieldIssue[] = [];
  if (verdict === "rejected") {
    if (input.acceptances.length > 0)
      throw new AppError("BAD_REQUEST", "a rejection accepts no risk: remove the acceptances", {
        issues: [{ path: "acceptances", message: "a rejection accepts no risk" }],
      });
    return [];
  }
  const byId = new Map(findings.map((f) => [f.id, f]));
  const seen = new Set<string>();
  const accepted: AcceptedRisk[] = [];
  const latest = new Date(now.getTime() + maxDays * DAY_MS);
  input.acceptances.forEach((a, i) => {
    const at = `acceptances.${i}`;
    const finding = byId.get(a.findingId);
    if (!finding) {
      issues.push({
        path: `${at}.findingId`,
        message: `no open finding with id ${JSON.stringify(a.findingId)} (the analysis may have changed: reload the findings)`,
      });
      return;
    }
    if (seen.has(a.findingId)) {
      issues.push({ path: `${at}.findingId`, message: `${a.findingId} is accepted twice` });
      return;
    }
    seen.add(a.findingId);
    const owner = a.owner.trim();
    const why = a.why.trim();
    if (owner === "") issues.push({ path: `${at}.owner`, message: "who owns this risk?" });
    if (why === "") issues.push({ path: `${at}.why`, message: "say why the risk is accepted" });
    const until =
      a.until === undefined || a.until.trim() === ""
        ? new Date(now.getTime() + DEFAULT_ACCEPTANCE_DAYS * DAY_MS)
        : parseUntil(a.until.trim());
    if (!until) {
      issues.push({
        path: `${at}.until`,
        message: "must be a date (YYYY-MM-DD) or an ISO date-time",
      });
      return;
    }
    if (until.getTime() <= now.getTime())
      issues.push({ path: `${at}.until`, message: "must be in the future" });
    else if (until.getTime() > latest.getTime())
      issues.push({
        path: `${at}.until`,
        message: `must be at most ${maxDays} days from now (the workbench maximum), ${latest.toISOString().slice(0, 10)} at the latest`,
      });
    accepted.push({
      findingId: finding.id,
      kind: finding.kind,
      severity: finding.severity,
      text: finding.text,
      ends: finding.ends,
      owner,
      why,
      until: until.toISOString(),
    });
  });
  if (issues.length > 0)
    throw new AppError(
      "BAD_REQUEST",
      `invalid risk acceptance: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`,
      { issues },
    );
  const uncovered = uncoveredFindings(findings, input.conditions, accepted);
  if (uncovered.length > 0)
    throw new AppError(
      "UNPROCESSABLE",
      `this approval leaves ${uncovered.length} critical or high finding${uncovered.length === 1 ? "" : "s"} open: remove each with a condition, or accept it with an owner, a reason and an end date, or reject: ${uncovered.map(label).join("; ")}`,
      {
        issues: uncovered.map((f) => ({
          path: `acceptances.${f.id}`,
          message: `not removed by a condition nor accepted: ${label(f)}`,
        })),
        details: {
          reason: "unaccepted_findings",
          uncovered: uncovered.map((f) => ({
            id: f.id,
            kind: f.kind,
            severity: f.severity,
            text: f.text,
            ends: f.ends,
          })),
        },
      },
    );
  return accepted;
}
