"use client";
/** Client-only entry to the d3 graph: d3 touches the DOM, so it never renders on the server. */
import dynamic from "next/dynamic";
import { GRAPH_WIDTH } from "./layout";

const load = () => import("./source-sink-graph");

/** Start loading the graph's code early (e.g. while the analysis is still being fetched). */
export function preloadSourceSinkGraph(): void {
  void load().catch(() => undefined); // a failed preload is retried by the real import
}

export const SourceSinkGraph = dynamic(load, {
  ssr: false,
  loading: () => <div className="skeleton" style={{ width: GRAPH_WIDTH, height: 320 }} aria-busy="true" aria-label="Drawing the graph" />,
});
export type { SourceSinkGraphProps } from "./source-sink-graph";
