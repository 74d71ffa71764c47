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

const tokenize = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);

function addReason(acc: Map<ToolRole, string[]>, role: ToolRole, reason: string): void {
  const list = acc.get(role) ?? [];
  if (!list.includes(reason)) list.push(reason);
  acc.set(role, list);
}

const originText = (origin: "declared" | "spec_default") => (origin === "declared" ? "declared by the server" : "absent, so the spec default");

/**
 * Suggest a tool's roles from its effective annotations and from keywords in its name and
 * description. `assessment` contributes the sources mapped to the tool (a tool that returns text
 * from sources returns that text) and any roles the reviewer entered but has not confirmed.
 */
export function suggestRoles(tool: RoleInputTool, assessment?: Pick<ToolAssessment, "sourceIds" | "roles" | "rolesConfirmed"> | null): RoleSuggestion {
  const annotations = effectiveAnnotations(tool.annotations ?? undefined);
  const acc = new Map<ToolRole, string[]>();
  const { readOnlyHint, destructiveHint, openWorldHint } = annotations;

  if (!readOnlyHint.value) {
    addReason(acc, "writes", `readOnlyHint is false (${originText(readOnlyHint.origin)}): the tool may modify its environment`);
    if (destructiveHint.value) {
      addReason(acc, "deploys_or_destroys", `destructiveHint is true (${originText(destructiveHint.origin)}) on a tool that is not read-only`);
    }
  }
  if (openWorldHint.value) {
    const why = `openWorldHint is true (${originText(openWorldHint.origin)}): the tool interacts with external entities`;
    addReason(acc, "returns_untrusted_text", why);
    if (!readOnlyHint.value) addReason(acc, "network_or_shares", `${why} and is not read-only`);
  }

  const nameWords = tokenize(tool.name);
  const descWords = tokenize(tool.description ?? "");
  const allWords = new Set([...nameWords, ...descWords]);
  for (const rule of COMPILED_RULES) {
    for (const [where, words] of [["name", nameWords], ["description", descWords]] as const) {
      const hit = words.find((w) => rule.words.has(w));
      if (!hit) continue;
      if (rule.with) {
        const other = [...allWords].find((w) => rule.with?.has(w));
        if (!other) continue;
        addReason(acc, rule.role, `${where} says "${hit}" with "${other}": ${rule.why}`);
      } else {
        addReason(acc, rule.role, `${where} says "${hit}": ${rule.why}`);
      }
    }
  }

  if (assessment && assessment.sourceIds.length > 0) {
    addReason(acc, "returns_untrusted_text", `returns text from ${assessment.sourceIds.length} mapped source(s): ${assessment.sourceIds.join(", ")}`);
  }
  if (assessment && !assessment.rolesConfirmed) {
    for (const role of assessment.roles) addReason(acc, role, "entered by the reviewer, not yet confirmed");
  }

  return {
    roles: TOOL_ROLES.filter((r) => acc.has(r)).map((role) => ({ role, reasons: acc.get(role) ?? [] })),
    annotations,
  };
}

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
      reasons: roles.map((role) => ({ role, reasons: ["confirmed by the reviewer"] })),
      suggestion,
    };
  }
  return { roles: suggestion.roles.map((r) => r.role), origin: "suggested", reasons: suggestion.roles, suggestion };
}
