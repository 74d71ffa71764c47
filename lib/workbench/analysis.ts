import "server-only";
/**
 * Server-side glue for the analysis: pick each server's tool list (its current surface,
 * lib/workbench/current-surface.ts, when that has a readable snapshot, else the review's declared
 * tools) and run the pure analysis. The analysis route, the review page's server
 * prefetch, the share view and the report all analyse through here, so they cannot disagree;
 * the browser renders exactly this result and recomputes nothing.
 */
import { analyzeReview, type Analysis } from "@/lib/analysis/analyze";
import { grantedScopesBinding } from "@/lib/controls/granted-scopes";
import { toolListsFromReview, type ListedSurface } from "@/lib/model/input";
import type { ReviewId } from "@/lib/ids";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Review } from "@/lib/review/schema";
import type { Db } from "@/lib/store/db";
import { readReview } from "@/lib/store/reviews";
import { openReview, type ReviewContext } from "@/lib/workbench/review-context";
import { describeItemChanges, surfaceItemChanges } from "@/lib/surface/diff";
import type { SurfaceSnapshot } from "@/lib/surface/types";
import { blockedReason } from "@/lib/workbench/surface";
import { credentialSurfacesForAnalysis } from "@/lib/workbench/credential-surfaces";

export type ReviewAnalysis = Analysis & { reviewId: ReviewId; revision: number };

/** What the analysis reads of a snapshot. */
function snapshotTools(snapshot: SurfaceSnapshot): ListedSurface {
  return {
    tools: snapshot.tools.map((t) => ({
      name: t.name,
      description: t.description ?? "",
      ...(t.annotations ? { annotations: t.annotations } : {}),
      // Role inference reads the schemas' fields (issue 32); they were dropped here before.
      inputSchema: t.inputSchema,
      ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
      // MCP Apps: the UI a tool renders with and whether only the app calls it.
      ...(t._meta ? { _meta: t._meta } : {}),
    })),
    resources: snapshot.resources,
    resourceTemplates: snapshot.resourceTemplates,
    prompts: snapshot.prompts,
    ...(snapshot.uiResources?.length ? { uiResources: snapshot.uiResources } : {}),
  };
}

/**
 * Each server's per-credential surfaces, read once per context: the context is per request, and
 * the servers' inspections do not depend on which revision's document is analysed.
 */
const credentialSurfacesOfContext = new WeakMap<
  ReviewContext,
  ReturnType<typeof credentialSurfacesForAnalysis>
>();

/** Each server's tool list for the analysis: its current surface where it has one, else its declared tools. */
async function currentToolLists(ctx: ReviewContext, review: Review) {
  // An unknown snapshot shape (older version, another writer's format) falls back to declared tools.
  const lists = toolListsFromReview(
    review,
    new Map(
      review.servers.flatMap((server) => {
        const snapshot = ctx.snapshots.get(server.id);
        return snapshot ? [[server.id, snapshotTools(snapshot)] as const] : [];
      }),
    ),
  );
  let perCredential = credentialSurfacesOfContext.get(ctx);
  if (!perCredential) {
    perCredential = credentialSurfacesForAnalysis(ctx.db, ctx.reviewId);
    credentialSurfacesOfContext.set(ctx, perCredential);
  }
  const surfacesPerCredential = await perCredential;
  for (const list of lists) {
    // A server listed under two or more credentials: the shared-cache finding compares them.
    const credentialSurfaces = surfacesPerCredential.get(list.serverId);
    if (credentialSurfaces) list.credentialSurfaces = credentialSurfaces;
    // The current inspection's OAuth grant is evidence for the credential control; absent when
    // the server was not reached through OAuth (so an analysis without grants is unchanged).
    const authorization = ctx.current.get(list.serverId)?.authorization;
    if (authorization) list.grantedScopes = grantedScopesBinding(authorization.scopes) ?? [];
    const server = review.servers.find((s) => s.id === list.serverId);
    const check = server?.pin ? await ctx.pinCheckOf(server) : null;
    if (!server?.pin || !check?.comparison.blocked) continue;
    const c = check.comparison;
    const items = c.status === "mismatch" && c.diff ? surfaceItemChanges(c.diff) : [];
    list.blocked = {
      reason:
        items.length > 0
          ? `its live surface differs from the pin under "block": ${describeItemChanges(items)}`
          : (blockedReason(c) ?? "its live surface differs from the pin"),
      pinnedSurfaceSha256: server.pin.surfaceSha256,
    };
  }
  return lists;
}

/**
 * The analysis of a document (the context's, or another revision's: the share view may be frozen
 * at an old one) against the context's current surfaces. `shared`: the document is the shared
 * parse, so its analysis may come from (and go to) the cache below.
 */
export async function analyzeInContext(
  ctx: ReviewContext,
  review: Review,
  shared = false,
): Promise<Analysis> {
  const lists = await currentToolLists(ctx, review);
  return shared ? analyzeShared(review, lists) : analyzeReview(review, lists);
}

/**
 * The analysis of any revision's document of a stored review (the share view may be frozen at an
 * old one), with each server's current surface where it has one.
 */
export async function analyzeReviewDocument(
  db: Db,
  reviewId: string,
  review: Review,
): Promise<Analysis> {
  return (await openReview(db, reviewId)).analysisOf(review);
}

/**
 * The last analyses of shared current documents (`readReview`), for the Graph section's routes:
 * the section's view and then each tool or path a reviewer opens would otherwise analyse the same
 * revision again (about 80 ms unloaded on the 5,000-tool review, several times that on a busy
 * machine). Reused only for the same document object and the same tool lists (the current
 * surfaces, grants and pin verdicts, compared as JSON), so the result is the one a fresh analysis
 * gives. Two kept: an analysis of the large review holds tens of megabytes. Read-only to callers.
 */
const ANALYSES_KEPT = 2;
const recentAnalyses: { review: Review; lists: string; analysis: Analysis }[] = [];

function analyzeShared(review: Review, lists: ReturnType<typeof toolListsFromReview>): Analysis {
  const key = JSON.stringify(lists);
  const i = recentAnalyses.findIndex((e) => e.review === review && e.lists === key);
  if (i >= 0) {
    const [hit] = recentAnalyses.splice(i, 1);
    recentAnalyses.unshift(hit!);
    return hit!.analysis;
  }
  const analysis = analyzeReview(review, lists);
  recentAnalyses.unshift({ review, lists: key, analysis });
  recentAnalyses.length = Math.min(recentAnalyses.length, ANALYSES_KEPT);
  return analysis;
}

/** The analysis of a loaded review record, labelled with its id and revision. */
export async function analyzeRecord(db: Db, record: ReviewRecord): Promise<ReviewAnalysis> {
  return labelled(await openReview(db, record.id, { record }));
}

/** The context's analysis, labelled with its review's id and revision. */
export async function labelled(ctx: ReviewContext): Promise<ReviewAnalysis> {
  return { reviewId: ctx.record.id, revision: ctx.record.revision, ...(await ctx.analysis()) };
}

/**
 * The analysis of the review's current revision; null for an unknown review. The document is the
 * shared parse (`readReview`), and an analysis of it may be shared too (`analyzeShared`): callers
 * read the result and never change it.
 */
export async function analyzeStoredReview(db: Db, id: ReviewId): Promise<ReviewAnalysis | null> {
  const record = await readReview(db, id);
  if (!record) return null;
  return labelled(await openReview(db, id, { record, readOnly: true }));
}
