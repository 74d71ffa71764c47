/**
 * Suggested tool roles. A suggestion is a hint for the reviewer, never a fact: it weighs the name's
 * verb, the HTTP method of OpenAPI-style names, the input schema, the description (weakly) and the
 * annotations, which are server-authored claims (see ./infer), then what the review says of the
 * tool's sources: a tool mapped to sources returns their text, and one mapped to a confidential or
 * secret source reads private data. Every suggested role carries its reasons and a confidence, so
 * the UI can show why, sort the uncertain first, and the reviewer can confirm or strike it. Only
 * an assessment with `rolesConfirmed: true` is authoritative (see `resolveRoles`).
 */
import type { SourceConfidentiality, ToolAssessment, ToolRole } from "@/lib/review/schema";
import { TOOL_ROLES } from "@/lib/review/schema";
import { annotationCombination, type EffectiveAnnotations } from "@/lib/tools/annotations";
import {
  inferRoles,
  inferRolesShared,
  type Draft,
  type Inference,
  type InferenceMemo,
  type InferInput,
} from "./infer";
import { nameWords } from "./name";

/** What a suggestion is computed from: the tool as listed. */
export type RoleInputTool = {
  name: string;
  description?: string;
  annotations?: Partial<Record<string, unknown>> | null;
  /** The tool's input schema as listed or declared (a JSON Schema object). */
  inputSchema?: unknown;
  /** The tool's output schema as listed or declared: what it returns (a `password`, an `email`). */
  outputSchema?: unknown;
};

/** What the review says around a tool: its server's name, and its sources' names and confidentiality. */
export type RoleContext = {
  serverName?: string;
  sources?: ReadonlyMap<string, { name: string; confidentiality: SourceConfidentiality }>;
};

export type RoleReason = { role: ToolRole; reasons: string[]; confidence: number };

/**
 * A server's annotation claim that contradicts what the tool's name says it does (`readOnlyHint:
 * true` on `delete_branch`, `destructiveHint: true` on a search). The safer reading wins, so a
 * conflict never removes a sink role; it is reported as a finding naming both readings.
 */
export type ClaimConflict = {
  hint: "readOnlyHint" | "destructiveHint" | "idempotentHint" | "openWorldHint";
  claimed: boolean;
  /** What the name says, e.g. `"delete" destroys`. */
  nameReading: string;
  message: string;
};

export type RoleSuggestion = {
  /** Suggested roles in `TOOL_ROLES` order, each with at least one reason. */
  roles: RoleReason[];
  annotations: EffectiveAnnotations;
  /** 0..1: the tool's lowest-confidence decision (a role suggested, or a sink role not suggested); the UI sorts by it. */
  confidence: number;
  /** The leading verb of the tool's name, normalised (`getIssue`, `API-get-issue`, `gitlab_get_issue`: "get"); null when none is known. */
  verb: string | null;
  conflicts: ClaimConflict[];
  /** Why roles were *not* suggested, where that is a judgement (an unannotated read is not a write). */
  notes: string[];
};

export type ResolvedRoles = {
  /** In `TOOL_ROLES` order; a shared, frozen array (see `roleSet`). */
  roles: ToolRole[];
  /** `roles` as a bitmask (see `roleMask`). */
  mask: number;
  /** `confirmed`: the reviewer confirmed the roles; `suggested`: the analysis relies on a suggestion. */
  origin: "confirmed" | "suggested";
  /** Reasons per role: the reviewer's confirmation, or the suggestion's reasons. */
  reasons: RoleReason[];
  suggestion: RoleSuggestion;
};

const ROLE_INDEX = Object.fromEntries(TOOL_ROLES.map((role, i) => [role, i])) as Record<
  ToolRole,
  number
>;

/**
 * Every set of roles as one shared, frozen array in `TOOL_ROLES` order, by bitmask (bit i is
 * `TOOL_ROLES[i]`): there are only 2^5 sets, and a large review resolves 5,000 tools.
 */
const ROLE_SETS: readonly (readonly ToolRole[])[] = Array.from(
  { length: 1 << TOOL_ROLES.length },
  (_, mask) => Object.freeze(TOOL_ROLES.filter((_, i) => (mask & (1 << i)) !== 0)),
);

