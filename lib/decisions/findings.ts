/**
 * The open findings of a decision: what the analysis says about the decision's agent and tool set
 * (and its server), each with an id that stays the same while what it is about stays the same.
 * An approval never stands silently on an open critical or high finding: each is removed by a
 * condition of the approval or accepted by a named owner, with a reason and an end date.
 *
 * - Paths: one finding per pair of ends, from a source untrusted text is written into to a
 *   sensitive sink the agent holds (the union property: every such pair is a path, whichever
 *   returning tool carries the text). Critical when the source's writers are unbounded
 *   ("everyone with an email address", "anyone with a web server"), else high, as the analysis's
 *   own path finding grades them.
 * - Every other analysis finding about the agent, the decision's server or the whole review (the
 *   trifecta, a broken Rule of Two, controls absent or failing, shadowing, mentions of held tools),
 *   and a blocked pin on any server the agent holds tools of.
 * - Suspicious text (lib/surface/suspicious.ts) in the items the agent holds and the instructions
 *   of their servers: detection, never a control; medium or low, so it is listed, never required.
 *
 * A finding id is `fnd-` and the first 24 hex of SHA-256 over the RFC 8785 JSON of `{kind, subject}`
 * (docs/analysis.md § Decision finding ids): the wording, severity and counts are not hashed, so a
 * reworded title or a new writer count keeps the id, and a new pair of ends is a new finding.
 * Pure.
 */
import { canonicalJson, canonicalSha256, sha256Hex } from "@/lib/hash";
import type { Analysis } from "@/lib/analysis/analyze";
import { SEVERITIES, type Finding, type Severity } from "@/lib/model/findings";
import { nodeIds, splitToolKey, type ToolKey } from "@/lib/model/ids";
import { shownName } from "@/lib/model/prose";
import type { AcceptedRisk, DecisionCondition, Review } from "@/lib/review/schema";
import type { SuspiciousFlag, SuspiciousKind } from "@/lib/surface/suspicious";

export type DecisionFinding = {
  /** `fnd-` + 24 hex (see the module comment). */
  id: string;
  kind: string;
  severity: Severity;
  /** What the reviewer is shown, and what an acceptance records. */
  text: string;
  /** A path's ends (where the untrusted text is written, the sink it reaches); null for other findings. */
  ends: { from: string; to: string } | null;
  /** What the finding is about, as ids: conditions are matched against it. */
  subject: { agentId?: string; serverId?: string };
};

/** The severities an approval may not leave open: each needs a condition that removes it or an acceptance. */
export const SEVERITIES_REQUIRING_ACCEPTANCE: readonly Severity[] = ["critical", "high"];
export const requiresAcceptance = (f: Pick<DecisionFinding, "severity">) =>
  SEVERITIES_REQUIRING_ACCEPTANCE.includes(f.severity);

/** The stable id of a decision finding: a hash of its kind and subject, never of its wording. */
export function decisionFindingId(kind: string, subject: unknown): string {
  return `fnd-${canonicalSha256({ kind, subject }).slice(0, 24)}`;
}

/**
 * `decisionFindingId("path.to_sensitive_sink", { agentId, from, to })` from the canonical JSON of
 * each part (`canonicalJson`, which also refuses what it cannot write), so a part shared by many
 * paths is written once: an agent of the 5,000-tool review has 7,850 paths from about fifty heads
 * to about 150 sinks, and the Summary names them for every agent. The text is RFC 8785's for this
 * shape: the keys are in code-unit order and each part is already canonical.
 */
export function pathFindingId(agentJson: string, fromJson: string, toJson: string): string {
  const canonical = `{"kind":"${PATH_KIND}","subject":{"agentId":${agentJson},"from":${fromJson},"to":${toJson}}}`;
  return `fnd-${sha256Hex(canonical).slice(0, 24)}`;
}
const PATH_KIND = "path.to_sensitive_sink";

