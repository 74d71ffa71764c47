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

/** One suggested role: why, and how sure the suggestion is (0..1). */
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

/**
 * The keywords: every rule word and completing word, by index. Per keyword, the rules it fires
 * (`words`) and the rules it completes (`with`), as indexes into `COMPILED_RULES`.
 */
const KEYWORDS: readonly string[] = [...new Set(ROLE_KEYWORD_RULES.flatMap((r) => [...r.words, ...(r.with ?? [])]))];
const KEYWORD_INDEX = new Map(KEYWORDS.map((w, i) => [w, i]));
const FIRES: readonly (readonly number[])[] = KEYWORDS.map((w) => COMPILED_RULES.flatMap((r, i) => (r.words.has(w) ? [i] : [])));
const COMPLETES: readonly (readonly number[])[] = KEYWORDS.map((w) => COMPILED_RULES.flatMap((r, i) => (r.with?.has(w) ? [i] : [])));

/**
 * The keywords in a trie over [a-z0-9], so ASCII text is matched while it is scanned, without
 * building its words: a large review has 5,000 names and descriptions. Node n's child for
 * character c is `TRIE_NEXT[n * 36 + c]` (-1: none); `TRIE_KEYWORD[n]` is the keyword ending there.
 */
const TRIE_WIDTH = 36;
const trieSlot = (c: number) => (c >= 97 ? c - 97 : c >= 65 ? c - 65 : c - 48 + 26);
const { TRIE_NEXT, TRIE_KEYWORD } = (() => {
  const next: number[] = [];
  const keyword: number[] = [];
  const node = () => {
    keyword.push(-1);
    for (let i = 0; i < TRIE_WIDTH; i++) next.push(-1);
    return keyword.length - 1;
  };
  node(); // the root
  KEYWORDS.forEach((word, index) => {
    let n = 0;
    for (let i = 0; i < word.length; i++) {
      const slot = n * TRIE_WIDTH + trieSlot(word.charCodeAt(i));
      if (next[slot]! < 0) next[slot] = node();
      n = next[slot]!;
    }
    keyword[n] = index;
  });
  return { TRIE_NEXT: Int32Array.from(next), TRIE_KEYWORD: Int32Array.from(keyword) };
})();

const tokenizeSlow = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

// eslint-disable-next-line no-control-regex -- the test is exactly "only ASCII code points"
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * The word boundaries of ASCII text: calls `visit(text, start, end, context)` for each word, in
 * order. A word is a run of ASCII letters and digits, also split before an upper-case letter that
 * follows a lower-case letter or digit. `tokenize` and the keyword scan share this one definition.
 */
function forEachAsciiWord<C>(text: string, visit: (text: string, start: number, end: number, context: C) => void, context: C): void {
  let start = -1;
  let prevLowerOrDigit = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lowerOrDigit = (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
    if (upper || lowerOrDigit) {
      if (start < 0) start = i;
      else if (upper && prevLowerOrDigit) {
        visit(text, start, i, context);
        start = i;
      }
    } else if (start >= 0) {
      visit(text, start, i, context);
      start = -1;
    }
    prevLowerOrDigit = lowerOrDigit;
  }
  if (start >= 0) visit(text, start, text.length, context);
}

const pushWord = (text: string, start: number, end: number, words: string[]): void => {
  words.push(text.slice(start, end).toLowerCase());
};

/**
 * The words of a name or description, lower-cased (see `forEachAsciiWord`). ASCII text is scanned
 * in one pass; other text takes the regex route, since lower-casing some non-ASCII letters yields
 * ASCII ones.
 */
export function tokenize(text: string): string[] {
  if (!ASCII_ONLY.test(text)) return tokenizeSlow(text);
  const words: string[] = [];
  forEachAsciiWord(text, pushWord, words);
  return words;
}

/** Per rule, the first keyword (by index) firing it in one text, and the first completing it in any text scanned; -1: none. */
type Hits = { fired: Int32Array; completing: Int32Array };

function recordKeyword(keyword: number, hits: Hits): void {
  for (const rule of FIRES[keyword]!) if (hits.fired[rule]! < 0) hits.fired[rule] = keyword;
  for (const rule of COMPLETES[keyword]!) if (hits.completing[rule]! < 0) hits.completing[rule] = keyword;
}

/** Records the word `text[start, end)` if it is a keyword: walked through the trie, case-folded, without building the word. */
function recordIfKeyword(text: string, start: number, end: number, hits: Hits): void {
  let node = 0;
  for (let i = start; i < end && node >= 0; i++) node = TRIE_NEXT[node * TRIE_WIDTH + trieSlot(text.charCodeAt(i))]!;
  if (node >= 0 && TRIE_KEYWORD[node]! >= 0) recordKeyword(TRIE_KEYWORD[node]!, hits);
}

