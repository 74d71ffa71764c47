/**
 * Builds what the Graph section receives (`lib/graph/section.ts`) from one `Analysis`: the default
 * view's nodes or the whole graph, and the controls resolved against the registry, so the browser
 * needs no control module to draw them. Also a tool's role reasons and a path's findings, which the
 * section fetches when a reviewer opens them. Pure: the graph route, the share view and the tests
 * build from the same analysis, so they cannot disagree with the analysis route.
 */
import type { Analysis, GraphNode } from "@/lib/analysis/analyze";
import {
  controlEvaluations,
  CONTROLS,
  controlDefinition,
  evaluationsOf,
  type ControlRegistry,
} from "@/lib/controls/registry";
import type { ControlEvaluationBase } from "@/lib/controls/types";
import type { AgentId } from "@/lib/ids";
import type { ToolKey } from "@/lib/model/ids";
import {
  focusView,
  type GraphControl,
  type GraphScope,
  type GraphSectionData,
  type GraphSessionMark,
  type PathDetail,
  type ToolDetail,
} from "./section";
import { sinkGroupId, sinkGroupRole } from "./sink-groups";
import { graphLeg } from "./trifecta";

/** The group key a node is drawn in (as components/graph/layout.ts groups them), or null. */
function groupOf(n: GraphNode): string | null {
  if (n.kind === "sink") return `group:sink:${sinkGroupId(n.group, sinkGroupRole(n.sinkRoles))}`;
  if (n.kind === "returning") return `group:${n.kind}:${n.group}`;
  if (n.kind === "source" && n.head.kind === "unmapped") {
    const slash = n.head.tool.indexOf("/");
    return `group:unmapped:${n.head.tool.slice(0, slash)}`;
  }
  return null;
}

/**
 * Only what the graph draws of a control: its node list (`attachesTo`) is kept where its registry
 * definition draws on the listed nodes (`sink_call`, each agent → sink call); a control drawn on its
 * server's group or on each agent's session is placed from its scope alone.
 */
function graphControl(c: ControlEvaluationBase, registry: ControlRegistry): GraphControl {
  const drawsOnNodes = controlDefinition(c.controlId, registry)?.graph.kind === "sink_call";
  // The base fields only: a control's own evaluation fields (separation's per-agent plans) are
  // sent where the section uses them, not with every row.
  return {
    controlId: c.controlId,
    scope: c.scope,
    status: c.status,
    sitsAt: c.sitsAt,
    cutsPath: c.cutsPath,
    stops: c.stops,
    residue: c.residue,
    summary: c.summary,
    attachesTo: drawsOnNodes ? c.attachesTo : [],
  };
}

/**
 * The controls of an analysis as the graph and its table show them: every evaluation, configured
 * or absent, in registry order; and, for each control drawn on agent sessions, its mark at each
 * session from its own per-agent verdicts, worded with the agent's name.
 */
function graphControls(
  analysis: Analysis,
  registry: ControlRegistry,
): Pick<GraphSectionData["controls"], "catalog" | "evaluations" | "sessionMarks"> {
  const c = analysis.controls;
  const rank = new Map(registry.map((d, i) => [d.entry.id, i]));
  const evaluations = [...controlEvaluations(c, registry), ...c.absent]
    .map((e) => graphControl(e, registry))
    .sort((a, b) => (rank.get(a.controlId) ?? rank.size) - (rank.get(b.controlId) ?? rank.size));
  const agentName = new Map<AgentId, string>(analysis.agents.map((a) => [a.agentId, a.name]));
  const sessionMarks: GraphSessionMark[] = registry.flatMap((definition) => {
    const placement = definition.graph;
    if (placement.kind !== "agent_sessions") return [];
    return evaluationsOf(c, definition)
      .flatMap((e) => placement.sessions(e))
      .map((m) => {
        const name = agentName.get(m.agentId) ?? m.agentId;
        return {
          controlId: definition.entry.id,
          agentId: m.agentId,
          status: m.status,
          cutsPath: m.cutsPath,
          summary: m.summary(name),
          cut: m.cut ? m.cut(name) : null,
        };
      });
  });
  return {
    catalog: registry.map((d) => ({
      id: d.entry.id,
      name: d.entry.name,
      canCutPath: d.entry.canCutPath,
      drawnOn: d.graph.kind,
    })),
    evaluations,
    sessionMarks,
  };
}

