/**
 * The decision as a Markdown report a person can paste into a ticket: summary, the decision
 * (verdict, agent, tool set, conditions and whether each holds, reviewer, time, rationale, bound
 * fingerprints), staleness, writer bounds per source, and the paths, controls and residues the
 * analysis supplies. Everything server- or reviewer-authored is escaped (see markdown.ts), so a
 * tool description or a rationale cannot inject Markdown or HTML. Pure.
 */
import { isPending } from "@/lib/decisions/four-eyes";
import type { AcceptedRisk, Decision, InputSource, Review } from "@/lib/review/schema";
import { sourceWriterBound, type WriterBoundResult } from "@/lib/sources/writer-bound";
import { decisionBasis } from "@/lib/decisions/binding";
import { mdCode, mdQuote, mdText } from "@/lib/decisions/markdown";
import {
  checkConditions,
  type ConditionCheck,
  type DecisionStatus,
} from "@/lib/decisions/staleness";

/**
 * The analysis's contribution, kept minimal so the analysis can fill it from its own results.
 * - `paths`: each source-to-sink path: `from` (source name), `to` (sink tool), `via` (the tools
 *   between, in order), `bound` (the source's writer bound, as a label).
 * - `controls`: each control: `name`, what it `stops`, what it leaves (`residue`), and whether it
 *   `cuts` the source-to-sink path itself (only tool-set separation does).
 * - `residueStatement`: the composed residue, one or two sentences.
 */
export type ReportAnalysisSummary = {
  paths: { from: string; to: string; via: readonly string[]; bound: string }[];
  controls: { name: string; stops: string; residue: string; cuts: boolean }[];
  residueStatement: string;
};

export type ReportWriterBound = { source: InputSource; result: WriterBoundResult };

export type RenderDecisionMarkdownInput = {
  review: Review;
  decision: Decision;
  status: DecisionStatus;
  /** Defaults to `sourceWriterBound` of every source in the review. */
  writerBounds?: readonly ReportWriterBound[];
  /** Defaults to `checkConditions(decision, review)` with no egress evaluator (egress conditions then read "cannot be checked"). */
  conditionChecks?: readonly ConditionCheck[];
  analysisSummary?: ReportAnalysisSummary;
  /** The newer decision for the same server and agent that replaced this one; null or omitted while in force. */
  supersededBy?: string | null;
};

const VERDICT_LABEL: Record<Decision["verdict"], string> = {
  approved: "Approved",
  approved_with_conditions: "Approved with conditions",
  rejected: "Rejected",
};

const holdsLabel = (holds: boolean | null) =>
  holds === true ? "holds" : holds === false ? "**does not hold**" : "**cannot be checked**";

/** A tool as the report names it: the tool's name and its server's name (ids stay in the signed record). */
const toolText = (review: Review, t: { serverId: string; tool: string }) =>
  `${mdCode(t.tool)} on ${mdText(serverText(review, t.serverId))}`;
const serverText = (review: Review, id: string) =>
  review.servers.find((s) => s.id === id)?.name ?? id;
const agentText = (review: Review, id: string) =>
  review.agents.find((a) => a.id === id)?.name ?? id;

function describeCondition(c: ConditionCheck["condition"], review: Review): string {
  switch (c.kind) {
    case "tool_absent_from_agent":
      return `${toolText(review, c.tool)} is not in the agent`;
    case "egress_default_deny":
      return `egress of ${mdCode(serverText(review, c.serverId))} is default-deny`;
    case "credential_read_only":
      return `the credential of ${mdCode(serverText(review, c.serverId))} is read-only`;
    case "approval_out_of_band":
      return `approval for ${mdCode(agentText(review, c.agentId))} is out of band of the agent`;
    case "surface_pinned_block":
      return `${mdCode(serverText(review, c.serverId))} is pinned and blocks on a surface change`;
  }
}

/** "2 critical, 1 high" */
function acceptedCounts(accepted: readonly AcceptedRisk[]): string {
  const counts = new Map<string, number>();
  for (const r of accepted) counts.set(r.severity, (counts.get(r.severity) ?? 0) + 1);
  return [...counts].map(([s, n]) => `${n} ${s}`).join(", ");
}
const earliest = (accepted: readonly AcceptedRisk[]) =>
  accepted.map((r) => r.until).sort()[0] ?? "";

const fmtOrNone = (value: string | null, none: string) => (value === null ? none : mdCode(value));

