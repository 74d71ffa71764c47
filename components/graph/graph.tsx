"use client";
/** Client-only entry to the d3 graph: d3 touches the DOM, so it never renders on the server. */
import dynamic from "next/dynamic";
import { GRAPH_WIDTH } from "./layout";

export const SourceSinkGraph = dynamic(() => import("./source-sink-graph"), {
  ssr: false,
  loading: () => <div className="skeleton" style={{ width: GRAPH_WIDTH, height: 320 }} aria-busy="true" aria-label="Drawing the graph" />,
});
export type { SourceSinkGraphProps } from "./source-sink-graph";
