/**
 * The controls, as a registry: the one list the analysis, the decision binding, the graph and the
 * UI iterate instead of naming controls. Each entry is one module's definition (types.ts
 * `ControlDefinition`): its catalog entry, how it is evaluated, where it is missing, its residue
 * clauses, what a decision binds of it, the conditions it offers and where the graph draws it.
 *
 * The order is the path's, from the source end to the sink: the server's token and outbound
 * traffic, the session's composition, the sink call. Tables, tooltips and reports list controls in
 * this order. How to add one: docs/controls.md.
 */
import type { AgentId, ServerId } from "@/lib/ids";
import { approvalControl } from "./approval";
import type { ControlCatalogEntry } from "./catalog";
import { credentialControl } from "./credential";
import { egressControl } from "./egress";
import { separationControl } from "./separation";
import type { AnyControlDefinition, ControlEvaluationBase } from "./types";

export const CONTROLS = [
  credentialControl,
  egressControl,
  separationControl,
  approvalControl,
] as const satisfies readonly AnyControlDefinition[];

/** A registry: the built-in one, or a test's own (which may add controls to it). */
export type ControlRegistry = readonly AnyControlDefinition[];

export type ControlId = (typeof CONTROLS)[number]["entry"]["id"];
export const CONTROL_IDS: readonly ControlId[] = CONTROLS.map((c) => c.entry.id);

/** Every control's catalog entry, in registry order. */
export const CONTROL_CATALOG: readonly ControlCatalogEntry[] = CONTROLS.map((c) => c.entry);

/** The definition of a registry id; undefined for an id the registry does not hold. */
export function controlDefinition(
  id: string,
  registry: ControlRegistry = CONTROLS,
): AnyControlDefinition | undefined {
  return registry.find((c) => c.entry.id === id);
}

/** The catalog entry of a control id. */
export function controlEntry(
  id: string,
  registry: ControlRegistry = CONTROLS,
): ControlCatalogEntry {
  const entry = controlDefinition(id, registry)?.entry;
  if (!entry) throw new Error(`control ${id} is not in the registry`); // ids come from evaluations the same registry produced
  return entry;
}

/** The evaluation type a definition produces. */
export type EvaluationOf<D> = D extends { evaluate: (...args: never[]) => (infer E)[] } ? E : never;

/** The analysis's `controls` fields the registry's controls fill: `credentials: CredentialEvaluation[]`, `separation: SeparationEvaluation`… */
export type EvaluationsByKey<R extends ControlRegistry> = {
  [D in R[number] as D["output"]["key"]]: D["output"]["single"] extends true
    ? EvaluationOf<D>
    : EvaluationOf<D>[];
};

/** A control's evaluations from the analysis's `controls` (one object for a review-wide control). */
export function evaluationsOf(
  controls: object,
  definition: AnyControlDefinition,
): ControlEvaluationBase[] {
  const value = (controls as Record<string, unknown>)[definition.output.key];
  if (value === undefined) return [];
  return (definition.output.single ? [value] : value) as ControlEvaluationBase[];
}

/** Every configured evaluation of `controls`, control by control in registry order. */
export function controlEvaluations(
  controls: object,
  registry: ControlRegistry = CONTROLS,
): ControlEvaluationBase[] {
  return registry.flatMap((d) => evaluationsOf(controls, d));
}

type ConfigLists = Record<string, readonly unknown[]>;

/** Each configuration of the registry's controls mapped by `map`; a null result removes it. */
function mapConfigs<T extends object>(
  controls: T,
  map: (definition: AnyControlDefinition, config: unknown) => unknown,
  registry: ControlRegistry,
): T {
  const out: ConfigLists = { ...(controls as unknown as ConfigLists) };
  for (const definition of registry) {
    if (!definition.config) continue;
    const list = out[definition.config.key];
    if (!list) continue;
    out[definition.config.key] = list.map((c) => map(definition, c)).filter((c) => c !== null);
  }
  return out as unknown as T; // safe: only the registry's lists are replaced, by lists of their own items
}

/** The review's controls without a removed server: its configurations dropped, references to it removed. */
export function controlsWithoutServer<T extends object>(
  controls: T,
  serverId: ServerId,
  registry: ControlRegistry = CONTROLS,
): T {
  return mapConfigs(controls, (d, c) => d.config!.withoutServer(c, serverId), registry);
}

/** The review's controls without a removed agent. */
export function controlsWithoutAgent<T extends object>(
  controls: T,
  agentId: AgentId,
  registry: ControlRegistry = CONTROLS,
): T {
  return mapConfigs(controls, (d, c) => d.config!.withoutAgent(c, agentId), registry);
}

/**
 * The review's controls after `agentId` was split into itself (the reference agent) and
 * `deployAgentId` (its sinks): each configuration as its control's `afterSplit` moves it, or as it
 * was (lib/controls/split.ts).
 */
export function controlsAfterSplit<T extends object>(
  controls: T,
  agentId: AgentId,
  deployAgentId: AgentId,
  registry: ControlRegistry = CONTROLS,
): T {
  return mapConfigs(
    controls,
    (d, c) => d.config!.afterSplit?.(c, agentId, deployAgentId) ?? c,
    registry,
  );
}
