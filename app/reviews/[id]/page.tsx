import {
  dehydrate,
  HydrationBoundary,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import { preload } from "react-dom";
import { getQueryClient } from "@/app/get-query-client";
import { oauthKeys, secretKeys } from "@/components/query-keys";
import { credentialSurfacesOptions, surfaceOptions } from "@/components/surface/queries";
import { graphUrl } from "@/components/review/analysis-queries";
import {
  DEFAULT_SECTION,
  isReviewSection,
  sectionNeedsDocument,
} from "@/components/review/sections";
import { summaryUrl } from "@/components/reviews/summary-queries";
import { ReviewWorkbench } from "@/components/review/workbench";
import {
  reviewHeadOptions,
  reviewOptions,
  revisionDiffUrl,
  revisionListUrl,
} from "@/components/reviews/queries";
import { ReviewIdSchema } from "@/lib/ids";
import { reviewHead } from "@/lib/reviews/api";
import type { ReviewRecord } from "@/lib/reviews/record";
import { getDb, type Db } from "@/lib/store/db";
import { readReview } from "@/lib/store/reviews";
import { isRemoteTransport } from "@/lib/transport-kind";
import { oauthConnectionState } from "@/lib/workbench/oauth";
import { credentialSurfacesOf } from "@/lib/workbench/credential-surfaces";
import { serverVariables } from "@/lib/workbench/secrets";
import { surfaceView } from "@/lib/workbench/surface";

/** Same credentials mode as the client's fetch (apiFetch), so the browser reuses the response. */
const preloadFetch = (url: string) => preload(url, { as: "fetch", crossOrigin: "anonymous" });

/**
 * Everything each server card draws from a query, as the routes answer it: the variables it needs,
 * a remote server's authorization, its live surface (latest inspection, snapshot, pin check and
 * diff) and, once inspected, its surfaces per credential. Loaded after hydration, each arrived once
 * the Inspect buttons were enabled and moved every button below it (the cards stack), so a click
 * pressed on one was released beside it and lost. Whatever fails is left to its own fetch.
 */
async function prefetchServerCards(queryClient: QueryClient, record: ReviewRecord, db: Db) {
  const { id, revision } = record;
  /** `load`'s answer into the query `key`; a failure leaves that query to its own fetch. */
  const into = async <T,>(key: QueryKey, load: () => Promise<T>): Promise<T | null> => {
    try {
      const value = await load();
      queryClient.setQueryData(key, value);
      return value;
    } catch {
      return null;
    }
  };
  await Promise.all(
    record.review.servers
      .filter((s) => s.transport.kind !== "manual")
      .map(async (s) => {
        const [, , surface] = await Promise.all([
          into(secretKeys.server(id, s.id, revision), () => serverVariables(db, s)),
          isRemoteTransport(s.transport)
            ? into(oauthKeys.revision(id, s.id, revision), () => oauthConnectionState(db, id, s))
            : null,
          into(surfaceOptions(id, s.id, revision).queryKey, () => surfaceView(db, record, s)),
        ]);
        // The panel draws its surfaces per credential only under a current surface.
        if (surface?.current)
          await into(credentialSurfacesOptions(id, s.id, revision, null).queryKey, () =>
            credentialSurfacesOf(db, id, s),
          );
      }),
  );
}

/**
 * The review workbench. The review is loaded here, on the server, into the query the client
 * reads, so the page renders at hydration instead of after a round trip: the whole document for
 * a section that edits it, only its head (`ReviewHead`) for the Graph and History sections, which
 * draw from their own routes (the document of the 5,000-tool review is 1.2 MB of the page's HTML
 * for the browser to parse and hydrate). Those routes are preloaded: the browser fetches them
 * while it loads the scripts, and the client's fetch of the same URL takes that response (the
 * graph view, lib/graph/view.ts; the revision list and the diff of the last two revisions). On
 * Servers, everything each card draws from a query is loaded here as well (prefetchServerCards).
 * An unknown or malformed id loads nothing, and the client shows its own "does not exist" state.
 */
export default async function ReviewPage(props: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ section?: string | string[]; graph?: string | string[] }>;
}) {
  const { id } = await props.params;
  const { section, graph } = await props.searchParams;
  const current =
    typeof section === "string" && isReviewSection(section) ? section : DEFAULT_SECTION;
  const queryClient = getQueryClient();
  const reviewId = ReviewIdSchema.safeParse(id);
  // Only serialised into the page, never written to: the shared parse will do.
  const db = await getDb();
  const record = reviewId.success ? await readReview(db, reviewId.data) : null;
  if (record) {
    if (sectionNeedsDocument(current)) queryClient.setQueryData(reviewOptions(id).queryKey, record);
    else queryClient.setQueryData(reviewHeadOptions(id).queryKey, reviewHead(record));
    if (current === "servers") await prefetchServerCards(queryClient, record, db);
    if (current === "summary") preloadFetch(summaryUrl(id));
    if (current === "graph") preloadFetch(graphUrl(id, graph === "all" ? "whole" : "focus"));
    if (current === "history") {
      preloadFetch(revisionListUrl(id));
      // The History section opens on the last two revisions.
      if (record.revision > 1)
        preloadFetch(revisionDiffUrl(id, record.revision - 1, record.revision));
    }
  }
  return (
    <main className="page">
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ReviewWorkbench id={id} section={current} />
      </HydrationBoundary>
    </main>
  );
}
