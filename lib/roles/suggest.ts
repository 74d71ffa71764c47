/**
 * Suggested tool roles. A suggestion is a hint for the reviewer, never a fact: annotations are
 * server-authored claims read at their effective value (an absent hint is the spec's default,
 * which is the unsafe one), and names and descriptions are matched by keyword. Every suggested role
 * carries the reasons that produced it, so the UI can show why and the reviewer can confirm or
 * strike it. Only an assessment with `rolesConfirmed: true` is authoritative (see `resolveRoles`).
 */
import type { ToolAssessment, ToolRole } from "@/lib/review/schema";
import { TOOL_ROLES } from "@/lib/review/schema";
import { annotationCombination, effectiveAnnotationsOf, type EffectiveAnnotations } from "@/lib/tools/annotations";

/** What a suggestion is computed from: the tool as listed. */
export type RoleInputTool = {
  name: string;
  description?: string;
  annotations?: Partial<Record<string, unknown>> | null;
};

export type RoleReason = { role: ToolRole; reasons: string[] };

export type RoleSuggestion = {
  /** Suggested roles in `TOOL_ROLES` order, each with at least one reason. */
  roles: RoleReason[];
  annotations: EffectiveAnnotations;
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

/**
 * Keyword rules, matched against the words of the tool name (split on `_ - . /` and camelCase) and
 * of the description. A rule with `with` fires only when one of those words is also present, which
 * is how "fetch" + "url" differs from "fetch a comment".
 */
type KeywordRule = { role: ToolRole; words: readonly string[]; with?: readonly string[]; why: string };

export const ROLE_KEYWORD_RULES: readonly KeywordRule[] = [
  {
    role: "returns_untrusted_text",
    words: ["search", "read", "get", "fetch", "query", "find", "lookup", "browse", "view", "retrieve", "list", "show", "describe", "summarize", "summarise"],
    why: "returns text to the agent",
  },
  {
    role: "reads_private_data",
    words: ["secret", "secrets", "env", "environment", "credential", "credentials", "password", "passwords", "token", "tokens", "apikey", "inbox", "mailbox", "mail", "email", "emails", "customer", "customers", "user", "users", "profile", "profiles", "payroll", "salary", "personal", "pii", "private", "confidential", "medical", "payment", "payments", "invoice", "invoices"],
    why: "names data that is usually private",
  },
  {
    role: "writes",
    words: ["create", "update", "write", "edit", "set", "put", "insert", "modify", "add", "append", "patch", "rename", "move", "assign", "close", "merge", "comment", "reply", "save", "commit", "post"],
    why: "changes state",
  },
  {
    role: "deploys_or_destroys",
    words: ["deploy", "deploys", "deployment", "destroy", "delete", "remove", "drop", "terminate", "rollback", "restart", "shutdown", "purge", "wipe", "kill", "release", "scale", "truncate", "revoke"],
    why: "deploys or destroys",
  },
  {
    role: "network_or_shares",
    words: ["send", "share", "post", "email", "mail", "upload", "publish", "webhook", "notify", "invite", "export", "forward", "tweet", "message", "slack", "sms"],
    why: "sends or shares outside the session",
  },
  {
    role: "network_or_shares",
    words: ["fetch", "get", "download", "open", "request", "browse", "crawl", "scrape"],
    with: ["url", "urls", "uri", "http", "https", "web", "link", "links", "webpage", "website"],
    why: "reaches an arbitrary URL, which can carry data out in the request itself",
  },
];

const COMPILED_RULES = ROLE_KEYWORD_RULES.map((r) => ({ role: r.role, why: r.why, words: new Set(r.words), with: r.with ? new Set(r.with) : null }));

/** Per word, the rules it fires (indexes into `COMPILED_RULES`), so a tool's words are scanned once, not once per rule. */
const RULES_BY_WORD = new Map<string, number[]>();
COMPILED_RULES.forEach((rule, i) => {
  for (const w of rule.words) RULES_BY_WORD.set(w, [...(RULES_BY_WORD.get(w) ?? []), i]);
});

const tokenizeSlow = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

// eslint-disable-next-line no-control-regex -- the test is exactly "only ASCII code points"
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * The words of a name or description: split on anything but ASCII letters and digits, and before an
 * upper-case letter that follows a lower-case letter or digit. ASCII text is scanned in one pass;
 * other text takes the regex route, since lower-casing some non-ASCII letters yields ASCII ones.
 */
export function tokenize(text: string): string[] {
  if (!ASCII_ONLY.test(text)) return tokenizeSlow(text);
  const words: string[] = [];
  let start = -1;
  let prevLowerOrDigit = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lowerOrDigit = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (upper || lowerOrDigit) {
      if (start < 0) start = i;
      else if (upper && prevLowerOrDigit) {
        words.push(text.slice(start, i).toLowerCase());
        start = i;
      }
    } else if (start >= 0) {
      words.push(text.slice(start, i).toLowerCase());
      start = -1;
    }
    prevLowerOrDigit = lowerOrDigit;
  }
  if (start >= 0) words.push(text.slice(start).toLowerCase());
  return words;
}

