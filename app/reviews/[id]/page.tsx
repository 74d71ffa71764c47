import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import { preload } from "react-dom";
import { getQueryClient } from "@/app/get-query-client";
import { oauthKeys, secretKeys } from "@/components/query-keys";
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
import { serverVariables } from "@/lib/workbench/secrets";

/** Same credentials mode as the client's fetch (apiFetch), so the browser reuses the response. */
const preloadFetch = (url: string) => preload(url, { as: "fetch", crossOrigin: "anonymous" });

/**
 * The rows of each server card above its Inspect button: the variables it needs and a remote
 * server's authorization, as their routes answer them. Loaded after hydration they arrived once
 * the button was enabled and pushed it down, so a click pressed on the button was released
 * beside it and lost. Either failing leaves that row to its own fetch, as before.
 */
async function prefetchServerCards(queryClient: QueryClient, record: ReviewRecord, db: Db) {
  const { id, revision } = record;
  await Promise.all(
    record.review.servers
      .filter((s) => s.transport.kind !== "manual")
      .map(async (s) => {
        const [variables, oauth] = await Promise.allSettled([
          serverVariables(db, s),
          isRemoteTransport(s.transport) ? oauthConnectionState(db, id, s) : null,
        ]);
        if (variables.status === "fulfilled")
          queryClient.setQueryData(secretKeys.server(id, s.id, revision), variables.value);
        if (oauth.status === "fulfilled" && oauth.value)
          queryClient.setQueryData(oauthKeys.revision(id, s.id, revision), oauth.value);
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
 * Servers, the rows of each card above its Inspect button are loaded here as well.
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
