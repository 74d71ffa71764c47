/**
 * All controls of a review, evaluated from configuration over the shared analysis model, plus the
 * statements of intent (shown, never counted) and the composed residue. The controls are the
 * registry's (registry.ts); nothing here names one. Detection flags are not an input here at all:
 * they are never a control (catalog.ts § NOT_CONTROLS).
 *
 * "Relay servers" are the servers with at least one tool returning untrusted text: those are the
 * servers whose token and outbound traffic the server-scoped controls are about, so a relay server
 * without them has the control "absent".
 */
import { findingId, splitToolKey, type NodeId, type ToolKey } from "@/lib/model/ids";
import { why, type Finding } from "@/lib/model/findings";
import type { AnalysisModel } from "@/lib/model/model";
import { shownName } from "@/lib/model/prose";
import type { AgentId, ServerId } from "@/lib/ids";
import { NOT_CONTROLS, type NotAControl } from "./catalog";
import { statementsOfIntent, type StatementOfIntentView } from "./intent";
import { CONTROLS, type ControlRegistry, type EvaluationsByKey } from "./registry";
import { composeResidue, type ResidueStatement } from "./residue";
import type {
  AnyControlDefinition,
  ControlContext,
  ControlEvaluationBase,
  MissingControl,
} from "./types";

export type AbsentControl = ControlEvaluationBase & { status: "absent"; reason: string };

/**
 * The controls of a review: each control's evaluations under its output key (`credentials`,
 * `egress`, `approvals`, `separation`), then the controls missing where they would sit.
 */
export type ControlsEvaluation<R extends ControlRegistry = typeof CONTROLS> =
  EvaluationsByKey<R> & {
    /** Controls missing where they would sit. */
    absent: AbsentControl[];
    statementsOfIntent: StatementOfIntentView[];
    notControls: readonly NotAControl[];
    residue: ResidueStatement;
    /** Every control finding, in evaluation order. */
    findings: Finding[];
  };

function absent(definition: AnyControlDefinition, missing: MissingControl): AbsentControl {
  const { entry } = definition;
  const controlId = entry.id;
  return {
    controlId,
    scope: missing.scope,
    status: "absent",
    sitsAt: entry.sitsAt,
    cutsPath: false,
    stops: entry.stops,
    residue: entry.residue,
    summary: missing.reason,
    reason: missing.reason,
    attachesTo: missing.attachesTo,
    findings: [
      {
        id: findingId(`${controlId}.absent`, missing.key),
        kind: `${controlId}.absent`,
        severity: "medium",
        title: `No ${entry.name.toLowerCase()} configured`,
        controlId,
        subject: missing.subject,
        why: why(missing.reason),
        nodeIds: missing.attachesTo,
        pathIds: [],
      },
    ],
  };
}

/** What every control's evaluation reads: the model, the relay servers and names for prose. */
export function controlContext(model: AnalysisModel): ControlContext {
  // Per relay server, the graph nodes of its returning tools (the tools' own node ids, in key order).
  const returningByServer = new Map<ServerId, NodeId[]>();
  const all = model.toolsInOrder;
  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    if (t.headNodes.length === 0) continue;
    const list = returningByServer.get(t.serverId);
    if (list) list.push(t.returningNodeId);
    else returningByServer.set(t.serverId, [t.returningNodeId]);
  }
  const serverName = (id: ServerId) => shownName(model.serverNames.get(id) ?? id);
  return {
    model,
    relayServers: [...returningByServer.keys()].sort(),
    serverNodes: (id) => returningByServer.get(id) ?? [],
    serverName,
    agentName: (id: AgentId) => model.agents.find((a) => a.id === id)?.name ?? id,
    // A tool as a sentence names it: its name, and its server's name where it could be another's.
    toolName: (key: ToolKey) => {
      const { serverId, tool } = splitToolKey(key);
      return `${shownName(tool)} on ${serverName(serverId)}`;
    },
  };
}

/** Caveats read from the sink call back to the source: the control nearest the call first. */
const CAVEAT_ORDER = { sink_end: 0, path: 1, source_end: 2 } as const;

/** Evaluate every control of the registry (the built-in one unless a test brings its own). */
export function evaluateControls<R extends ControlRegistry = typeof CONTROLS>(
  model: AnalysisModel,
  registry: R = CONTROLS as unknown as R, // safe: R defaults to the type of CONTROLS
): ControlsEvaluation<R> {
  const ctx = controlContext(model);
  const evaluated = registry.map((definition) => ({
    definition,
    evaluations: definition.evaluate(ctx) as ControlEvaluationBase[],
  }));

  // Missing controls: server scopes (in relay-server order) before agent scopes (in agent order),
  // the registry's order within one scope.
  const scopeRank = ({ scope }: MissingControl) => {
    if (scope.kind === "server") return ctx.relayServers.indexOf(scope.serverId);
    const agentId = scope.agentId;
    return ctx.relayServers.length + model.agents.findIndex((a) => a.id === agentId);
  };
  const missing = registry.flatMap((definition, d) =>
    definition.missing(ctx).map((m, i) => ({ m, definition, d, i, rank: scopeRank(m) })),
  );
  missing.sort((a, b) => a.rank - b.rank || a.d - b.d || a.i - b.i);
  const absentControls = missing.map(({ definition, m }) => absent(definition, m));

  const presence = new Map(
    evaluated.map(({ definition, evaluations }) => [
      definition.entry.id,
      definition.present(evaluations, ctx),
    ]),
  );
  const isPresent = (id: string) => presence.get(id) ?? false;
  const caveats = evaluated
    .map((e, d) => ({ ...e, d }))
    .sort(
      (a, b) =>
        CAVEAT_ORDER[a.definition.entry.acts] - CAVEAT_ORDER[b.definition.entry.acts] || a.d - b.d,
    )
    .flatMap(({ definition, evaluations }) =>
      evaluations
        .filter((e) => e.status !== "holds")
        .map((e) => definition.caveat(e, ctx))
        .filter((c): c is string => c !== null),
    );
  const residue = composeResidue(
    registry.map((definition) => definition.residue(isPresent, ctx)),
    caveats,
  );

  // The analysis JSON lists each control's evaluations under its key: per-configuration controls
  // first, then the review-wide ones.
  const byKey: Record<string, unknown> = {};
  for (const { definition, evaluations } of evaluated)
    if (!definition.output.single) byKey[definition.output.key] = evaluations;
  for (const { definition, evaluations } of evaluated)
    if (definition.output.single) byKey[definition.output.key] = evaluations[0];

  const findings = evaluated
    .flatMap(({ evaluations }) => evaluations.flatMap((e) => e.findings))
    .concat(absentControls.flatMap((a) => a.findings));
  return {
    ...byKey,
    absent: absentControls,
    statementsOfIntent: statementsOfIntent(model.review.controls.statementsOfIntent),
    notControls: NOT_CONTROLS,
    residue,
    findings,
  } as ControlsEvaluation<R>; // safe: byKey holds every registry key, each with its evaluations
}
