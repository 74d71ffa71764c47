import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { preload } from "react-dom";
import { getQueryClient } from "@/app/get-query-client";
import { graphUrl } from "@/components/review/analysis-queries";
import { isReviewSection } from "@/components/review/sections";
import { ReviewWorkbench } from "@/components/review/workbench";
import { reviewOptions } from "@/components/reviews/queries";
import { ReviewIdSchema } from "@/lib/ids";
import { getDb } from "@/lib/store/db";
import { getReview } from "@/lib/store/reviews";

/**
 * The review workbench. The review is loaded here, on the server, into the query the client
 * reads, so the page renders at hydration instead of after a round trip. On the Graph section the
 * graph view (lib/graph/view.ts) is preloaded: the browser fetches it while it loads the scripts, and the client's
 * fetch of the same URL takes that response. An unknown or malformed id loads nothing, and the
 * client shows its own "does not exist" state.
 */
export default async function ReviewPage(props: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ section?: string | string[]; graph?: string | string[] }>;
}) {
  const { id } = await props.params;
  const { section, graph } = await props.searchParams;
  const current = typeof section === "string" && isReviewSection(section) ? section : "sources";
  const queryClient = getQueryClient();
  const reviewId = ReviewIdSchema.safeParse(id);
  const record = reviewId.success ? await getReview(await getDb(), reviewId.data) : null;
  if (record) {
    queryClient.setQueryData(reviewOptions(id).queryKey, record);
    // Same URL and credentials mode as the client's fetch (apiFetch), so the browser reuses it.
    if (current === "graph")
      preload(graphUrl(id, graph === "all" ? "whole" : "focus"), {
        as: "fetch",
        crossOrigin: "anonymous",
      });
  }
  return (
    <main className="page">
      <HydrationBoundary state={dehydrate(queryClient)}>
        <ReviewWorkbench id={id} section={current} />
      </HydrationBoundary>
    </main>
  );
}
