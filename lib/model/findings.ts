/**
 * Findings: every conclusion the analysis or a control draws, with a stable id, a severity and a
 * `why` that names the roles, tools, sources and configuration fields it rests on, and whether it
 * rests on a confirmed role or on a suggestion. A finding without its why would be an assertion.
 */
import type { AgentId, ServerId, SourceId } from "@/lib/ids";
import type { ToolRole } from "@/lib/review/schema";
import type { FindingId, NodeId, PathId, ToolKey } from "./ids";

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A role a finding rests on; the reasons behind a suggested role are on the tool (`Analysis.tools[].suggestedRoles`). */
export type RoleEvidence = { tool: ToolKey; role: ToolRole; origin: "confirmed" | "suggested" };

/** A configuration field a finding is about, by dotted path into the review or the policy. */
export type ConfigEvidence = { path: string; value: string; line?: number; column?: number };

export type FindingWhy = {
  summary: string;
  roles: RoleEvidence[];
  tools: ToolKey[];
  sources: SourceId[];
  config: ConfigEvidence[];
  /** True when any role evidence is a suggestion rather than a reviewer's confirmation. */
  reliesOnSuggestions: boolean;
};

export type Finding = {
  id: FindingId;
  kind: string;
  severity: Severity;
  title: string;
  /** The control this finding belongs to, from the catalog; null for path-analysis findings. */
  controlId: string | null;
  subject: { agentId?: AgentId; serverId?: ServerId; tool?: ToolKey };
  why: FindingWhy;
  nodeIds: NodeId[];
  pathIds: PathId[];
};

/** A why with defaults, so call sites name only what they have. */
export function why(
  summary: string,
  parts: Partial<Omit<FindingWhy, "summary" | "reliesOnSuggestions">> = {},
): FindingWhy {
  const roles = parts.roles ?? [];
  return {
    summary,
    roles,
    tools: parts.tools ?? [],
    sources: parts.sources ?? [],
    config: parts.config ?? [],
    reliesOnSuggestions: roles.some((r) => r.origin === "suggested"),
  };
}

const SEVERITY_RANK: Record<Severity, number> = {
  critical: 0,
  high: 1,
  medium: 2,
  low: 3,
  info: 4,
};

/** Deterministic order: severity, then id. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort(
    (a, b) =>
      SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}
