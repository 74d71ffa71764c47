"use client";

import { refreshAfterWrite } from "@/components/refresh-after-write";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useState } from "react";
import { ApiError } from "@/components/api-client";
import { reviewKeys } from "@/components/query-keys";
import {
  recordSchemas,
  reviewHeadOptions,
  reviewOptions,
  updateReview,
} from "@/components/reviews/queries";
import type { SaveState } from "@/components/ui/save-status";
import { reviewHead, type ReviewHead } from "@/lib/reviews/api";
import type { ReviewRecord } from "@/lib/reviews/record";
import type { Review } from "@/lib/review/schema";

/**
 * Loads a review and saves edits as new revisions. Every save names the revision it was based on;
 * a 409 keeps the reviewer's unsaved document so it can be reapplied on top of the current one.
 *
 * `document: false` (the Graph and History sections): the page shows the review's head and the
 * whole document is loaded only when a change is saved (`loadDocument`); a saved record lands in
 * the same detail query either way, and `head` follows whichever of the two is newer.
 */
export function useReviewEditor(id: string, options: { document?: boolean } = {}) {
  const withDocument = options.document ?? true;
  const queryClient = useQueryClient();
  const query = useQuery({ ...reviewOptions(id), enabled: withDocument });
  const headQuery = useQuery({ ...reviewHeadOptions(id), enabled: !withDocument });
  const head = useMemo<ReviewHead | undefined>(() => {
    const fromRecord = query.data ? reviewHead(query.data) : undefined;
    const loaded = headQuery.data;
    if (!fromRecord || !loaded) return fromRecord ?? loaded;
    return loaded.revision > fromRecord.revision ? loaded : fromRecord;
  }, [query.data, headQuery.data]);
  const status = withDocument ? query : headQuery;
  const [state, setState] = useState<SaveState>({ kind: "idle" });
  const [conflict, setConflict] = useState<{ current: ReviewRecord; mine: Review } | null>(null);
  // Edits a section holds but has not saved yet (e.g. a burst of role ticks waiting to be saved as
  // one revision), by section: the header says so instead of "All changes saved", and leaving warns.
  const [unsaved, setUnsaved] = useState<ReadonlyMap<string, number>>(new Map());
  const setUnsavedCount = useCallback(
    (owner: string, count: number) =>
      setUnsaved((prev) => {
        if ((prev.get(owner) ?? 0) === count) return prev;
        const next = new Map(prev);
        if (count > 0) next.set(owner, count);
        else next.delete(owner);
        return next;
      }),
    [],
  );
  const unsavedCount = [...unsaved.values()].reduce((a, b) => a + b, 0);
  useEffect(() => {
    if (unsavedCount === 0) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [unsavedCount]);

  const mutation = useMutation({
    mutationFn: (vars: { baseRevision: number; review: Review }) => updateReview(id, vars),
    onMutate: () => setState({ kind: "saving" }),
    onSuccess: (record) => {
      queryClient.setQueryData(reviewKeys.detail(id), record);
      setConflict(null);
      setState({ kind: "saved", revision: record.revision });
    },
    onError: async (error, vars) => {
      if (error instanceof ApiError && error.status === 409) {
        const { ConflictDetailsSchema } = await recordSchemas(); // loaded by the save already
        const details = ConflictDetailsSchema.safeParse(error.body?.error.details);
        if (details.success) {
          setConflict({ current: details.data.current, mine: vars.review });
          setState({ kind: "conflict", currentRevision: details.data.current.revision });
          return;
        }
      }
      setState({ kind: "error", message: error.message });
    },
    onSettled: () => refreshAfterWrite(queryClient, reviewKeys.list()),
  });

  /**
   * Saves `update` of the current revision. `basedOn` is the revision the change was made from
   * (e.g. the one the analysis on screen was computed from): when the page holds a newer one, the
   * change is refused rather than written over what the reviewer has not seen.
   */
  const save = async (
    update: (review: Review) => Review,
    options: { basedOn?: number } = {},
  ): Promise<boolean> => {
    if (mutation.isPending) return false;
    const record = await loadDocument().catch((error: unknown) => {
      setState({ kind: "error", message: error instanceof Error ? error.message : String(error) });
      return null;
    });
    if (!record) return false;
    if (options.basedOn !== undefined && options.basedOn !== record.revision) {
      setState({
        kind: "error",
        message: `this change was made on revision ${options.basedOn}, and revision ${record.revision} is saved now; check it again`,
      });
      return false;
    }
    return mutation
      .mutateAsync({
        baseRevision: record.revision,
        review: update(structuredClone(record.review)),
      })
      .then(() => true)
      .catch(() => false);
  };

  /** The whole current document: the one on the page, else fetched (a section without it saving a change). */
  const loadDocument = (): Promise<ReviewRecord> => {
    const loaded = queryClient.getQueryData<ReviewRecord>(reviewKeys.detail(id));
    return loaded ? Promise.resolve(loaded) : queryClient.fetchQuery(reviewOptions(id));
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
    /** The review's document query (idle on a section that does not load it). */
    query,
    record: query.data,
    head,
    /** Nothing to show yet: the document, or on a section without it the head, is loading. */
    isPending: !head && status.isPending,
    error: head ? null : status.error,
    loadDocument,
    save,
    state,
    conflict,
    discardMine,
    saveMineOnTop,
    isSaving: mutation.isPending,
    /** What the header shows: unsaved edits outrank "All changes saved" and "Saved". */
    shownState:
      unsavedCount > 0 && (state.kind === "idle" || state.kind === "saved")
        ? ({ kind: "unsaved", count: unsavedCount } satisfies SaveState)
        : state,
    /** A section reports how many edits it holds unsaved (0 when they are saved or dropped). */
    setUnsavedCount,
  };
}
export type ReviewEditor = ReturnType<typeof useReviewEditor>;
