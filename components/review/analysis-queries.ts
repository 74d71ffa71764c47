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
import {
  decodeGraphSection,
  type GraphScope,
  type GraphSectionData,
  type GraphSectionWire,
  type PathDetail,
  type ToolDetail,
} from "@/lib/graph/section";
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

export type ReviewGraph = GraphSectionData & { reviewId: ReviewId; revision: number };

/** The envelope the graph section relies on; `decodeGraphSection` checks every edge it restores. */
const ReviewGraphWireSchema = z.custom<GraphSectionWire & { reviewId: ReviewId; revision: number }>(
  (v) => {
    if (
      !isObject(v) ||
      v.version !== ANALYSIS_VERSION ||
      typeof v.revision !== "number" ||
      typeof v.reviewId !== "string" ||
      (v.scope !== "focus" && v.scope !== "whole")
    )
      return false;
    const { graph, paths, controls } = v;
    return (
      isObject(graph) &&
      Array.isArray(graph.nodes) &&
      Array.isArray(graph.edges) &&
      isObject(paths) &&
      Array.isArray(paths.listed) &&
      isObject(controls) &&
      isObject(controls.residue) &&
      Array.isArray(controls.catalog) &&
      Array.isArray(controls.evaluations) &&
      Array.isArray(controls.sessionMarks) &&
      Array.isArray(v.agents) &&
      Array.isArray(v.controlsOnPath) &&
      Array.isArray(v.toolLists)
    );
  },
  "not a graph view response",
);

/** The graph view route: what the Graph section draws (`lib/graph/view.ts`); the page preloads it. */
export const graphUrl = (id: string, scope: GraphScope) =>
  `/api/reviews/${encodeURIComponent(id)}/graph?scope=${scope}`;

export const graphOptions = (id: string, revision: number, scope: GraphScope) =>
  queryOptions({
    queryKey: analysisKeys.graph(id, revision, scope),
    queryFn: async (): Promise<ReviewGraph> => {
      const wire = await apiFetch(graphUrl(id, scope), ReviewGraphWireSchema);
      return { ...decodeGraphSection(wire), reviewId: wire.reviewId, revision: wire.revision };
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

const ToolDetailResponseSchema = z.custom<{ tool: ToolDetail | null }>(
  (v) => isObject(v) && (v.tool === null || (isObject(v.tool) && Array.isArray(v.tool.roles))),
  "not a tool detail",
);
const PathDetailResponseSchema = z.custom<{ path: PathDetail | null }>(
  (v) =>
    isObject(v) &&
    (v.path === null ||
      (isObject(v.path) && Array.isArray(v.path.onPath) && Array.isArray(v.path.atNodes))),
  "not a path detail",
);
const detailsUrl = (id: string, query: string) =>
  `/api/reviews/${encodeURIComponent(id)}/graph/details?${query}`;

/** A tool's role reasons and a path's findings, fetched when the graph opens them. */
export const graphDetailsFetchers = (id: string) => ({
  tool: async (key: string) =>
    (await apiFetch(detailsUrl(id, `tool=${encodeURIComponent(key)}`), ToolDetailResponseSchema))
      .tool,
  path: async (pathId: string) =>
    (await apiFetch(detailsUrl(id, `path=${encodeURIComponent(pathId)}`), PathDetailResponseSchema))
      .path,
});

/** The analysis route of a review (the review page preloads it on the Graph section). */
export const analysisUrl = (id: string) => `/api/reviews/${encodeURIComponent(id)}/analysis`;

export const analysisOptions = (id: string, revision: number) =>
  queryOptions({
    queryKey: analysisKeys.revision(id, revision),
    queryFn: () => apiFetch(analysisUrl(id), ReviewAnalysisSchema),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
