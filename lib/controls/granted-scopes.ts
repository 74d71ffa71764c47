/**
 * The scopes an authorization server actually granted (the token response's `scope`, recorded with
 * the inspection that used the token: lib/mcp/oauth GrantedAuthorization, inspections.authorization)
 * as evidence for the scoped-credential control. What the reviewer typed is a claim about the
 * token; the grant is what the token can do. So the grant is linted like typed scopes, a grant
 * wider than the reviewed scopes is a finding of its own, and a decision binds the granted set, so
 * a later, wider grant makes it stale. Pure: the callers pass the recorded grant in.
 */
import type { ServerId } from "@/lib/ids";
import { classifyScope, type ScopeVerdict } from "./credential";

/** A scope and where it was found, as the credential control cites its evidence. */
export type GrantedScopeEvidence = { scope: string; path: string };

/** The granted scopes of a server's current inspection, each with the path a finding cites. */
export function grantedScopeEvidence(
  serverId: ServerId,
  granted: readonly string[],
): GrantedScopeEvidence[] {
  return sortedSet(granted).map((scope, i) => ({
    scope,
    path: `inspections.${serverId}.authorization.scopes.${i}`,
  }));
}

/** Sorted, de-duplicated, blank entries dropped; OAuth scopes are case-sensitive (RFC 6749 §3.3). */
export function sortedSet(scopes: readonly string[]): string[] {
  return [...new Set(scopes.map((s) => s.trim()).filter(Boolean))].sort();
}

/** The granted scopes the reviewed configuration does not name (the grant is wider than reviewed). */
export function scopesBeyondReview(
  reviewed: readonly string[],
  granted: readonly string[],
): string[] {
  const named = new Set(sortedSet(reviewed));
  return sortedSet(granted).filter((s) => !named.has(s));
}

export type GrantedScopeLint = {
  /** Every granted scope that is not read-only, with its verdict (as typed scopes are linted). */
  notReadOnly: ScopeVerdict[];
  /** Granted and not reviewed. */
  beyondReview: string[];
};

/** Lint a grant against the reviewed scopes. */
export function lintGrantedScopes(
  reviewed: readonly string[],
  granted: readonly string[],
): GrantedScopeLint {
  return {
    notReadOnly: sortedSet(granted)
      .map(classifyScope)
      .filter((v) => v.verdict !== "read_only"),
    beyondReview: scopesBeyondReview(reviewed, granted),
  };
}

/**
 * What a decision binds of a grant: the sorted set, or null when the server was not reached
 * through OAuth (nothing granted to bind).
 */
export function grantedScopesBinding(
  granted: readonly string[] | null | undefined,
): string[] | null {
  return granted ? sortedSet(granted) : null;
}

/**
 * Whether the current grant is wider than the one a decision bound: the scopes added, or null when
 * it is not wider. A narrower grant keeps the decision (it can only do less); a first grant where
 * none was bound is wider (the decision was made against a server reached without one).
 */
export function grantWidening(
  bound: readonly string[] | null,
  current: readonly string[] | null,
): { added: string[]; message: string } | null {
  if (current === null) return null;
  const before = new Set(bound ?? []);
  const added = sortedSet(current).filter((s) => !before.has(s));
  if (added.length === 0) return null;
  return {
    added,
    message:
      bound === null
        ? `the server is now reached with an OAuth grant (${added.join(" ")}); the decision bound none`
        : `the OAuth grant widened: ${added.map((s) => `+${s}`).join(" ")}`,
  };
}
