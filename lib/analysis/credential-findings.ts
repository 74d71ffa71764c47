/**
 * Surfaces per credential in the analysis (issue 30, item 3): a list that differs between two
 * credentials yet is declared `cacheScope: "public"` (lib/surface/credential.ts). Until this
 * module the finding showed only in a server's credentials view; here it is one of the review's
 * findings, so the workbench's findings, the SARIF export and the decisions (and through them
 * `relay-review check`) carry it.
 *
 * High: a pin and a decision are made per credential because what a server lists depends on the
 * authorization on the request. A public cache scope lets a shared cache (a proxy, a CDN, a
 * gateway) hand one credential's list to a client holding another, so the list an agent gets is
 * no longer the one reviewed for its credential: tools only an administrator should see reach
 * every client, and tools a user should see are hidden.
 *
 * The glue (lib/workbench/credential-surfaces.ts) passes each era × credential's latest surface as
 * item keys and cache hints; lists are compared only within an era (eras list differently). Pure.
 */
import type { Finding } from "@/lib/model/findings";
import { why } from "@/lib/model/findings";
import { findingId } from "@/lib/model/ids";
import type { ServerToolList } from "@/lib/model/input";
import { serverName, type AnalysisModel } from "@/lib/model/model";
import { shownName } from "@/lib/model/prose";
import { credentialKey } from "@/lib/credential";
import { sharedCacheFindings } from "@/lib/surface/credential";
import { SURFACE_LISTS } from "@/lib/surface/types";

export const SHARED_CACHE_KIND = "surface.shared_cache_public";

/** One finding per server, era, list and pair of credentials whose lists differ under a public cache scope. */
export function sharedCacheAnalysisFindings(
  model: AnalysisModel,
  toolLists: readonly ServerToolList[],
): Finding[] {
  const out: Finding[] = [];
  for (const list of toolLists) {
    const surfaces = list.credentialSurfaces ?? [];
    if (surfaces.length < 2) continue;
    const server = shownName(serverName(model, list.serverId));
    for (const era of ["2025", "2026"] as const) {
      const ofEra = surfaces.filter((s) => s.era === era);
      for (const f of sharedCacheFindings(ofEra, SURFACE_LISTS)) {
        const [a, b] = f.credentials;
        out.push({
          id: findingId(
            SHARED_CACHE_KIND,
            list.serverId,
            era,
            f.list,
            credentialKey(a),
            credentialKey(b),
          ),
          kind: SHARED_CACHE_KIND,
          severity: "high",
          title: `${server} lists different ${f.list} to different credentials, yet declares them cacheScope "public"`,
          controlId: null,
          subject: { serverId: list.serverId },
          why: why(
            `${shownName(f.message)} (${era === "2026" ? "2026-07-28" : "2025"} era). Each credential's surface is reviewed and pinned on its own; a shared cache makes the list a client gets independent of its credential`,
            {
              config: [
                {
                  path: `servers[${JSON.stringify(list.serverId)}].cacheHints.${f.list}.cacheScope`,
                  value: "public",
                },
              ],
            },
          ),
          nodeIds: [],
          pathIds: [],
        });
      }
    }
  }
  return out;
}
