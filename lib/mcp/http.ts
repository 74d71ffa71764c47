/**
 * HTTP openers: Streamable HTTP, and legacy SSE as its fallback. Bytes are counted by wrapping
 * the transports' `fetch`: every response body is piped through a counter before the SDK reads
 * it, so an endless body trips `totalBytes` while streaming. When an egress guard is set, every
 * request URL is re-checked just before it is sent and redirects are refused (a redirect to
 * 169.254.169.254 would otherwise bypass the check).
 */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { InspectionGuard } from "@/lib/mcp/guard";
import { streamableFallbackReason, type TransportOpener } from "@/lib/mcp/session";
import type { EgressGuard } from "@/lib/mcp/types";

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export function countingFetch(
  guard: InspectionGuard,
  egress: EgressGuard | null,
  baseFetch: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const target = new URL(url);
    if (egress) {
      const refusal = await egress(target);
      if (refusal) {
        guard.trip({ code: "refused", message: refusal });
        throw new Error(refusal);
      }
    }
    // A trip closes the transport, which aborts the SDK's own request signals; no signal combining
    // here (one listener per request on a shared signal would pile up).
    const res = await baseFetch(target, {
      ...init,
      ...(egress ? { redirect: "error" as const } : {}),
    });
    if (!res.body || NULL_BODY_STATUS.has(res.status)) return res;
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!guard.addBytes(chunk.byteLength)) {
          controller.error(new Error("response exceeded the totalBytes limit"));
          return;
        }
        controller.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(counter), {
      status: res.status,
      statusText: res.statusText,
      headers: res.headers,
    });
  };
}

export type HttpTargetOptions = {
  headers?: Record<string, string>;
  egress?: EgressGuard | null;
  fetch?: FetchLike;
};

export function streamableHttpOpener(
  url: string,
  options: HttpTargetOptions = {},
): TransportOpener {
  return {
    kind: "streamable-http",
    label: url,
    open: (guard) => ({
      kind: "streamable-http",
      countsBytes: true,
      transport: new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: options.headers ?? {} },
        fetch: countingFetch(guard, options.egress ?? null, options.fetch),
        reconnectionOptions: {
          maxRetries: 0,
          initialReconnectionDelay: 1000,
          maxReconnectionDelay: 1000,
          reconnectionDelayGrowFactor: 1,
        },
      }),
      fallbackReason: streamableFallbackReason,
    }),
  };
}

export function sseOpener(url: string, options: HttpTargetOptions = {}): TransportOpener {
  return {
    kind: "sse",
    label: url,
    open: (guard) => {
      const fetchFn = countingFetch(guard, options.egress ?? null, options.fetch);
      return {
        kind: "sse",
        countsBytes: true,
        transport: new SSEClientTransport(new URL(url), {
          requestInit: { headers: options.headers ?? {} },
          eventSourceInit: {
            fetch: (u, init) =>
              fetchFn(u, {
                ...init,
                headers: { ...(init?.headers as Record<string, string>), ...options.headers },
              }),
          },
          fetch: fetchFn,
        }),
      };
    },
  };
}
