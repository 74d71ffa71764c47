"use client";
/**
 * Client-only entry to the d3 graph: d3 touches the DOM, so the graph's code is a separate chunk,
 * loaded in the browser only. Not next/dynamic: that wraps the graph in a Suspense boundary, and
 * React holds back revealing a boundary that suspended for up to 300 ms, so the graph painted
 * about 200 ms after its code and data were both in. Here the loaded module is a small external
 * store: a render that finds it loaded draws in the same commit, and a server render (or the
 * hydration of one) always sees it not loaded, so the two cannot mismatch.
 */
import { useSyncExternalStore } from "react";
import { GRAPH_WIDTH } from "./layout";
import type * as GraphModuleExports from "./source-sink-graph";
import type { SourceSinkGraphProps } from "./source-sink-graph";

type GraphModule = typeof GraphModuleExports;
type LoadState = { module: GraphModule | null; error: string | null };

let state: LoadState = { module: null, error: null };
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();
const NOT_LOADED: LoadState = { module: null, error: null };

function load(): Promise<void> {
  loading ??= import("./source-sink-graph").then(
    (module) => {
      state = { module, error: null };
      listeners.forEach((l) => l());
    },
    (error: unknown) => {
      loading = null; // the next render or preload fetches again
      state = { module: null, error: error instanceof Error ? error.message : String(error) };
      listeners.forEach((l) => l());
    },
  );
  return loading;
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  if (!state.module) void load(); // errors land in `state`
  return () => listeners.delete(onChange);
}

/** Start loading the graph's code early (e.g. while the analysis is still being fetched). */
export function preloadSourceSinkGraph(): void {
  void load();
}

/** The graph, once its code is here; a placeholder of the graph's width until then. */
export function SourceSinkGraph(props: SourceSinkGraphProps) {
  const { module, error } = useSyncExternalStore(
    subscribe,
    () => state,
    () => NOT_LOADED,
  );
  if (error) {
    return (
      <div className="callout danger" role="alert">
        The graph could not be loaded ({error}); the paths table lists the same paths. Reload the
        page to try again.
      </div>
    );
  }
  if (!module)
    return (
      <div
        className="skeleton"
        style={{ width: GRAPH_WIDTH, height: 320 }}
        aria-busy="true"
        aria-label="Drawing the graph"
      />
    );
  const Graph = module.default;
  return <Graph {...props} />;
}
export type { SourceSinkGraphProps } from "./source-sink-graph";
