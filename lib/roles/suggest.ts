/**
 * Suggested tool roles. A suggestion is a hint for the reviewer, never a fact: annotations are
 * server-authored claims read at their effective value (an absent hint is the spec's default,
 * which is the unsafe one), and names and descriptions are matched by keyword. Every suggested role
 * carries the reasons that produced it, so the UI can show why and the reviewer can confirm or
 * strike it. Only an assessment with `rolesConfirmed: true` is authoritative (see `resolveRoles`).
 */
import type { ToolAssessment, ToolRole } from "@/lib/review/schema";
import { TOOL_ROLES } from "@/lib/review/schema";
import { effectiveAnnotations, type EffectiveAnnotations } from "@/lib/tools/annotations";

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
  roles: ToolRole[];
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

function addReason(acc: ReasonsByRole, role: ToolRole, reason: string): void {
  const list = acc[ROLE_INDEX[role]];
  if (!list) acc[ROLE_INDEX[role]] = [reason];
  else if (!list.includes(reason)) list.push(reason);
}

const originText = (origin: "declared" | "spec_default") => (origin === "declared" ? "declared by the server" : "absent, so the spec default");

/** The annotation reasons, per origin of the hint: fixed sentences, built once. */
const ANNOTATION_REASONS = {
  readOnlyFalse: { declared: "", spec_default: "" },
  destructive: { declared: "", spec_default: "" },
  openWorld: { declared: "", spec_default: "" },
  openWorldNotReadOnly: { declared: "", spec_default: "" },
};
for (const origin of ["declared", "spec_default"] as const) {
  const openWorld = `openWorldHint is true (${originText(origin)}): the tool interacts with external entities`;
  ANNOTATION_REASONS.readOnlyFalse[origin] = `readOnlyHint is false (${originText(origin)}): the tool may modify its environment`;
  ANNOTATION_REASONS.destructive[origin] = `destructiveHint is true (${originText(origin)}) on a tool that is not read-only`;
  ANNOTATION_REASONS.openWorld[origin] = openWorld;
  ANNOTATION_REASONS.openWorldNotReadOnly[origin] = `${openWorld} and is not read-only`;
}

const WHERE = ["name", "description"] as const;

/**
 * The sentence for a keyword hit. Hits and completing words come from the rules' own word lists,
 * so there are finitely many sentences; each is built once (5,000 tools share a handful).
 */
const KEYWORD_REASONS = COMPILED_RULES.map(() => ({ name: new Map<string, string>(), description: new Map<string, string>() }));
function keywordReason(rule: number, where: (typeof WHERE)[number], hit: string, completing: string | undefined): string {
  const cache = KEYWORD_REASONS[rule]![where];
  const key = completing === undefined ? hit : `${hit}\u0000${completing}`;
  let reason = cache.get(key);
  if (reason === undefined) {
    const why = COMPILED_RULES[rule]!.why;
    reason = completing === undefined ? `${where} says "${hit}": ${why}` : `${where} says "${hit}" with "${completing}": ${why}`;
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
 * Suggest a tool's roles from its effective annotations and from keywords in its name and
 * description. `assessment` contributes the sources mapped to the tool (a tool that returns text
 * from sources returns that text) and any roles the reviewer entered but has not confirmed.
 */
export function suggestRoles(tool: RoleInputTool, assessment?: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null): RoleSuggestion {
  const annotations = effectiveAnnotations(tool.annotations ?? undefined);
  const acc: ReasonsByRole = [];
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;

  if (!readOnlyHint.value) {
    addReason(acc, "writes", ANNOTATION_REASONS.readOnlyFalse[readOnlyHint.origin]);
    if (destructiveHint.value) addReason(acc, "deploys_or_destroys", ANNOTATION_REASONS.destructive[destructiveHint.origin]);
  }
  if (openWorldHint.value) {
    addReason(acc, "returns_untrusted_text", ANNOTATION_REASONS.openWorld[openWorldHint.origin]);
    if (!readOnlyHint.value) addReason(acc, "network_or_shares", ANNOTATION_REASONS.openWorldNotReadOnly[openWorldHint.origin]);
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
      addReason(acc, rule.role, keywordReason(i, where, hit, completing));
    }
  }

  if (assessment && assessment.sourceIds.length > 0) {
    addReason(acc, "returns_untrusted_text", `returns text from ${assessment.sourceIds.length} mapped source(s): ${assessment.sourceIds.join(", ")}`);
  }
  if (assessment && !assessment.rolesConfirmed) {
    for (const role of assessment.roles) addReason(acc, role, "entered by the reviewer, not yet confirmed");
  }

  const roles: RoleReason[] = [];
  for (const role of TOOL_ROLES) {
    const reasons = acc[ROLE_INDEX[role]];
    if (reasons) roles.push({ role, reasons });
  }
  return { roles, annotations };
}

/** A confirmed role's reason, one shared (read-only) entry per role. */
const CONFIRMED = Object.fromEntries(TOOL_ROLES.map((role) => [role, { role, reasons: ["confirmed by the reviewer"] }])) as Record<ToolRole, RoleReason>;

/**
 * The roles the analysis uses for a tool: the reviewer's, when confirmed; otherwise the suggestion,
 * marked `suggested` so that every conclusion drawn from it can say so.
 */
export function resolveRoles(tool: RoleInputTool, assessment?: ToolAssessment | null): ResolvedRoles {
  const suggestion = suggestRoles(tool, assessment);
  if (assessment?.rolesConfirmed) {
    const roles = TOOL_ROLES.filter((r) => assessment.roles.includes(r));
    return {
      roles,
      origin: "confirmed",
      reasons: roles.map((role) => CONFIRMED[role]),
      suggestion,
    };
  }
  return { roles: suggestion.roles.map((r) => r.role), origin: "suggested", reasons: suggestion.roles, suggestion };
}