/** The bitmask of a set of roles (see `roleSet`). */
export function roleMask(roles: readonly ToolRole[]): number {
  let mask = 0;
  for (const role of roles) mask |= 1 << ROLE_INDEX[role];
  return mask;
}

/** The bit of one role in a mask (see `roleMask`). */
export const roleBit = (role: ToolRole): number => 1 << ROLE_INDEX[role];

/** The shared array of the roles in `mask`, in `TOOL_ROLES` order. Frozen: never mutate it. */
export const roleSet = (mask: number): ToolRole[] => ROLE_SETS[mask] as ToolRole[];

/** A suggestion shared by every tool with the same one, with its resolutions (by `resolutionSlot`). */
type SharedSuggestion = { suggestion: RoleSuggestion; resolutions: (ResolvedRoles | undefined)[] };

/**
 * Shares identical results between the tools of one analysis: a large review has 5,000 tools and
 * far fewer distinct suggestions. Everything it hands out is shared, so nothing may mutate a
 * suggestion or a resolution (their arrays of roles are frozen). Suggestions are found by their
 * content: roles, reasons, confidences, verb, conflicts and notes.
 */
export type RoleCache = {
  /** Suggestions with nothing added to their inference, by content (see `suggest`). */
  suggestions: Map<string, SharedSuggestion>;
  /** Inferences by what they depend on, and the suggestion of each when nothing else adds to it. */
  inferences: InferenceMemo;
  plain: Map<Inference, SharedSuggestion>;
  /**
   * The suggestions of inferences with mapped sources or unconfirmed roles, for the sources map
   * `mappedSources` (see `keptMappedFor`): kept across analyses while the sources say the same.
   */
  mapped: KeptMapped | undefined;
  mappedSources: RoleContext["sources"];
};
export const newRoleCache = (): RoleCache => ({
  suggestions: new Map(),
  inferences: new Map(),
  plain: new Map(),
  mapped: undefined,
  mappedSources: undefined,
});

/**
 * The suggestion of an inference with mapped sources or unconfirmed roles, by those (see
 * `additionsKey`): a lookup by a short key instead of building the suggestion and its content key
 * (reasons and all) for every such tool. Valid for one content of the sources map only (`sources`,
 * JSON of its entries: each source's id, name and confidentiality), which the reasons name.
 */
type KeptMapped = {
  sources: string;
  byInference: WeakMap<Inference, Map<string, SharedSuggestion>>;
  /** The characters of the `additionsKey`s and added reasons held, with `KEPT_TOOL_CHARS` per suggestion. */
  chars: number;
};
let keptMapped: KeptMapped | undefined;
export const KEPT_MAPPED_CHARS_MAX = 4_000_000;

/** The characters the last analysis's mapped suggestions count (see `KeptMapped`), for tests. */
export const keptMappedChars = (): number => keptMapped?.chars ?? 0;

/**
 * The mapped suggestions for `sources`: those kept from the last analysis when its sources map
 * held the same (a review is analysed again on every edit, and its sources rarely change), else
 * none. A cache keeps the store it was given, so another analysis with other sources in between
 * never hands it suggestions that name them. Starts empty once it holds `KEPT_MAPPED_CHARS_MAX`.
 */
function keptMappedFor(sources: RoleContext["sources"]): KeptMapped {
  const key = JSON.stringify(sources ? [...sources] : null);
  if (keptMapped?.sources !== key || keptMapped.chars > KEPT_MAPPED_CHARS_MAX)
    keptMapped = { sources: key, byInference: new WeakMap(), chars: 0 };
  return keptMapped;
}

/**
 * What a suggestion adds to its inference, as a key: the mapped sources in order (their names and
 * confidentiality come from the context's sources map) and the roles entered but not confirmed.
 */
function additionsKey(
  sourceIds: readonly string[],
  assessment: Pick<ToolAssessment, "roles" | "rolesConfirmed"> | null | undefined,
): string {
  const entered = assessment && !assessment.rolesConfirmed ? assessment.roles.join(",") : "";
  return `${sourceIds.join("\u0001")}\u0002${entered}`;
}

