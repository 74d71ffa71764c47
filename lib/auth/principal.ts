/**
 * Who is asking. The proxy (proxy.ts) decides it once per request from the credential — the owner
 * token (bearer, or a session it signed in) or a person's OpenID Connect session — and hands it to
 * route handlers in one request header it always overwrites (`PRINCIPAL_HEADER`), so nothing a
 * client sends can claim to be someone. Route handlers read it with `principalOf`, and `withRoute`
 * (lib/http/route.ts) runs each handler as that principal, so audit events name them. Pure and not
 * server-only: the proxy bundle imports it.
 */
import type { Actor } from "@/lib/events/actor";
import { isRole, type Role } from "@/lib/auth/roles";

/** Revisions saved with the owner token are attributed to "owner", as before people signed in. */
export const OWNER_AUTHOR = "owner";

/** A person: their issuer and subject identify them; `name` is how they are shown. */
export interface PersonRef {
  issuer: string;
  subject: string;
  name: string;
}

export type Principal =
  { kind: "owner_token" } | ({ kind: "person"; role: Role | null } & PersonRef);

export const OWNER_PRINCIPAL: Principal = { kind: "owner_token" };
export const PRINCIPAL_HEADER = "x-relay-review-principal";

/** One string per person: issuer and subject, which the IdP guarantees unique together. */
export function personKey(p: Pick<PersonRef, "issuer" | "subject">): string {
  return `${p.issuer}#${p.subject}`;
}

export function principalRole(p: Principal): Role | null {
  return p.kind === "owner_token" ? "admin" : p.role;
}

export function principalActor(p: Principal): Actor {
  return p.kind === "owner_token"
    ? { kind: "owner_token", id: "owner" }
    : { kind: "person", id: personKey(p) };
}

/** The author of a saved revision: "owner", or the person's name and key. */
export function principalAuthor(p: Principal): string {
  return p.kind === "owner_token" ? OWNER_AUTHOR : `${p.name} (${personKey(p)})`.slice(0, 500);
}

export function encodePrincipal(p: Principal): string {
  return Buffer.from(JSON.stringify(p), "utf8").toString("base64url");
}

function decodePrincipal(value: string): Principal | null {
  try {
    const v = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as Record<
      string,
      unknown
    >;
    if (v.kind === "owner_token") return OWNER_PRINCIPAL;
    if (
      v.kind === "person" &&
      typeof v.issuer === "string" &&
      typeof v.subject === "string" &&
      typeof v.name === "string" &&
      (v.role === null || isRole(v.role))
    )
      return { kind: "person", issuer: v.issuer, subject: v.subject, name: v.name, role: v.role };
  } catch {
    // fall through
  }
  return null;
}

/**
 * The principal the proxy admitted this request as. Without the header (a handler called directly
 * by a test, or by the server itself) it is the owner token, as every request was before people
 * signed in.
 */
export function principalOf(request: { headers: { get(name: string): string | null } }): Principal {
  const raw = request.headers.get(PRINCIPAL_HEADER);
  return (raw && decodePrincipal(raw)) || OWNER_PRINCIPAL;
}