const UNBOUNDED_KINDS = new Set(["everyone_with_an_email_address", "anyone_with_a_web_server"]);

/** How a suspicious-text flag is graded here: as the SARIF export grades it (lib/exports/sarif-rules.ts FLAG_WORDS). */
const FLAG_SEVERITY: Record<SuspiciousKind, Severity> = {
  hidden_unicode: "medium",
  ansi_escape: "medium",
  markup: "low",
  instruction_phrase: "medium",
  concealment_phrase: "medium",
  tool_mention: "low",
};
const FLAG_WORD: Record<SuspiciousKind, string> = {
  hidden_unicode: "hidden characters",
  ansi_escape: "ANSI escape sequences",
  markup: "markup",
  instruction_phrase: "instruction-like phrasing",
  concealment_phrase: "concealment phrasing",
  tool_mention: "a mention of another tool",
};
const LIST_WORD: Record<SuspiciousFlag["list"], string> = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
  instructions: "instructions",
};
const MAX_EXCERPT = 120;

export type DecisionFindingsInput = {
  analysis: Pick<Analysis, "agents" | "graph" | "tools" | "findings" | "toolLists">;
  review: Pick<Review, "servers" | "agents">;
  serverId: string;
  agentId: string;
  /** The suspicious-text flags of each server's current surface; omitted: none listed. */
  surfaceFlags?: readonly { serverId: string; flags: readonly SuspiciousFlag[] }[];
};

const rank = (s: Severity) => SEVERITIES.indexOf(s);

/** Every open finding of a decision about (server, agent), most severe first, then by id. */
export function decisionFindings(input: DecisionFindingsInput): DecisionFinding[] {
  return findingsAbout(input, new Set([input.serverId]));
}

/**
 * What the Summary shows of an agent's open findings, the union of `decisionFindings` over every
 * server it holds tools of (none when it holds none), counted by severity: its paths, and
 * everything else. Only the findings about a server depend on which server a decision is about,
 * so the rest is found once, not once per server (about fifty on the 5,000-tool review); and the
 * paths are counted from their ends, never written out: an agent there has 7,850, and the reviews
 * list counts every agent of every review.
 */
export function agentFindingCounts(input: Omit<DecisionFindingsInput, "serverId">): {
  paths: Record<Severity, number>;
  other: Record<Severity, number>;
} {
  const paths = severityCounts();
  const other = severityCounts();
  const agent = input.review.agents.find((a) => a.id === input.agentId);
  const servers = new Set((agent?.tools ?? []).map((t) => t.serverId));
  const ends = servers.size === 0 ? null : pathEnds(input);
  if (ends) for (const head of ends.heads) paths[head.severity] += ends.sinks.length;
  for (const f of servers.size === 0 ? [] : otherFindings(input, servers)) other[f.severity]++;
  return { paths, other };
}
const severityCounts = (): Record<Severity, number> =>
  Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;

/**
 * The ends of an agent's paths: every source head it reads (once each) to every sink it holds
 * (once each), with the words a finding names them by. Null when the agent has no path.
 */
function pathEnds(input: Omit<DecisionFindingsInput, "serverId">) {
  const { analysis, review, agentId } = input;
  const agent = review.agents.find((a) => a.id === agentId);
  const agentView = analysis.agents.find((a) => a.agentId === agentId);
  if (!agent || !agentView || !agentView.holdsBoth || agentView.pathCount === 0) return null;
  const nodes = new Map(analysis.graph.nodes.map((n) => [n.id as string, n]));
  const tools = new Map(analysis.tools.map((t) => [t.key as string, t]));
  const agentName = shownName(agent.name);
  // Each sink's words are the same from every source: written once, not once per path.
  const sinks = [...new Set(agentView.sinkTools)].map((sink) => {
    const roles = tools.get(sink)?.sinkRoles ?? [];
    const to = toolText(review, sink);
    return {
      sink,
      to,
      reach: `${to}${roles.length > 0 ? ` (${roles.join(", ")})` : ""} in ${agentName}`,
    };
  });
  const heads = [...new Set(agentView.heads)].flatMap((headId) => {
    const source = nodes.get(headId);
    if (source?.kind !== "source") return [];
    const writers = nodes.get(nodeIds.writers(source.head));
    const bound = writers?.kind === "writers" ? writers.bound : null;
    const severity: Severity = bound && UNBOUNDED_KINDS.has(bound.kind) ? "critical" : "high";
    const from = `${shownName(source.label)} (writers: ${bound?.label ?? "not entered"})`;
    return [{ head: source.head, from, severity }];
  });
  return { agentId, heads, sinks };
}

