/**
 * The credential a surface was listed under (issue 30, item 3). A 2026-07-28 server MAY list
 * different tools to different authorizations, so a surface, and a pin of it, belongs to one
 * credential: the OAuth grant (issuer, subject, scopes) or the names of the variables that
 * carried the server's secrets. Never a value: a label is built from what an inspection already
 * stores (lib/store/authorization.ts, the inspection's variable names), and shown and compared as
 * is. Pure; a top-level file because the review schema (a pin names its credential), the store
 * and lib/surface all read it, and lib/surface imports lib/review.
 */
import { z } from "zod";

const MAX_LABEL_TEXT = 512;
const MAX_NAMES = 128;
const Name = z.string().max(200);

export const CredentialSchema = z.discriminatedUnion("kind", [
  /** Listed with no credential at all (an open server, or a stdio server given no variables). */
  z.strictObject({ kind: z.literal("none") }),
  /** Listed under an OAuth grant: who issued it, to whom, with which scopes. */
  z.strictObject({
    kind: z.literal("oauth"),
    issuer: z.string().max(MAX_LABEL_TEXT).nullable(),
    subject: z.string().max(MAX_LABEL_TEXT).nullable(),
    scopes: z.array(Name).max(64),
  }),
  /** Listed with these variables set (bearer tokens in headers, API keys in the environment): their names. */
  z.strictObject({ kind: z.literal("secret"), names: z.array(Name).min(1).max(MAX_NAMES) }),
]);
export type Credential = z.infer<typeof CredentialSchema>;

export const NO_CREDENTIAL: Credential = { kind: "none" };

const sortedUnique = (xs: readonly string[]) => [...new Set(xs)].sort();

/**
 * The credential an inspection listed under, from what it recorded: its OAuth authorization when
 * it authorized, else the names of the variables it was given (a secret, a launcher's or the
 * workbench's environment), else none.
 */
export function credentialOf(input: {
  authorization?: {
    issuer: string | null;
    subject: string | null;
    scopes: readonly string[];
  } | null;
  variables?: readonly { name: string }[];
}): Credential {
  const a = input.authorization;
  if (a)
    return {
      kind: "oauth",
      issuer: a.issuer,
      subject: a.subject,
      scopes: sortedUnique(a.scopes),
    };
  const names = sortedUnique((input.variables ?? []).map((v) => v.name)).slice(0, MAX_NAMES);
  return names.length ? { kind: "secret", names } : NO_CREDENTIAL;
}

/**
 * A stable key for a credential: equal exactly when two labels name the same credential. JSON of
 * a fixed field order, so a separator inside an issuer or a name cannot make two labels collide.
 * An OAuth credential is its issuer and subject; its scopes are the grant's breadth, not another
 * party. A decision already binds the grant (a wider one makes it stale, lib/controls/granted-scopes),
 * and a surface that lists more under wider scopes is compared with the same pin and blocks as a
 * change, which asks more of the reviewer than an unpinned "incomparable" would.
 */
export function credentialKey(c: Credential): string {
  switch (c.kind) {
    case "none":
      return "none";
    case "oauth":
      return `oauth:${JSON.stringify([c.issuer, c.subject])}`;
    case "secret":
      return `secret:${JSON.stringify(sortedUnique(c.names))}`;
  }
}

/** How a credential reads in the workbench and in a finding; server-sent text is shown as text. */
export function credentialText(c: Credential): string {
  switch (c.kind) {
    case "none":
      return "no credential";
    case "oauth":
      return `OAuth ${c.subject ?? "(subject not reported)"} from ${c.issuer ?? "(issuer not reported)"}, scopes ${c.scopes.length ? c.scopes.join(" ") : "(none)"}`;
    case "secret":
      return `secret ${c.names.join(", ")}`;
  }
}
