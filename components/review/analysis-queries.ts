/**
 * The analysis of a review, as the server computed it. Keyed on the review revision: the editor's
 * save puts the new revision in the detail query, so the next render asks for a new key and the
 * analysis refetches; the previous revision's result stays on screen (marked as updating) meanwhile.
 */
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { apiFetch } from "@/components/api-client";
import { analysisKeys } from "@/components/query-keys";
import type { Analysis } from "@/lib/analysis/analyze";
import { ANALYSIS_VERSION } from "@/lib/analysis/version";
import type { ReviewId } from "@/lib/ids";

export type ReviewAnalysis = Analysis & { reviewId: ReviewId; revision: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/**
 * The route serialises `analyzeReview`'s typed result, and the lib has no zod schema for it; this
 * checks the envelope the UI relies on (version, revision, graph, paths, agents, controls, findings)
 * so a wrong body fails loudly here rather than deep inside the graph.
 */
export const ReviewAnalysisSchema = z.custom<ReviewAnalysis>((v) => {
  if (
    !isObject(v) ||
    v.version !== ANALYSIS_VERSION ||
    typeof v.revision !== "number" ||
    typeof v.reviewId !== "string"
  )
    return false;
  const { graph, paths, controls } = v;
  return (
    isObject(graph) &&
    Array.isArray(graph.nodes) &&
    Array.isArray(graph.edges) &&
    isObject(paths) &&
    Array.isArray(paths.listed) &&
    typeof paths.total === "number" &&
    isObject(controls) &&
    isObject(controls.residue) &&
    isObject(controls.separation) &&
    Array.isArray(v.agents) &&
    Array.isArray(v.findings) &&
    Array.isArray(v.sources) &&
    Array.isArray(v.tools)
  );
}, "not an analysis response");

/** The analysis route of a review (the review page preloads it on the Graph section). */
export const analysisUrl = (id: string) => `/api/reviews/${encodeURIComponent(id)}/analysis`;

export const analysisOptions = (id: string, revision: number) =>
  queryOptions({
    queryKey: analysisKeys.revision(id, revision),
    queryFn: () => apiFetch(analysisUrl(id), ReviewAnalysisSchema),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