/** Reasons per role, by position in TOOL_ROLES (a suggestion is made per tool, 5,000 in a large review). */
type ReasonsByRole = (string[] | undefined)[];
const ROLE_INDEX = Object.fromEntries(TOOL_ROLES.map((role, i) => [role, i])) as Record<ToolRole, number>;

/**
 * Every set of roles as one shared, frozen array in `TOOL_ROLES` order, by bitmask (bit i is
 * `TOOL_ROLES[i]`): there are only 2^5 sets, and a large review resolves 5,000 tools.
 */
const ROLE_SETS: readonly (readonly ToolRole[])[] = Array.from({ length: 1 << TOOL_ROLES.length }, (_, mask) => Object.freeze(TOOL_ROLES.filter((_, i) => (mask & (1 << i)) !== 0)));

/** The bitmask of a set of roles (see `roleSet`). */
export function roleMask(roles: readonly ToolRole[]): number {
  let mask = 0;
  for (const role of roles) mask |= 1 << ROLE_INDEX[role];
  return mask;
}

/** The shared array of the roles in `mask`, in `TOOL_ROLES` order. Frozen: never mutate it. */
export const roleSet = (mask: number): ToolRole[] => ROLE_SETS[mask] as ToolRole[];

/**
 * A reason many tools share (annotation sentences, keyword hits, the reviewer's unconfirmed entry),
 * with a small id: a suggestion made only of shared reasons is identified by the sequence of ids.
 */
type SharedReason = { text: string; id: number };
let reasonIds = 0;
const sharedReason = (text: string): SharedReason => ({ text, id: reasonIds++ });

const originText = (origin: "declared" | "spec_default") => (origin === "declared" ? "declared by the server" : "absent, so the spec default");

/** The annotation reasons, per origin of the hint: fixed sentences, built once. */
const ANNOTATION_REASONS = Object.fromEntries(
  (["declared", "spec_default"] as const).map((origin) => {
    const openWorld = `openWorldHint is true (${originText(origin)}): the tool interacts with external entities`;
    return [
      origin,
      {
        readOnlyFalse: sharedReason(`readOnlyHint is false (${originText(origin)}): the tool may modify its environment`),
        destructive: sharedReason(`destructiveHint is true (${originText(origin)}) on a tool that is not read-only`),
        openWorld: sharedReason(openWorld),
        openWorldNotReadOnly: sharedReason(`${openWorld} and is not read-only`),
      },
    ];
  }),
) as Record<"declared" | "spec_default", Record<"readOnlyFalse" | "destructive" | "openWorld" | "openWorldNotReadOnly", SharedReason>>;

const ENTERED_UNCONFIRMED = sharedReason("entered by the reviewer, not yet confirmed");

const WHERE = ["name", "description"] as const;

/**
 * The sentence for a keyword hit. Hits and completing words come from the rules' own word lists,
 * so there are finitely many sentences; each is built once (5,000 tools share a handful).
 */
const KEYWORD_REASONS = COMPILED_RULES.map(() => ({ name: new Map<string, SharedReason>(), description: new Map<string, SharedReason>() }));
function keywordReason(rule: number, where: (typeof WHERE)[number], hit: string, completing: string | undefined): SharedReason {
  const cache = KEYWORD_REASONS[rule]![where];
  const key = completing === undefined ? hit : `${hit}\u0000${completing}`;
  let reason = cache.get(key);
  if (reason === undefined) {
    const why = COMPILED_RULES[rule]!.why;
    reason = sharedReason(completing === undefined ? `${where} says "${hit}": ${why}` : `${where} says "${hit}" with "${completing}": ${why}`);
    cache.set(key, reason);
  }
  return reason;
}

/** The first word of `words` firing each rule, by rule index. */
function firstHits(words: readonly string[]): (string | undefined)[] {
  const hits: (string | undefined)[] = new Array<string | undefined>(COMPILED_RULES.length);
  for (const w of words) {
    const rules = RULES_BY_WORD.get(w);
    if (rules) for (const i of rules) hits[i] ??= w;
  }
  return hits;
}

/**
 * Shares identical results between the tools of one analysis: a large review has 5,000 tools and
 * far fewer distinct suggestions. Everything it hands out is shared, so nothing may mutate a
 * suggestion or a resolution (their arrays of roles are frozen).
 */
export type RoleCache = {
  suggestions: Map<string, { suggestion: RoleSuggestion; key: string }>;
  resolutions: Map<string, ResolvedRoles>;
};
export const newRoleCache = (): RoleCache => ({ suggestions: new Map(), resolutions: new Map() });

/** The reasons of a suggestion being made, and the key that identifies it while every reason is shared. */
class SuggestionBuilder {
  readonly byRole: ReasonsByRole = [];
  /** The annotation combination, then role:reason-id per reason added; null once a reason is the tool's own. */
  key: string | null;
  constructor(annotationsKey: number) {
    this.key = `${annotationsKey}`;
  }
  add(role: ToolRole, reason: SharedReason | string): void {
    const index = ROLE_INDEX[role];
    const text = typeof reason === "string" ? reason : reason.text;
    const list = this.byRole[index];
    if (!list) this.byRole[index] = [text];
    else if (!list.includes(text)) this.byRole[index] = list.concat(text); // exact-size arrays: most tools are kept to the end of an analysis
    if (this.key !== null) this.key = typeof reason === "string" ? null : `${this.key},${index}:${reason.id}`;
  }
}