const serverNameIn = (review: Pick<Review, "servers">, id: string) =>
  shownName(review.servers.find((s) => s.id === id)?.name ?? id);
function toolText(review: Pick<Review, "servers">, key: ToolKey) {
  const { serverId, tool } = splitToolKey(key);
  return `${shownName(tool)} on ${serverNameIn(review, serverId)}`;
}

/** The open findings of a decision about any server of `serverIds` and the input's agent. */
function findingsAbout(
  input: Omit<DecisionFindingsInput, "serverId">,
  serverIds: ReadonlySet<string>,
): DecisionFinding[] {
  const out = otherFindings(input, serverIds);
  // Paths, by their ends.
  const ends = pathEnds(input);
  if (ends) {
    const agentJson = canonicalJson(ends.agentId);
    const sinks = ends.sinks.map((s) => ({ ...s, toJson: canonicalJson(s.sink) }));
    for (const { head, from, severity } of ends.heads) {
      const fromJson = canonicalJson(head);
      for (const { toJson, to, reach } of sinks) {
        out.push({
          id: pathFindingId(agentJson, fromJson, toJson),
          kind: PATH_KIND,
          severity,
          text: `Text written into ${from} can reach ${reach}`,
          ends: { from, to },
          subject: { agentId: ends.agentId },
        });
      }
    }
  }
  const unique = new Map<string, DecisionFinding>();
  for (const f of out) if (!unique.has(f.id)) unique.set(f.id, f);
  return [...unique.values()].sort(
    (a, b) => rank(a.severity) - rank(b.severity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * The open findings other than paths of a decision about any server of `serverIds` and the
 * input's agent, each once.
 */
function otherFindings(
  input: Omit<DecisionFindingsInput, "serverId">,
  serverIds: ReadonlySet<string>,
): DecisionFinding[] {
  const { analysis, review, agentId } = input;
  const agent = review.agents.find((a) => a.id === agentId);
  const agentView = analysis.agents.find((a) => a.agentId === agentId);
  if (!agent || !agentView) return [];
  const serverName = (id: string) => serverNameIn(review, id);
  const out: DecisionFinding[] = [];

  // Everything else the analysis found about this agent, this server or the whole review.
  const heldServers = new Set<string>(agent.tools.map((t) => t.serverId));
  const inScope = (f: Finding) => {
    if (f.kind === "path.to_sensitive_sink") return false; // listed by its ends above
    const s = f.subject;
    if (f.kind === "server.blocked") return s.serverId !== undefined && heldServers.has(s.serverId);
    if (s.agentId !== undefined) return s.agentId === agentId;
    if (s.serverId !== undefined) return serverIds.has(s.serverId);
    return true;
  };
  for (const f of analysis.findings) {
    if (!inScope(f)) continue;
    out.push({
      id: decisionFindingId(f.kind, f.id),
      kind: f.kind,
      severity: f.severity,
      text: f.title,
      ends: null,
      subject: {
        ...(f.subject.agentId !== undefined ? { agentId: f.subject.agentId } : {}),
        ...(f.subject.serverId !== undefined ? { serverId: f.subject.serverId } : {}),
      },
    });
  }

  // Suspicious text in what the agent holds, one finding per item and kind of flag.
  const heldNames = new Set(agent.tools.map((t) => `${t.serverId}\u0000${t.tool}`));
  const seen = new Set<string>();
  for (const { serverId: sid, flags } of input.surfaceFlags ?? []) {
    if (!heldServers.has(sid)) continue;
    for (const flag of flags) {
      const held = flag.list === "instructions" || heldNames.has(`${sid}\u0000${flag.key}`);
      if (!held) continue;
      const subject = { serverId: sid, list: flag.list, key: flag.key, flag: flag.kind };
      const id = decisionFindingId(`surface.flag.${flag.kind}`, subject);
      if (seen.has(id)) continue;
      seen.add(id);
      const where =
        flag.list === "instructions"
          ? `the instructions of ${serverName(sid)}`
          : `${LIST_WORD[flag.list]} ${shownName(flag.key)} on ${serverName(sid)}`;
      const excerpt =
        flag.revealed.length > MAX_EXCERPT
          ? `${flag.revealed.slice(0, MAX_EXCERPT)}…`
          : flag.revealed;
      out.push({
        id,
        kind: `surface.flag.${flag.kind}`,
        severity: FLAG_SEVERITY[flag.kind],
        text: `${FLAG_WORD[flag.kind]} in ${flag.field || "the text"} of ${where}: ${excerpt}`,
        ends: null,
        subject: { serverId: sid },
      });
    }
  }

  const unique = new Map<string, DecisionFinding>();
  for (const f of out) if (!unique.has(f.id)) unique.set(f.id, f);
  return [...unique.values()];
}

/**
 * The finding kinds each condition removes once it holds, about the condition's own server or
 * agent. Only the controls' own conditions remove findings: a path, the trifecta or a broken Rule
 * of Two is removed by changing the tool set (which makes a new decision), never by a condition.
 */
const REMOVED_BY: Partial<Record<DecisionCondition["kind"], readonly string[]>> = {
  credential_read_only: [
    "credential.scope_admin",
    "credential.scope_write",
    "credential.scope_wildcard",
    "credential.scope_not_read_only",
  ],
  egress_default_deny: [
    "egress.absent",
    "egress.denylist",
    "egress.default_allow",
    "egress.not_restricting",
    "egress.cannot_evaluate",
  ],
  approval_out_of_band: ["approval.absent", "approval.in_band"],
};

/** Whether `condition`, once it holds, removes `finding`. */
export function conditionRemoves(condition: DecisionCondition, finding: DecisionFinding): boolean {
  const kinds = REMOVED_BY[condition.kind];
  if (!kinds?.includes(finding.kind)) return false;
  if ("serverId" in condition) return finding.subject.serverId === condition.serverId;
  if ("agentId" in condition) return finding.subject.agentId === condition.agentId;
  return false;
}

export type FindingCoverage =
  | { by: "condition"; condition: DecisionCondition }
  | { by: "acceptance"; acceptance: AcceptedRisk }
  | { by: null };

/** How an open finding is covered by a decision: a condition that removes it, an acceptance of its id, or nothing. */
export function findingCoverage(
  finding: DecisionFinding,
  conditions: readonly DecisionCondition[],
  acceptedRisks: readonly AcceptedRisk[],
): FindingCoverage {
  const condition = conditions.find((c) => conditionRemoves(c, finding));
  if (condition) return { by: "condition", condition };
  const acceptance = acceptedRisks.find((a) => a.findingId === finding.id);
  if (acceptance) return { by: "acceptance", acceptance };
  return { by: null };
}

/** The critical and high findings an approval with these conditions and acceptances leaves uncovered. */
export function uncoveredFindings(
  findings: readonly DecisionFinding[],
  conditions: readonly DecisionCondition[],
  acceptedRisks: readonly AcceptedRisk[],
): DecisionFinding[] {
  return findings.filter(
    (f) => requiresAcceptance(f) && findingCoverage(f, conditions, acceptedRisks).by === null,
  );
}