/** The words of a server's name, and the same as JSON: the first level of `keptInference`. */
type ServerWords = { words: string[]; key: string };
const NO_SERVER: ServerWords = { words: [], key: "[]" };

/** The words of each server name seen, computed once. */
const SERVER_WORDS = new Map<string, ServerWords>();
function serverWordsOf(name: string | undefined): ServerWords {
  if (!name) return NO_SERVER;
  let words = SERVER_WORDS.get(name);
  if (!words) {
    if (SERVER_WORDS.size > 10_000) SERVER_WORDS.clear();
    const list = nameWords(name);
    SERVER_WORDS.set(name, (words = { words: list, key: JSON.stringify(list) }));
  }
  return words;
}

/**
 * Inferences kept across analyses, by the tool exactly as listed: its server's words, name,
 * description, annotations and both schemas. A review is analysed again on every edit and every
 * page that shows it, while its tools change only when a server is inspected anew; the inference
 * is a pure function of these inputs, so a tool seen before needs neither its inference nor the
 * cue key `inferRolesShared` builds from its description and fields.
 *
 * Found level by level, one input per level (server words as JSON, name, description, then the
 * rest), so no name or description a server writes can pass for another split of the same text,
 * and a lookup builds no key from the strings the review already holds: the last level's key is
 * the annotation combination (a number) for a tool without schemas, else JSON of the combination
 * and both schemas. Bounded by the characters of its keys, each level counted for every tool
 * under it, and `KEPT_TOOL_CHARS` per tool: when full it starts empty, as `SERVER_WORDS` does.
 */
type KeptByRest = Map<number | string, Inference>;
type KeptByDescription = Map<string | null, KeptByRest>;
const KEPT_INFERENCES = new Map<string, Map<string, KeptByDescription>>();
let keptChars = 0;
export const KEPT_CHARS_MAX = 16_000_000;

/**
 * What each kept tool counts besides its keys' characters: the maps of its levels (up to three per
 * tool, about a hundred bytes each), so that tools with tiny names cannot hold more entries than
 * whole JSON keys could (about 25 characters each at least).
 */
export const KEPT_TOOL_CHARS = 256;

/** The characters `keptInference` holds in its keys now, with `KEPT_TOOL_CHARS` per tool (at most `KEPT_CHARS_MAX`). */
export const keptInferenceChars = (): number => keptChars;

/**
 * The inference of `input` (whose `serverWords` are `server`'s), kept from an earlier analysis
 * when one had the same tool; otherwise made through `memo` and kept.
 */
function keptInference(input: InferInput, server: ServerWords, memo: InferenceMemo): Inference {
  const description = input.description ?? null;
  const rest =
    input.inputSchema == null && input.outputSchema == null
      ? input.annotationCombination
      : JSON.stringify([
          input.annotationCombination,
          input.inputSchema ?? null,
          input.outputSchema ?? null,
        ]);
  const byRest = KEPT_INFERENCES.get(server.key)?.get(input.name)?.get(description);
  const kept = byRest?.get(rest);
  if (kept) return kept;
  const made = inferRolesShared(input, memo);
  const chars =
    KEPT_TOOL_CHARS +
    server.key.length +
    input.name.length +
    (description?.length ?? 0) +
    (typeof rest === "number" ? 0 : rest.length);
  // A tool longer than the whole bound is not kept at all (a server can list any length).
  if (chars > KEPT_CHARS_MAX) return made;
  if (keptChars + chars > KEPT_CHARS_MAX) {
    KEPT_INFERENCES.clear();
    keptChars = 0;
  }
  let byName = KEPT_INFERENCES.get(server.key);
  if (!byName) KEPT_INFERENCES.set(server.key, (byName = new Map<string, KeptByDescription>()));
  let byDescription = byName.get(input.name);
  if (!byDescription)
    byName.set(input.name, (byDescription = new Map<string | null, KeptByRest>()));
  let last = byDescription.get(description);
  if (!last) byDescription.set(description, (last = new Map<number | string, Inference>()));
  last.set(rest, made);
  keptChars += chars;
  return made;
}