/** Records the keywords among the words of `text` (words as `tokenize` splits them), first hits first. */
function scanKeywords(text: string, hits: Hits): void {
  if (ASCII_ONLY.test(text)) {
    forEachAsciiWord(text, recordIfKeyword, hits);
    return;
  }
  for (const word of tokenizeSlow(text)) {
    const keyword = KEYWORD_INDEX.get(word);
    if (keyword !== undefined) recordKeyword(keyword, hits);
  }
}

/** Scratch hits, reset per suggestion (suggestions are made one at a time: nothing here awaits). */
const NAME_HITS: Hits = { fired: new Int32Array(COMPILED_RULES.length), completing: new Int32Array(COMPILED_RULES.length) };
const DESCRIPTION_HITS: Hits = { fired: new Int32Array(COMPILED_RULES.length), completing: NAME_HITS.completing };

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

/** The bit of one role in a mask (see `roleMask`). */
export const roleBit = (role: ToolRole): number => 1 << ROLE_INDEX[role];

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
 * The sentence for a keyword hit (and its completing keyword, or -1). Hits and completing words are
 * keywords, so there are finitely many sentences; each is built once (5,000 tools share a handful).
 */
const KEYWORD_REASONS = COMPILED_RULES.map(() => ({ name: new Map<number, SharedReason>(), description: new Map<number, SharedReason>() }));
function keywordReason(rule: number, where: (typeof WHERE)[number], hit: number, completing: number): SharedReason {
  const cache = KEYWORD_REASONS[rule]![where];
  const key = hit * (KEYWORDS.length + 1) + completing + 1;
  let reason = cache.get(key);
  if (reason === undefined) {
    const why = COMPILED_RULES[rule]!.why;
    const word = KEYWORDS[hit]!;
    reason = sharedReason(completing < 0 ? `${where} says "${word}": ${why}` : `${where} says "${word}" with "${KEYWORDS[completing]!}": ${why}`);
    cache.set(key, reason);
  }
  return reason;
}

/** A suggestion shared by every tool whose reasons are the same, with its resolutions (by `resolutionSlot`). */
type SharedSuggestion = { codes: readonly number[]; suggestion: RoleSuggestion; resolutions: (ResolvedRoles | undefined)[] };

/**
 * Shares identical results between the tools of one analysis: a large review has 5,000 tools and
 * far fewer distinct suggestions. Everything it hands out is shared, so nothing may mutate a
 * suggestion or a resolution (their arrays of roles are frozen). Suggestions are found by a hash
 * of their reason codes and then compared code by code, so a hash collision only costs sharing.
 */
export type RoleCache = { suggestions: Map<number, SharedSuggestion> };
export const newRoleCache = (): RoleCache => ({ suggestions: new Map() });

/** The most reasons a shareable suggestion records (4 annotation reasons, 2 per keyword rule, 1 per role entered). */
const MAX_CODES = 32;

/**
 * The suggestion being made: reasons per role (by position in TOOL_ROLES), and the codes that
 * identify it while every reason is shared: the annotation combination, then one code per reason
 * added (its id and role). Scratch state, reset per suggestion by count (truncating an array frees
 * its storage): suggestions are made one at a time, nothing here awaits, and a suggestion found in
 * the cache allocates nothing.
 */
const PENDING_REASONS: string[][] = TOOL_ROLES.map(() => new Array<string>(MAX_CODES).fill(""));
const PENDING_REASON_COUNTS = new Int32Array(TOOL_ROLES.length);
const PENDING_CODES: number[] = new Array<number>(MAX_CODES).fill(0);
let pendingCodeCount = 0;
/** False once a reason is the tool's own (its mapped sources) or there are too many to record. */
let pendingShareable = true;

function startSuggestion(annotationsCombination: number): void {
  PENDING_REASON_COUNTS.fill(0);
  PENDING_CODES[0] = annotationsCombination;
  pendingCodeCount = 1;
  pendingShareable = true;
}

function addReason(role: ToolRole, reason: SharedReason | string): void {
  const index = ROLE_INDEX[role];
  const text = typeof reason === "string" ? reason : reason.text;
  const list = PENDING_REASONS[index]!;
  const count = PENDING_REASON_COUNTS[index]!;
  let seen = false;
  for (let i = 0; i < count && !seen; i++) seen = list[i] === text;
  if (!seen) {
    if (count === list.length) list.push(text);
    else list[count] = text;
    PENDING_REASON_COUNTS[index] = count + 1;
  }
  if (typeof reason === "string" || pendingCodeCount === MAX_CODES) pendingShareable = false;
  else PENDING_CODES[pendingCodeCount++] = reason.id * TOOL_ROLES.length + index;
}

