/** Query options for a review's summary and the reviews list's columns (lib/reviews/summary.ts). */
import { queryOptions } from "@tanstack/react-query";
import { apiFetch } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import { ReviewOverviewResponseSchema, ReviewSummaryViewSchema } from "@/lib/reviews/summary";

/** Under `reviewKeys.all`, so whatever refreshes a review's queries refreshes these too. */
export const summaryKeys = {
  overview: () => [...reviewKeys.all, "overview"] as const,
  review: (id: string, revision: number) => [...reviewKeys.all, "summary", id, revision] as const,
};

export const summaryUrl = (id: string) => `/api/reviews/${encodeURIComponent(id)}/summary`;

export const reviewSummaryOptions = (id: string, revision: number) =>
  queryOptions({
    queryKey: summaryKeys.review(id, revision),
    queryFn: () => apiFetch(summaryUrl(id), ReviewSummaryViewSchema),
  });

export const reviewsOverviewOptions = () =>
  queryOptions({
    queryKey: summaryKeys.overview(),
    queryFn: () => apiFetch("/api/reviews/overview", ReviewOverviewResponseSchema),
  });