const leg = (l: { present: boolean }) => ({ present: l.present });

/**
 * The Graph section's view of an analysis: the default view's nodes, or the whole graph. `registry`
 * is the one the analysis was made with (a test's own may add controls).
 */
export function graphSectionData(
  analysis: Analysis,
  scope: GraphScope,
  registry: ControlRegistry = CONTROLS,
): GraphSectionData {
  const focus = focusView(analysis);
  const keep = scope === "focus" && focus ? focus.nodes : null;
  const nodes = keep ? analysis.graph.nodes.filter((n) => keep.has(n.id)) : analysis.graph.nodes;
  const edges = keep
    ? analysis.graph.edges.filter((e) => keep.has(e.from) && keep.has(e.to))
    : analysis.graph.edges;
  const groupTotals: Record<string, number> = {};
  for (const n of analysis.graph.nodes) {
    const k = groupOf(n);
    if (k) groupTotals[k] = (groupTotals[k] ?? 0) + 1;
  }
  const sinks = new Set<ToolKey>(analysis.paths.listed.map((p) => p.sink));
  const c = analysis.controls;
  return {
    version: analysis.version,
    scope: keep ? "focus" : "whole",
    wholeNodeCount: analysis.graph.nodes.length,
    focus: focus ? { basis: focus.basis, nodeCount: focus.nodes.size } : null,
    groupTotals,
    toolLists: analysis.toolLists,
    sources: analysis.sources.map((s) => ({
      id: s.id,
      name: s.name,
      writersNodeId: s.writersNodeId,
      reasons: s.reasons,
    })),
    tools: analysis.tools
      .filter((t) => sinks.has(t.key))
      .map((t) => ({ key: t.key, rolesOrigin: t.rolesOrigin })),
    graph: { nodes, edges },
    agents: analysis.agents.map((a) => ({
      agentId: a.agentId,
      name: a.name,
      nodeId: a.nodeId,
      toolCount: a.tools.length,
      returningTools: a.returningTools,
      sinkTools: a.sinkTools,
      holdsBoth: a.holdsBoth,
      pathCount: a.pathCount,
      trifecta: {
        met: a.trifecta.met,
        untrustedInput: graphLeg(a.trifecta.untrustedInput),
        privateData: graphLeg(a.trifecta.privateData),
        outboundCommunication: graphLeg(a.trifecta.outboundCommunication),
      },
      ruleOfTwo: {
        untrustedInput: leg(a.ruleOfTwo.untrustedInput),
        sensitiveDataOrSystems: leg(a.ruleOfTwo.sensitiveDataOrSystems),
        stateChange: leg(a.ruleOfTwo.stateChange),
        outboundCommunication: leg(a.ruleOfTwo.outboundCommunication),
        count: a.ruleOfTwo.count,
        violated: a.ruleOfTwo.violated,
      },
      controlsOnPath: a.controlsOnPath,
      reliesOnSuggestions: a.reliesOnSuggestions,
    })),
    paths: analysis.paths,
    controls: {
      ...graphControls(analysis, registry),
      separation: {
        inPlace: c.separation.inPlace,
        agents: c.separation.agents.map((a) => ({
          agentId: a.agentId,
          holdsBoth: a.holdsBoth,
          returningTools: a.returningTools,
          split: a.split,
        })),
      },
      statementsOfIntent: c.statementsOfIntent,
      residue: c.residue,
    },
  };
}

/** A tool's roles with every reason behind each, for its node's tooltip and description. */
export function toolDetail(analysis: Pick<Analysis, "tools">, key: string): ToolDetail | null {
  const t = analysis.tools.find((x) => x.key === key);
  return t
    ? { key: t.key, roles: t.roles, rolesOrigin: t.rolesOrigin, suggestedRoles: t.suggestedRoles }
    : null;
}

/** The findings about a path: those naming it, then those about a node on it that name no path. */
export function pathDetail(
  analysis: Pick<Analysis, "findings" | "paths">,
  pathId: string,
): PathDetail | null {
  const p = analysis.paths.listed.find((x) => x.id === pathId);
  if (!p) return null;
  const nodes = new Set<string>(p.nodeIds);
  return {
    pathId,
    onPath: analysis.findings.filter((f) => f.pathIds.includes(p.id)),
    atNodes: analysis.findings.filter(
      (f) => f.pathIds.length === 0 && f.nodeIds.some((n) => nodes.has(n)),
    ),
  };
}