/** The suggestion, shared through `cache` when one with the same reasons was made already; `key` is null when it cannot be shared. */
function suggest(tool: RoleInputTool, assessment: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null | undefined, cache: RoleCache | undefined): { suggestion: RoleSuggestion; key: string | null } {
  const combination = annotationCombination(tool.annotations ?? undefined);
  const annotations = effectiveAnnotationsOf(combination);
  const acc = new SuggestionBuilder(combination);
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;

  if (!readOnlyHint.value) {
    acc.add("writes", ANNOTATION_REASONS[readOnlyHint.origin].readOnlyFalse);
    if (destructiveHint.value) acc.add("deploys_or_destroys", ANNOTATION_REASONS[destructiveHint.origin].destructive);
  }
  if (openWorldHint.value) {
    acc.add("returns_untrusted_text", ANNOTATION_REASONS[openWorldHint.origin].openWorld);
    if (!readOnlyHint.value) acc.add("network_or_shares", ANNOTATION_REASONS[openWorldHint.origin].openWorldNotReadOnly);
  }

  // Rules in order, the name before the description, each with its first matching word.
  const nameWords = tokenize(tool.name);
  const descWords = tokenize(tool.description ?? "");
  const nameHits = firstHits(nameWords);
  const descHits = firstHits(descWords);
  for (let i = 0; i < COMPILED_RULES.length; i++) {
    const rule = COMPILED_RULES[i]!;
    for (const where of WHERE) {
      const hit = where === "name" ? nameHits[i] : descHits[i];
      if (!hit) continue;
      let completing: string | undefined;
      if (rule.with) {
        completing = nameWords.find((w) => rule.with?.has(w)) ?? descWords.find((w) => rule.with?.has(w));
        if (!completing) continue;
      }
      acc.add(rule.role, keywordReason(i, where, hit, completing));
    }
  }

  if (assessment && assessment.sourceIds.length > 0) {
    acc.add("returns_untrusted_text", `returns text from ${assessment.sourceIds.length} mapped source(s): ${assessment.sourceIds.join(", ")}`);
  }
  if (assessment && !assessment.rolesConfirmed) {
    for (const role of assessment.roles) acc.add(role, ENTERED_UNCONFIRMED);
  }

  const key = cache ? acc.key : null;
  const known = key === null ? undefined : cache?.suggestions.get(key);
  if (known) return known;
  const roles: RoleReason[] = [];
  for (const role of TOOL_ROLES) {
    const reasons = acc.byRole[ROLE_INDEX[role]];
    if (reasons) roles.push({ role, reasons });
  }
  const suggestion: RoleSuggestion = { roles, annotations };
  if (key !== null) cache?.suggestions.set(key, { suggestion, key });
  return { suggestion, key };
}

/**
 * Suggest a tool's roles from its effective annotations and from keywords in its name and
 * description. `assessment` contributes the sources mapped to the tool (a tool that returns text
 * from sources returns that text) and any roles the reviewer entered but has not confirmed. With a
 * `cache`, a suggestion identical to an earlier one is that one (shared: do not mutate it).
 */
export function suggestRoles(tool: RoleInputTool, assessment?: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null, cache?: RoleCache): RoleSuggestion {
  return suggest(tool, assessment, cache).suggestion;
}

/** A confirmed role's reason, one shared (read-only) entry per role. */
const CONFIRMED = Object.fromEntries(TOOL_ROLES.map((role) => [role, { role, reasons: ["confirmed by the reviewer"] }])) as Record<ToolRole, RoleReason>;

/**
 * The roles the analysis uses for a tool: the reviewer's, when confirmed; otherwise the suggestion,
 * marked `suggested` so that every conclusion drawn from it can say so. With a `cache`, identical
 * resolutions are one shared object.
 */
export function resolveRoles(tool: RoleInputTool, assessment?: ToolAssessment | null, cache?: RoleCache): ResolvedRoles {
  const { suggestion, key } = suggest(tool, assessment, cache);
  const confirmed = assessment?.rolesConfirmed === true;
  const mask = confirmed ? roleMask(assessment.roles) : roleMask(suggestion.roles.map((r) => r.role));
  const resolutionKey = key === null ? null : `${key}|${confirmed ? mask : "s"}`;
  const known = resolutionKey === null ? undefined : cache?.resolutions.get(resolutionKey);
  if (known) return known;
  const roles = roleSet(mask);
  const resolved: ResolvedRoles = confirmed
    ? { roles, mask, origin: "confirmed", reasons: roles.map((role) => CONFIRMED[role]), suggestion }
    : { roles, mask, origin: "suggested", reasons: suggestion.roles, suggestion };
  if (resolutionKey !== null) cache?.resolutions.set(resolutionKey, resolved);
  return resolved;
}