/** `keptInference` of a tool listed by a server named `serverName`, for tests: the kept object itself. */
export function keptInferenceOf(
  input: Omit<InferInput, "serverWords">,
  serverName?: string,
  memo: InferenceMemo = new Map(),
): Inference {
  const server = serverWordsOf(serverName);
  return keptInference({ ...input, serverWords: server.words }, server, memo);
}

const ENTERED_UNCONFIRMED = "entered by the reviewer, not yet confirmed";
const PRIVATE_LEVELS: ReadonlySet<SourceConfidentiality> = new Set(["confidential", "secret"]);

/** Why an item mapped to `sourceIds` reads private data: one reason per confidential or secret source. */
export function privateSourceReasons(
  sourceIds: readonly string[],
  context: RoleContext | undefined,
): string[] {
  return sourceIds.flatMap((id) => {
    const source = context?.sources?.get(id);
    return source && PRIVATE_LEVELS.has(source.confidentiality)
      ? [`mapped to ${source.name}, a ${source.confidentiality} source`]
      : [];
  });
}
const round = (x: number) => Math.round(x * 100) / 100;

/** The suggestion, shared through `cache` when an identical one was made already. */
function suggest(
  tool: RoleInputTool,
  assessment: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null | undefined,
  cache: RoleCache | undefined,
  context: RoleContext | undefined,
): SharedSuggestion {
  const combination = annotationCombination(tool.annotations ?? undefined);
  const server = serverWordsOf(context?.serverName);
  const input = {
    name: tool.name,
    description: tool.description,
    annotationCombination: combination,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    serverWords: server.words,
  };
  const inference = cache ? keptInference(input, server, cache.inferences) : inferRoles(input);
  const sourceIds = assessment?.sourceIds ?? [];
  const plain =
    sourceIds.length === 0 &&
    (!assessment || assessment.rolesConfirmed || assessment.roles.length === 0);
  const knownPlain = plain ? cache?.plain.get(inference) : undefined;
  if (knownPlain) return knownPlain;
  let mapped: Map<string, SharedSuggestion> | undefined;
  let mappedKey = "";
  let store: KeptMapped | undefined;
  if (cache && !plain) {
    store = cache.mapped;
    if (!store || cache.mappedSources !== context?.sources) {
      cache.mapped = store = keptMappedFor(context?.sources);
      cache.mappedSources = context?.sources;
    }
    mapped = store.byInference.get(inference);
    if (!mapped) store.byInference.set(inference, (mapped = new Map<string, SharedSuggestion>()));
    mappedKey = additionsKey(sourceIds, assessment);
    const knownMapped = mapped.get(mappedKey);
    if (knownMapped) return knownMapped;
  }
  // The inference may be shared: what the sources and the reviewer add goes into copies.
  const drafts = new Map<ToolRole, Draft>();
  for (const [role, draft] of inference.roles)
    drafts.set(role, { reasons: draft.reasons.slice(), confidence: draft.confidence });
  // The characters of the reasons added: a kept mapped suggestion counts them (they name its sources).
  let added = 0;
  const add = (role: ToolRole, reason: string, confidence: number) => {
    const draft = drafts.get(role);
    added += reason.length;
    if (!draft) drafts.set(role, { reasons: [reason], confidence });
    else {
      if (!draft.reasons.includes(reason)) draft.reasons.push(reason);
      draft.confidence = Math.max(draft.confidence, confidence);
    }
  };
  if (sourceIds.length > 0) {
    const named = sourceIds.map((id) => context?.sources?.get(id)?.name ?? id);
    add(
      "returns_untrusted_text",
      `returns text from ${sourceIds.length} mapped source(s): ${named.join(", ")}`,
      1,
    );
    for (const reason of privateSourceReasons(sourceIds, context))
      add("reads_private_data", reason, 0.9);
  }
  if (assessment && !assessment.rolesConfirmed)
    for (const role of assessment.roles) add(role, ENTERED_UNCONFIRMED, 0.9);

  const roles: RoleReason[] = [];
  let confidence = inference.notSinkConfidence ?? 1;
  if (
    inference.notSinkConfidence !== null &&
    (drafts.has("writes") || drafts.has("deploys_or_destroys") || drafts.has("network_or_shares"))
  )
    confidence = 1;
  // Plain suggestions are shared by content across inferences (tools that read differently can
  // still come out alike); one with mapped sources or entered roles is shared through `mapped`
  // only: its reasons name its sources, so a content key would be long and almost never match.
  const byContent = plain && cache !== undefined;
  let key = byContent ? `${combination}|${inference.verb ?? ""}` : "";
  for (const role of TOOL_ROLES) {
    const draft = drafts.get(role);
    if (!draft) continue;
    const c = round(draft.confidence);
    confidence = Math.min(confidence, c);
    roles.push({ role, reasons: draft.reasons, confidence: c });
    if (byContent) key += `|${role}:${c}:${draft.reasons.join("\u0001")}`;
  }
  confidence = round(confidence);
  if (byContent) {
    key += `|${confidence}|${inference.conflicts.map((c) => c.message).join("\u0001")}|${inference.notes.join("\u0001")}`;
    const known = cache.suggestions.get(key);
    if (known) {
      cache.plain.set(inference, known);
      return known;
    }
  }
  const made: SharedSuggestion = {
    suggestion: {
      roles,
      annotations: inference.annotations,
      confidence,
      verb: inference.verb,
      conflicts: inference.conflicts,
      notes: inference.notes,
    },
    resolutions: [],
  };
  if (byContent) {
    cache.suggestions.set(key, made);
    cache.plain.set(inference, made);
  }
  if (mapped && store) {
    mapped.set(mappedKey, made);
    store.chars += KEPT_TOOL_CHARS + mappedKey.length + added;
  }
  return made;
}

