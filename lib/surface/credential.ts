/**
 * Shared caches and credentials (issue 30, item 3): a list that varies by credential yet is
 * declared `cacheScope: "public"`. Pure.
 */
import { credentialText, type Credential } from "@/lib/credential";
import type { ListCacheHint, SurfaceList } from "@/lib/surface/types";

const sortedUnique = (xs: readonly string[]) => [...new Set(xs)].sort();

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
