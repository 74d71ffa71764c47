/** Query options and mutations for reviews, shared by every component that reads or writes them. */
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import {
  ListReviewsResponseSchema,
  ListRevisionsResponseSchema,
  ReviewHeadSchema,
} from "@/lib/reviews/api";
import type { CreateReviewRequest, UpdateReviewRequest } from "@/lib/reviews/record";

/**
 * The schemas of a whole review record, with the document's schema behind them: imported when a
 * document is loaded or saved, so a page that shows only reviews' heads does not load them.
 */
export const recordSchemas = () => import("@/lib/reviews/record");

export const reviewListOptions = () =>
  queryOptions({
    queryKey: reviewKeys.list(),
    queryFn: () => apiFetch("/api/reviews", ListReviewsResponseSchema),
  });

export const reviewOptions = (id: string) =>
  queryOptions({
    queryKey: reviewKeys.detail(id),
    queryFn: async () =>
      apiFetch(
        `/api/reviews/${encodeURIComponent(id)}`,
        (await recordSchemas()).ReviewRecordSchema,
      ),
  });

export const reviewHeadOptions = (id: string) =>
  queryOptions({
    queryKey: reviewKeys.head(id),
    queryFn: () => apiFetch(`/api/reviews/${encodeURIComponent(id)}/head`, ReviewHeadSchema),
  });

/** The revision list route; the review page preloads it on the History section. */
export const revisionListUrl = (id: string) => `/api/reviews/${encodeURIComponent(id)}/revisions`;

/** What changed between two revisions (or, with `item`, that item's two sides); preloaded like the list. */
export const revisionDiffUrl = (id: string, from: number, to: number, item?: string) =>
  `/api/reviews/${encodeURIComponent(id)}/revisions/diff?from=${from}&to=${to}${item === undefined ? "" : `&item=${encodeURIComponent(item)}`}`;

export const revisionsOptions = (id: string) =>
  queryOptions({
    queryKey: reviewKeys.revisions(id),
    queryFn: () => apiFetch(revisionListUrl(id), ListRevisionsResponseSchema),
  });

export async function createReview(body: CreateReviewRequest) {
  return apiFetch("/api/reviews", (await recordSchemas()).ReviewRecordSchema, {
    method: "POST",
    body: JSON.stringify(body),
  });
}

export async function updateReview(id: string, body: UpdateReviewRequest) {
  const { ReviewRecordSchema } = await recordSchemas();
  return apiFetch(`/api/reviews/${encodeURIComponent(id)}`, ReviewRecordSchema, {
    method: "PUT",
    body: JSON.stringify(body),
  });
}

export function deleteReview(id: string) {
  return apiFetch(`/api/reviews/${encodeURIComponent(id)}`, z.undefined(), { method: "DELETE" });
}
