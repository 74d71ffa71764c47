/**
 * The credential a surface was listed under (issue 30, item 3). A 2026-07-28 server MAY list
 * different tools to different authorizations, so a surface, and a pin of it, belongs to one
 * credential: the OAuth grant (issuer, subject, scopes) or the names of the variables that
 * carried the server's secrets. Never a value: a label is built from what an inspection already
 * stores (lib/store/authorization.ts, the inspection's variable names), and shown and compared as
 * is. Pure.
 */
import { z } from "zod";
import type { ListCacheHint, SurfaceList } from "@/lib/surface/types";

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
 */
export function credentialKey(c: Credential): string {
  switch (c.kind) {
    case "none":
      return "none";
    case "oauth":
      return `oauth:${JSON.stringify([c.issuer, c.subject, sortedUnique(c.scopes)])}`;
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

/** What a pin is compared like with like on: the era, the declared client capabilities, the credential. */
export type PinContext = {
  era: "2025" | "2026";
  declaredCapabilities: readonly string[];
  credential: Credential;
};

export function pinContextKey(c: PinContext): string {
  return JSON.stringify([c.era, sortedUnique(c.declaredCapabilities), credentialKey(c.credential)]);
}

export function pinContextText(c: PinContext): string {
  return `${c.era === "2026" ? "2026-07-28" : "2025"} era, ${credentialText(c.credential)}`;
}

// ---- shared caches ----------------------------------------------------------------------------

export type CredentialSurface = {
  credential: Credential;
  /** Per list, the sort keys of its items under this credential. */
  keys: Partial<Record<SurfaceList, readonly string[]>>;
  cacheHints?: Partial<Record<SurfaceList, ListCacheHint>>;
};

export type SharedCacheFinding = {
  list: SurfaceList;
  /** The credentials whose lists differ, and that declared `cacheScope: "public"` on at least one of them. */
  credentials: [Credential, Credential];
  message: string;
};

const sameKeys = (a: readonly string[] = [], b: readonly string[] = []) => {
  const x = sortedUnique(a);
  const y = sortedUnique(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/**
 * `cacheScope: "public"` on a list that varies by credential: a shared cache (a proxy, a CDN, a
 * gateway) may serve one user's list to another, so a tool only an admin should see reaches every
 * client, and a tool a user should see is hidden. One finding per list and pair of credentials
 * whose lists differ, when either result declared the list public.
 */
export function sharedCacheFindings(
  surfaces: readonly CredentialSurface[],
  lists: readonly SurfaceList[],
): SharedCacheFinding[] {
  const out: SharedCacheFinding[] = [];
  for (const list of lists) {
    for (let i = 0; i < surfaces.length; i++) {
      for (let j = i + 1; j < surfaces.length; j++) {
        const a = surfaces[i]!;
        const b = surfaces[j]!;
        if (sameKeys(a.keys[list], b.keys[list])) continue;
        const publicUnder = [a, b].filter((s) => s.cacheHints?.[list]?.cacheScope === "public");
        if (!publicUnder.length) continue;
        out.push({
          list,
          credentials: [a.credential, b.credential],
          message: `${list} differs between ${credentialText(a.credential)} and ${credentialText(b.credential)}, yet the server declared it cacheScope "public" under ${publicUnder.map((s) => credentialText(s.credential)).join(" and ")}: a shared cache may serve one credential's ${list} to the other`,
        });
      }
    }
  }
  return out;
}
