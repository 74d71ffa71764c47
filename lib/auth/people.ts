/**
 * People who sign in with OpenID Connect: their session ids, how an IdP's groups become a role,
 * and the records kept in the settings table. Pure and not server-only (the proxy reads the
 * session-id shape); the store half is lib/store/people.ts.
 *
 * A person's session is the same signed cookie as the owner token's (lib/auth/session.ts), with
 * a session id of a shape the owner's never has (`p_` and 22 characters; the owner's are 16), so
 * the proxy knows from the signed cookie alone that it must find the person behind it — and a
 * person's session whose record is missing is signed out, never taken for the owner.
 */
import { randomBytes } from "node:crypto";
import { highestRole, isRole, type Role } from "@/lib/auth/roles";

const PERSON_SESSION_ID = /^p_[A-Za-z0-9_-]{22}$/;

export function newPersonSessionId(): string {
  return `p_${randomBytes(16).toString("base64url")}`;
}

export function isPersonSessionId(id: string): boolean {
  return PERSON_SESSION_ID.test(id);
}

/** `group=role` pairs separated by commas (RELAY_REVIEW_OIDC_ROLE_MAP); unknown roles are refused. */
export function parseRoleMap(text: string | undefined): Map<string, Role> {
  const out = new Map<string, Role>();
  for (const part of (text ?? "").split(",")) {
    const t = part.trim();
    if (t === "") continue;
    const eq = t.lastIndexOf("=");
    const group = t.slice(0, eq).trim();
    const role = t.slice(eq + 1).trim();
    if (eq <= 0 || group === "" || !isRole(role))
      throw new Error(
        `RELAY_REVIEW_OIDC_ROLE_MAP: "${t}" is not group=viewer|reviewer|approver|admin`,
      );
    out.set(group, role);
  }
  return out;
}

/** The groups of an ID token or userinfo claim: a string array, or one string. */
export function groupsOf(claims: Record<string, unknown>, claim: string): string[] {
  const v = claims[claim];
  if (typeof v === "string") return [v.slice(0, 256)];
  if (Array.isArray(v))
    return v
      .filter((g): g is string => typeof g === "string")
      .slice(0, 500)
      .map((g) => g.slice(0, 256));
  return [];
}

/** The role the IdP's groups give: the highest mapped one, else the default (null: none). */
export function roleFromGroups(
  groups: readonly string[],
  map: ReadonlyMap<string, Role>,
  fallback: Role | null,
): Role | null {
  return highestRole(groups.flatMap((g) => (map.has(g) ? [map.get(g)!] : []))) ?? fallback;
}

/** What is stored about a person (settings key `person:<issuer>#<subject>`). */
export interface PersonRecord {
  issuer: string;
  subject: string;
  name: string;
  email: string | null;
  groups: string[];
  /** From the IdP's groups at the last sign-in. */
  idpRole: Role | null;
  /** Set by an admin on the People page; when set it wins over the IdP's groups. */
  assignedRole: Role | null;
  firstSeen: string;
  lastSeen: string;
}

export function effectiveRole(p: Pick<PersonRecord, "idpRole" | "assignedRole">): Role | null {
  return p.assignedRole ?? p.idpRole;
}

/** Characters of a person's name kept: the review's own names (a decision's, a sample's) hold 120. */
const MAX_NAME_CHARS = 120;
/** Line breaks, tabs and other runs of white space (U+0085 included), read as one space. */
const SPACE_RUN = /[\s\u0085]+/gu;
/** What a reader would not see, or would see act on the text around it: controls and format characters (bidi, zero-width, tags). */
const HIDDEN = /[\p{Cc}\p{Cf}]/gu;

/**
 * A claim as the name the workbench shows and keeps. The identity provider's text is not ours, and
 * the name goes onto pins, decisions, samples and revisions, shown to others and kept in records
 * whose names refuse control characters: a line break or a U+202E in it could make one entry read
 * as another's, and would make the record refuse the save. So white space becomes one space, every
 * other hidden character its visible marker (`⟨U+202E⟩`), and the name is cut to MAX_NAME_CHARS
 * without splitting a surrogate pair.
 */
function shownName(claim: string): string {
  const shown = claim
    .replace(SPACE_RUN, " ")
    .trim()
    .replace(HIDDEN, (m) => `⟨U+${m.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`);
  if (shown.length <= MAX_NAME_CHARS) return shown;
  const cut = shown.slice(0, MAX_NAME_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** The name a person is shown by: `name`, else `preferred_username`, else email, else the subject. */
export function displayNameOf(claims: Record<string, unknown>): string {
  for (const k of ["name", "preferred_username", "email", "sub"]) {
    const v = claims[k];
    if (typeof v === "string" && v.trim() !== "") return shownName(v);
  }
  return "unnamed person";
}