/** The report, as Markdown text ending with a newline. */
export function renderDecisionMarkdown(input: RenderDecisionMarkdownInput): string {
  const { review, decision, status } = input;
  const server = review.servers.find((s) => s.id === decision.serverId);
  const agent = review.agents.find((a) => a.id === decision.agentId);
  const serverName = server?.name ?? decision.serverId;
  const agentName = agent?.name ?? decision.agentId;
  const basis = decisionBasis(decision);
  const checks = input.conditionChecks ?? checkConditions(decision, review);
  const bounds =
    input.writerBounds ??
    review.sources.map((source) => ({ source, result: sourceWriterBound(source) }));
  const inToolSet = new Set(decision.toolSet.map((t) => `${t.serverId}\u0000${t.tool}`));
  const lines: string[] = [];
  const push = (...xs: string[]) => lines.push(...xs);

  push(`# Decision: ${mdCode(serverName)} into ${mdCode(agentName)}`, "");
  push("## Summary", "");
  push(`- **Verdict:** ${VERDICT_LABEL[decision.verdict]}`);
  push(
    `- **Server:** ${mdCode(serverName)}; image ${fmtOrNone(decision.bound.imageDigest, "not pinned by digest")}`,
  );
  if (server && server.elicitationUrlHosts.length > 0)
    push(
      `- **URL elicitation allowed to:** ${server.elicitationUrlHosts.map(mdCode).join(", ")} (the signed record's \`elicitation_url_domains\`)`,
    );
  push(
    `- **Agent:** ${mdCode(agentName)}, holding ${decision.toolSet.length} tool${decision.toolSet.length === 1 ? "" : "s"}`,
  );
  if (isPending(decision))
    push(
      `- **PENDING proposal:** ${decision.approvals?.length ?? 0} of ${decision.requiredApprovals} required approval${decision.requiredApprovals === 1 ? "" : "s"} by someone other than its author; **not in force**`,
    );
  push(
    `- **Status:** ${status.state === "current" ? "current: nothing the decision is bound to has changed" : `**stale**: ${status.changes.length} change${status.changes.length === 1 ? "" : "s"} since the decision (see Staleness)`}`,
  );
  push(
    `- **Basis:** ${basis.kind === "live_surface" ? `made against the live surface ${mdCode(basis.surfaceSha256)}` : `**${basis.label}**`}`,
  );
  const accepted = decision.verdict === "rejected" ? [] : (decision.acceptedRisks ?? []);
  if (decision.verdict !== "rejected")
    push(
      `- **Accepted risk:** ${accepted.length === 0 ? (decision.acceptedRisks ? "none" : "not recorded (decided before approvals said what they accept)") : `**${accepted.length} finding${accepted.length === 1 ? "" : "s"} accepted** (${acceptedCounts(accepted)}), until ${mdCode(earliest(accepted))} at the earliest (see Accepted risk)`}`,
    );
  if (decision.supersedes) push(`- **Supersedes:** decision ${mdCode(decision.supersedes)}`);
  if (input.supersededBy)
    push(
      `- **Superseded** by decision ${mdCode(input.supersededBy)}: no longer in force, and it no longer counts toward the review's state`,
    );
  push(`- **Review:** ${mdText(review.title)}`, "");

  push("## Decision", "");
  push(
    `- **Verdict:** ${VERDICT_LABEL[decision.verdict]}, ${mdCode(serverName)} into ${mdCode(agentName)}`,
  );
  if (decision.author)
    push(
      `- **Author:** ${mdText(decision.author.name)} (${mdCode(decision.author.issuer)} subject ${mdCode(decision.author.subject)}) at ${mdCode(decision.author.at)}`,
    );
  else push(`- **Reviewer:** ${mdText(decision.reviewer)} (with the owner token)`);
  for (const a of decision.approvals ?? [])
    push(
      `- **Approved by:** ${mdText(a.name)} (${mdCode(a.issuer)} subject ${mdCode(a.subject)}) at ${mdCode(a.at)}`,
    );
  push(
    `- **Decided at:** ${mdCode(decision.decidedAt)}, review revision ${decision.bound.revision}`,
  );
  push(
    "- **Tool set** (every tool the agent holds: text returned by any of them reaches all of them):",
  );
  for (const t of decision.toolSet) push(`  - ${toolText(review, t)}`);
  if (decision.conditions.length === 0) push("- **Conditions:** none");
  else {
    push("- **Conditions** (checked against the current review):");
    decision.conditions.forEach((c, i) => {
      const check = checks[i];
      push(
        `  - ${describeCondition(c, review)}: ${check ? `${holdsLabel(check.holds)}, ${mdText(check.reason)}` : "**not checked**"}`,
      );
    });
  }
  push("- **Rationale:**", "", mdQuote(decision.rationale), "");
  if (accepted.length > 0) {
    push("### Accepted risk", "");
    push(
      "Open findings this approval accepts, each owned by a named person, with a reason and an end date; after it the decision is stale.",
      "",
    );
    for (const r of accepted) {
      push(
        `- **${r.severity}** ${mdText(r.text)} (${mdCode(r.findingId)}, ${mdCode(r.kind)})${r.ends ? `: from ${mdText(r.ends.from)} to ${mdText(r.ends.to)}` : ""}`,
        `  - owner: ${mdText(r.owner)}; until ${mdCode(r.until)}`,
        `  - why: ${mdText(r.why)}`,
      );
    }
    push("");
  }
  push("### Bound fingerprints", "");
  push(`- Surface SHA-256: ${fmtOrNone(decision.bound.surfaceSha256, `none (${basis.label})`)}`);
  push(`- Image digest: ${fmtOrNone(decision.bound.imageDigest, "none recorded")}`);
  push(`- Tool set SHA-256: ${mdCode(decision.bound.toolSetSha256)}`);
  push(`- Controls SHA-256: ${mdCode(decision.bound.controlsSha256)}`);
  push(`- Review revision: ${decision.bound.revision}`, "");

  push("## Staleness", "");
  if (status.state === "current")
    push(
      "Current: the surface, image digest, tool set and controls are as they were when the decision was made.",
      "",
    );
  else {
    push("**Stale.** Decide again; the decision no longer describes this deployment:", "");
    for (const c of status.changes) push(`- ${mdCode(c.what)}: ${mdText(c.message)}`);
    push("");
  }

  push("## Writer bounds per source", "");
  push(
    "Who is *allowed* to write into each source, not how many did. The smallest number of accounts an attack needs is one.",
    "",
  );
  if (bounds.length === 0) push("No sources recorded.", "");
  for (const { source, result } of bounds) {
    const returnedBy = review.tools
      .filter(
        (t) => t.sourceIds.includes(source.id) && inToolSet.has(`${t.serverId}\u0000${t.tool}`),
      )
      .map((t) => mdCode(t.tool));
    push(
      `- ${mdCode(source.name)} (${mdText(source.kind)}): **${mdText(result.bound.label)}**${result.reachesOutsideBoundary ? ", outside the organisation's boundary" : ""}`,
    );
    for (const r of result.reasons) push(`  - ${mdText(r)}`);
    if (result.usage) push(`  - usage fact, not part of the bound: ${mdText(result.usage.label)}`);
    push(
      `  - returned into this agent by: ${returnedBy.length > 0 ? returnedBy.join(", ") : "no tool in the tool set"}`,
    );
  }
  push("");

  push("## Paths, controls and residues", "");
  const a = input.analysisSummary;
  if (!a) push("Not supplied with this report.", "");
  else {
    push("### Source-to-sink paths", "");
    if (a.paths.length === 0) push("No path from an untrusted source to a sink in this tool set.");
    for (const p of a.paths) {
      push(
        `- ${mdCode(p.from)} → ${p.via.map(mdCode).join(" → ")}${p.via.length > 0 ? " → " : ""}${mdCode(p.to)} (writers: ${mdText(p.bound)})`,
      );
    }
    push("", "### Controls", "");
    if (a.controls.length === 0) push("No controls recorded.");
    for (const c of a.controls) {
      push(
        `- ${mdText(c.name)}: stops ${mdText(c.stops)}; leaves ${mdText(c.residue)}; ${c.cuts ? "**cuts the path**" : "narrows its ends, does not cut the path"}`,
      );
    }
    push("", "### Residue", "", mdQuote(a.residueStatement), "");
  }

  const statements = review.controls.statementsOfIntent;
  if (statements.length > 0) {
    push("## Statements of intent", "");
    push(
      "Recorded as written. Prose is not a control: these have no position in the path and count for nothing above.",
      "",
    );
    for (const s of statements)
      push(`- ${mdText(s.text)}${s.where ? ` (${mdText(s.where)})` : ""}`);
    push("");
  }
  return (
    lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trimEnd() + "\n"
  );
}
