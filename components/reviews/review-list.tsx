"use client";

import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ImportPanel } from "@/components/import/import-panel";
import { reviewKeys } from "@/components/query-keys";
import { ReviewTable } from "@/components/reviews/review-table";
import { createReview, deleteReview, reviewListOptions } from "@/components/reviews/queries";
import { REVIEW_SCHEMA_VERSION } from "@/lib/review/schema";
import type { ReviewSummary } from "@/lib/reviews/api";

export function ReviewList() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const list = useQuery(reviewListOptions());
  const [title, setTitle] = useState("");
  const [pendingDelete, setPendingDelete] = useState<ReviewSummary | null>(null);

  const create = useMutation({
    mutationFn: createReview,
    onSuccess: (record) => router.push(`/reviews/${record.id}`),
    onSettled: () => refreshAfterWrite(queryClient, reviewKeys.list()),
  });
  const remove = useMutation({
    mutationFn: deleteReview,
    onSettled: () => refreshAfterWrite(queryClient, reviewKeys.list()),
  });

  const onCreate = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return;
    create.mutate({ review: { schemaVersion: REVIEW_SCHEMA_VERSION, title: trimmed } });
  };

  return (
    <div className="stack">
      <form className="card row" onSubmit={onCreate} aria-label="Create a review">
        <label className="field" style={{ flex: 1 }}>
          <span className="label-text">New review</span>
          <input
            name="title"
            placeholder="e.g. tracker-mcp into the support agent"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            maxLength={200}
          />
        </label>
        <div className="row" style={{ alignSelf: "flex-end" }}>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={!title.trim() || create.isPending}
          >
            Create review
          </button>
          <button
            type="button"
            className="btn"
            disabled={create.isPending}
            onClick={() => create.mutate({ demo: true })}
          >
            Create the demo review
          </button>
        </div>
      </form>
      <details className="card">
        <summary style={{ cursor: "pointer", fontWeight: 600 }}>
          Start a review from an MCP client config
        </summary>
        <div style={{ marginTop: "0.75rem" }}>
          <ImportPanel
            onImported={(result) => router.push(`/reviews/${result.reviewId}?section=servers`)}
          />
        </div>
      </details>
      {create.isError && (
        <p className="callout danger" role="alert">
          Could not create the review: {create.error.message}
        </p>
      )}
      {remove.isError && (
        <p className="callout danger" role="alert">
          Could not delete the review: {remove.error.message}
        </p>
      )}

      <section className="card" aria-labelledby="reviews-heading">
        <h2 id="reviews-heading">Reviews</h2>
        {list.isPending ? (
          <div className="skeleton" style={{ height: "6rem" }} aria-busy="true" />
        ) : list.isError ? (
          <div className="callout danger" role="alert">
            Could not load reviews: {list.error.message}{" "}
            <button type="button" className="btn btn-ghost" onClick={() => void list.refetch()}>
              Retry
            </button>
          </div>
        ) : list.data.reviews.length === 0 ? (
          <div className="empty">
            <h3>No reviews yet</h3>
            <p>
              Create one above, or start from the demo review of knowledge-mcp and the on-call
              agent.
            </p>
          </div>
        ) : (
          <ReviewTable reviews={list.data.reviews} onDelete={setPendingDelete} />
        )}
      </section>
      <ConfirmDialog
        open={pendingDelete !== null}
        title="Delete this review?"
        body={`“${pendingDelete?.title ?? ""}” and all ${pendingDelete?.revision ?? 0} of its revisions will be deleted. This cannot be undone.`}
        confirmLabel="Delete review"
        danger
        onCancel={() => setPendingDelete(null)}
        onConfirm={() => {
          if (pendingDelete) remove.mutate(pendingDelete.id);
          setPendingDelete(null);
        }}
      />
    </div>
  );
}