function pendingHash(): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < pendingCodeCount; i++) h = Math.imul(h ^ PENDING_CODES[i]!, 0x01000193);
  return h;
}

function pendingCodesAre(codes: readonly number[]): boolean {
  if (codes.length !== pendingCodeCount) return false;
  for (let i = 0; i < pendingCodeCount; i++) if (codes[i] !== PENDING_CODES[i]) return false;
  return true;
}

/** The suggestion, shared through `cache` when one with the same reasons was made already. */
function suggest(tool: RoleInputTool, assessment: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null | undefined, cache: RoleCache | undefined): SharedSuggestion {
  const combination = annotationCombination(tool.annotations ?? undefined);
  const annotations = effectiveAnnotationsOf(combination);
  startSuggestion(combination);
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;

  if (!readOnlyHint.value) {
    addReason("writes", ANNOTATION_REASONS[readOnlyHint.origin].readOnlyFalse);
    if (destructiveHint.value) addReason("deploys_or_destroys", ANNOTATION_REASONS[destructiveHint.origin].destructive);
  }
  if (openWorldHint.value) {
    addReason("returns_untrusted_text", ANNOTATION_REASONS[openWorldHint.origin].openWorld);
    if (!readOnlyHint.value) addReason("network_or_shares", ANNOTATION_REASONS[openWorldHint.origin].openWorldNotReadOnly);
  }

  // Rules in order, the name before the description, each with its first matching word; a
  // completing word is the first in the name, else the first in the description.
  NAME_HITS.fired.fill(-1);
  NAME_HITS.completing.fill(-1);
  DESCRIPTION_HITS.fired.fill(-1);
  scanKeywords(tool.name, NAME_HITS);
  scanKeywords(tool.description ?? "", DESCRIPTION_HITS);
  for (let i = 0; i < COMPILED_RULES.length; i++) {
    const rule = COMPILED_RULES[i]!;
    for (const where of WHERE) {
      const hit = (where === "name" ? NAME_HITS : DESCRIPTION_HITS).fired[i]!;
      if (hit < 0) continue;
      const completing = rule.with ? NAME_HITS.completing[i]! : -1;
      if (rule.with && completing < 0) continue;
      addReason(rule.role, keywordReason(i, where, hit, completing));
    }
  }

  if (assessment && assessment.sourceIds.length > 0) {
    addReason("returns_untrusted_text", `returns text from ${assessment.sourceIds.length} mapped source(s): ${assessment.sourceIds.join(", ")}`);
  }
  if (assessment && !assessment.rolesConfirmed) {
    for (const role of assessment.roles) addReason(role, ENTERED_UNCONFIRMED);
  }

  const hash = cache && pendingShareable ? pendingHash() : null;
  const known = hash === null ? undefined : cache?.suggestions.get(hash);
  if (known && pendingCodesAre(known.codes)) return known;
  const roles: RoleReason[] = [];
  for (let i = 0; i < TOOL_ROLES.length; i++) {
    const count = PENDING_REASON_COUNTS[i]!;
    if (count > 0) roles.push({ role: TOOL_ROLES[i]!, reasons: PENDING_REASONS[i]!.slice(0, count), confidence: 0.5 });
  }
  const made: SharedSuggestion = { codes: PENDING_CODES.slice(0, pendingCodeCount), suggestion: { roles, annotations, confidence: 0.5, verb: null, conflicts: [] }, resolutions: [] };
  if (hash !== null && !known) cache?.suggestions.set(hash, made);
  return made;
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
const CONFIRMED = Object.fromEntries(TOOL_ROLES.map((role) => [role, { role, reasons: ["confirmed by the reviewer"], confidence: 1 }])) as Record<ToolRole, RoleReason>;

/**
 * The roles the analysis uses for a tool: the reviewer's, when confirmed; otherwise the suggestion,
 * marked `suggested` so that every conclusion drawn from it can say so. With a `cache`, identical
 * resolutions are one shared object.
 */
export function resolveRoles(tool: RoleInputTool, assessment?: ToolAssessment | null, cache?: RoleCache): ResolvedRoles {
  const shared = suggest(tool, assessment, cache);
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
    ? { roles, mask, origin: "confirmed", reasons: roles.map((role) => CONFIRMED[role]), suggestion }
    : { roles, mask, origin: "suggested", reasons: suggestion.roles, suggestion };
  shared.resolutions[slot] = resolved;
  return resolved;
}
