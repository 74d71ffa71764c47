"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import { reviewOptions, updateReview } from "@/components/reviews/queries";
import type { SaveState } from "@/components/ui/save-status";
import { ConflictDetailsSchema, type ReviewRecord } from "@/lib/reviews/api";
import type { Review } from "@/lib/review/schema";

/**
 * Loads a review and saves edits as new revisions. Every save names the revision it was based on;
 * a 409 keeps the reviewer's unsaved document so it can be reapplied on top of the current one.
 */
export function useReviewEditor(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery(reviewOptions(id));
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  const [conflict, setConflict] = useState<{ current: ReviewRecord; mine: Review } | null>(null);

  const mutation = useMutation({
    mutationFn: (vars: { baseRevision: number; review: Review }) => updateReview(id, vars),
    onMutate: () => setState({ kind: "saving" }),
    onSuccess: (record) => {
      queryClient.setQueryData(reviewKeys.detail(id), record);
      setConflict(null);
      setState({ kind: "saved", revision: record.revision });
    },
    onError: (error, vars) => {
      if (error instanceof ApiError && error.status === 409) {
        const details = ConflictDetailsSchema.safeParse(error.body?.error.details);
        if (details.success) {
          setConflict({ current: details.data.current, mine: vars.review });
          setState({ kind: "conflict", currentRevision: details.data.current.revision });
          return;
        }
      }
      setState({ kind: "error", message: error.message });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reviewKeys.list() }),
  });

  /**
   * Saves `update` of the current revision. `basedOn` is the revision the change was made from
   * (e.g. the one the analysis on screen was computed from): when the page holds a newer one, the
   * change is refused rather than written over what the reviewer has not seen.
   */
  const save = (
    update: (review: Review) => Review,
    options: { basedOn?: number } = {},
  ): Promise<boolean> => {
    const record = query.data;
    if (!record || mutation.isPending) return Promise.resolve(false);
    if (options.basedOn !== undefined && options.basedOn !== record.revision) {
      setState({
        kind: "error",
        message: `this change was made on revision ${options.basedOn}, and revision ${record.revision} is saved now; check it again`,
      });
      return Promise.resolve(false);
    }
    return mutation
      .mutateAsync({
        baseRevision: record.revision,
        review: update(structuredClone(record.review)),
      })
      .then(() => true)
      .catch(() => false);
  };

  /** Adopt the current revision and drop the unsaved change. */
  const discardMine = () => {
    if (!conflict) return;
    queryClient.setQueryData(reviewKeys.detail(id), conflict.current);
    setConflict(null);
    setState({ kind: "idle" });
  };

  /** Save the unsaved document on top of the current revision (the reviewer chose to overwrite). */
  const saveMineOnTop = () => {
    if (!conflict) return;
    const { current, mine } = conflict;
    queryClient.setQueryData(reviewKeys.detail(id), current);
    mutation.mutate({ baseRevision: current.revision, review: mine });
  };

  return {
    query,
    record: query.data,
    save,
    state,
    conflict,
    discardMine,
    saveMineOnTop,
    isSaving: mutation.isPending,
  };
}
export type ReviewEditor = ReturnType<typeof useReviewEditor>;