/**
 * Suggest a tool's roles (see ./infer for the signals). `assessment` contributes the sources mapped
 * to the tool (a tool that returns text from sources returns that text; a confidential or secret
 * one makes it read private data, by `context.sources`) and any roles the reviewer entered but has
 * not confirmed. With a `cache`, a suggestion identical to an earlier one is that one (shared: do
 * not mutate it).
 */
export function suggestRoles(
  tool: RoleInputTool,
  assessment?: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null,
  cache?: RoleCache,
  context?: RoleContext,
): RoleSuggestion {
  return suggest(tool, assessment, cache, context).suggestion;
}

/** A confirmed role's reason, one shared (read-only) entry per role. */
const CONFIRMED = Object.fromEntries(
  TOOL_ROLES.map((role) => [role, { role, reasons: ["confirmed by the reviewer"], confidence: 1 }]),
) as Record<ToolRole, RoleReason>;

/**
 * The roles the analysis uses for a tool: the reviewer's, when confirmed; otherwise the suggestion,
 * marked `suggested` so that every conclusion drawn from it can say so. With a `cache`, identical
 * resolutions are one shared object.
 */
export function resolveRoles(
  tool: RoleInputTool,
  assessment?: ToolAssessment | null,
  cache?: RoleCache,
  context?: RoleContext,
): ResolvedRoles {
  const shared = suggest(tool, assessment, cache, context);
  const suggestion = shared.suggestion;
  const confirmed = assessment?.rolesConfirmed === true;
  let mask = 0;
  if (confirmed) mask = roleMask(assessment.roles);
  else for (const r of suggestion.roles) mask |= 1 << ROLE_INDEX[r.role];
  // One slot per confirmed set of roles, and one past them for "suggested".
  const slot = confirmed ? mask : ROLE_SETS.length;
  const known = shared.resolutions[slot];
  if (known) return known;
  const roles = roleSet(mask);
  const resolved: ResolvedRoles = confirmed
    ? {
        roles,
        mask,
        origin: "confirmed",
        reasons: roles.map((role) => CONFIRMED[role]),
        suggestion,
      }
    : { roles, mask, origin: "suggested", reasons: suggestion.roles, suggestion };
  shared.resolutions[slot] = resolved;
  return resolved;
}
