import { isServer, QueryClient } from "@tanstack/react-query";

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30 * 1000,
        retry: (count, error) => count < 2 && !(error instanceof Error && "status" in error),
      },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** One client per request on the server, one for the lifetime of the page in the browser. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
