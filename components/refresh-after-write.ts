import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Fetches `queryKey` anew after a write. A fetch still in flight began before the write (a list's
 * first load, when the reviewer acts before it has answered); invalidating alone would join it,
 * because TanStack Query reuses an in-flight fetch while the query has no data yet, and the list
 * would show nothing of what was just written. Cancelling first makes the next fetch a new one.
 */
export async function refreshAfterWrite(queryClient: QueryClient, queryKey: QueryKey) {
  await queryClient.cancelQueries({ queryKey });
  await queryClient.invalidateQueries({ queryKey });
}
