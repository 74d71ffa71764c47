/**
 * HTTP openers: Streamable HTTP, and legacy SSE as its fallback. Bytes are counted by wrapping
 * the transports' `fetch`: every response body is piped through a counter before the SDK reads
 * it, so an endless body trips `totalBytes` while streaming. When an egress guard is set, every
 * request URL is re-checked just before it is sent and redirects are refused (a redirect to
 * 169.254.169.254 would otherwise bypass the check).
 *
 * With an OAuth provider (`auth`), the transport drives the SDK's flow on a 401/403, handing it
 * this transport's fetch; `oauthRouting` sends the flow's own requests (metadata, registration,
 * token) to the provider's `authFetch` instead (its egress checks and limits), tells the provider
 * about each challenge, and adds the target's static headers to MCP requests only, so a header
 * meant for the MCP server never reaches an authorization server. A JSON-RPC request refused while
 * another's authorization is in flight, or sent with the token it replaced, is not answered by a
 * second authorization: it fails with `AuthorizationInFlight`, for the caller (the gate) to wait
 * for that one and send the request again.
 */
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { InspectionGuard } from "@/lib/mcp/guard";
import { mcpHeaderValue, paramHeaders } from "@/lib/mcp/param-headers";
import { AuthorizationInFlight, type McpOAuthClient } from "@/lib/mcp/oauth/interface";
import { streamableFallbackReason, type TransportOpener } from "@/lib/mcp/session";
import type { EgressGuard } from "@/lib/mcp/types";

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * The largest single message read from an upstream HTTP server: a JSON body, or one event of an
 * event stream. While the surface is read `totalBytes` bounds everything; once a gate relays, byte
 * counting stops, and without this one endless answer would grow memory until the host gives out.
 * 32 MiB, as MAX_STDIO_LINE_BYTES on stdio: a large tool result fits; more fails closed.
 */
export const MAX_HTTP_MESSAGE_BYTES = 32 * 1024 * 1024;

/** The error for an upstream HTTP message past MAX_HTTP_MESSAGE_BYTES. */
export function messageTooLong(bytes: number): string {
  return `the server sent more than ${MAX_HTTP_MESSAGE_BYTES} bytes in one HTTP message (${bytes} bytes so far; bound MAX_HTTP_MESSAGE_BYTES); the connection was closed`;
}

/**
 * A counter of the bytes of the message being read, fed each chunk: the whole body, or for an
 * event stream the bytes since the last event's end (an empty line). A CR is not counted as a
 * line end, so `\r\r` never ends an event here: a stricter count, never a looser one.
 */
export function messageCounter(contentType: string | null): (chunk: Uint8Array) => number {
  let bytes = 0;
  if (!(contentType ?? "").toLowerCase().includes("text/event-stream"))
    return (chunk) => (bytes += chunk.byteLength);
  let afterLineEnd = false;
  const onlyCr = (chunk: Uint8Array, from: number, to: number) => {
    for (let i = from; i < to; i++) if (chunk[i] !== 0x0d) return false;
    return true;
  };
  // Line by line with indexOf (native), not byte by byte: a relayed stream may carry many MiB.
  return (chunk) => {
    let at = 0;
    while (at < chunk.length) {
      const lf = chunk.indexOf(0x0a, at);
      const end = lf < 0 ? chunk.length : lf;
      // Content, unless empty or the CR of a CRLF (a line of CRs alone is counted: stricter).
      const length = end - at;
      if (length > 2 || (length > 0 && !onlyCr(chunk, at, end))) {
        afterLineEnd = false;
        bytes += end - at;
      }
      if (lf < 0) break;
      bytes = afterLineEnd ? 0 : bytes + 1;
      afterLineEnd = true;
      at = lf + 1;
    }
    return bytes;
  };
}

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
    const message = messageCounter(res.headers.get("content-type"));
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!guard.addBytes(chunk.byteLength)) {
          controller.error(new Error("response exceeded the totalBytes limit"));
          return;
        }
        const bytes = message(chunk);
        if (bytes > MAX_HTTP_MESSAGE_BYTES) {
          // Fails closed: the session ends (the gate closes its upstream), not only this request.
          const text = messageTooLong(bytes);
          guard.trip({ code: "protocol_error", message: text });
          controller.error(new Error(text));
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
  auth?: McpOAuthClient;
};

/**
 * Whether a request the transport makes is an MCP message (to the endpoint) rather than one of
 * the OAuth flow's: the endpoint's own URL, a JSON-RPC body (the legacy SSE transport posts to an
 * endpoint the server names), or an event stream.
 */
export function isMcpRequest(endpoint: URL, url: URL, init: RequestInit | undefined): boolean {
  if (url.origin === endpoint.origin && url.pathname === endpoint.pathname) return true;
  if (typeof init?.body === "string" && init.body.includes('"jsonrpc"')) return true;
  return new Headers(init?.headers).get("accept")?.includes("text/event-stream") ?? false;
}

/** A POST of one JSON-RPC request (not a notification, a response, or a stream's GET). */
function isJsonRpcRequest(init: RequestInit | undefined): boolean {
  if (typeof init?.body !== "string") return false;
  try {
    const message: unknown = JSON.parse(init.body);
    return (
      typeof message === "object" && message !== null && "method" in message && "id" in message
    );
  } catch {
    return false;
  }
}

/** The transport's fetch with an OAuth provider: see the header comment. */
export function oauthRouting(
  endpoint: URL,
  mcpFetch: FetchLike,
  auth: McpOAuthClient,
  headers: Record<string, string>,
): FetchLike {
  return async (input, init) => {
    const url = new URL(String(input));
    if (!isMcpRequest(endpoint, url, init)) return auth.authFetch(url, init);
    const merged = new Headers(init?.headers);
    // The provider's bearer wins over a static Authorization header.
    for (const [name, value] of Object.entries(headers))
      if (!merged.has(name)) merged.set(name, value);
    const res = await mcpFetch(url, { ...init, headers: merged });
    if (res.status !== 401 && res.status !== 403) return res;
    const challenge = res.headers.get("www-authenticate");
    const joined = isJsonRpcRequest(init)
      ? auth.joinAuthorization(res.status, challenge, merged.get("authorization"))
      : null;
    if (joined) {
      await res.body?.cancel().catch(() => {});
      throw new AuthorizationInFlight(joined);
    }
    auth.noteChallenge(res.status, challenge, merged.has("authorization"));
    return res;
  };
}

/** The `_meta` key a 2026-07-28 request carries its protocol version in (SEP-2575). */
const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

/**
 * The headers a 2026-07-28 POST carries besides its body (SEP-2575, SEP-2243): the protocol
 * version (also on the `server/discover` probe, sent before any version was agreed), `Mcp-Method`,
 * and `Mcp-Name` for the requests that name a tool, prompt or resource. The session's transport
 * is the v1 SDK's, which adds none of them; on a tools/call also the `Mcp-Param-*` headers of the
 * arguments the tool's schema marks with `x-mcp-header` (param-headers.ts); a message without the 2026 `_meta` envelope (the 2025
 * era) is sent exactly as before.
 */
type RpcShape = { method?: unknown; params?: Record<string, unknown> };
/** A tool's input schema by name, as the session last listed it (for `Mcp-Param-*`). */
export type ToolSchemas = ReadonlyMap<string, { properties?: unknown }>;
export function withEraHeaders(inner: FetchLike, tools?: ToolSchemas): FetchLike {
  return (url, init) => {
    if (typeof init?.body !== "string" || (init.method ?? "GET").toUpperCase() !== "POST")
      return inner(url, init);
    let message: RpcShape | null = null;
    try {
      const parsed: unknown = JSON.parse(init.body);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) message = parsed;
    } catch {
      return inner(url, init);
    }
    const meta = message?.params?._meta as Record<string, unknown> | undefined;
    const version = meta?.[META_PROTOCOL_VERSION];
    if (!message || typeof message.method !== "string" || typeof version !== "string")
      return inner(url, init);
    const headers = new Headers(init.headers);
    if (!headers.has("mcp-protocol-version")) headers.set("mcp-protocol-version", version);
    headers.set("mcp-method", message.method);
    const named =
      message.method === "tools/call" || message.method === "prompts/get"
        ? message.params?.name
        : message.method === "resources/read"
          ? message.params?.uri
          : undefined;
    if (typeof named === "string") headers.set("mcp-name", mcpHeaderValue(named));
    if (message.method === "tools/call" && typeof named === "string")
      for (const [name, value] of Object.entries(
        paramHeaders(tools?.get(named), message.params?.arguments),
      ))
        headers.set(name, value);
    return inner(url, { ...init, headers });
  };
}

/** The transport's fetch and request init for a target, with or without OAuth. */
function transportFetch(
  url: string,
  guard: InspectionGuard,
  options: HttpTargetOptions,
  tools?: ToolSchemas,
): { fetch: FetchLike; requestInit: RequestInit } {
  const counting = withEraHeaders(
    countingFetch(guard, options.egress ?? null, options.fetch),
    tools,
  );
  if (!options.auth) return { fetch: counting, requestInit: { headers: options.headers ?? {} } };
  return {
    fetch: oauthRouting(new URL(url), counting, options.auth, options.headers ?? {}),
    requestInit: {},
  };
}

/**
 * SEP-1699: when an event stream closes before the answer it carries (a tools/call's POST stream,
 * or the GET stream), the SDK's transport waits the server's `retry` milliseconds and resumes with
 * a GET carrying `Last-Event-ID`, where the answer is delivered. Without a `retry` it backs off
 * from 1 s. A failed reconnection is retried twice more, then the request waits out its timeout.
 */
export const STREAM_RECONNECTION = {
  maxRetries: 2,
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 10_000,
  reconnectionDelayGrowFactor: 1.5,
} as const;
/**
 * The server drives those reconnections (it closes a stream, it sets `retry`, even to 0): at most
 * this many stream GETs in any minute; past it the GET is refused before it is sent, so a server
 * that keeps closing its streams costs a bounded number of requests (the SDK counts the refusal as
 * a failed reconnection and stops after `maxRetries`).
 */
export const MAX_STREAM_GETS_PER_MINUTE = 30;

/** The transport's fetch with stream GETs (reconnections) bounded by MAX_STREAM_GETS_PER_MINUTE. */
function boundedReconnects<T extends { fetch: FetchLike }>(init: T): T {
  const recent: number[] = [];
  const inner = init.fetch;
  return {
    ...init,
    fetch: (url, req) => {
      const isStream =
        (req?.method ?? "GET").toUpperCase() === "GET" &&
        (new Headers(req?.headers).get("accept")?.includes("text/event-stream") ?? false);
      if (isStream) {
        const now = Date.now();
        while (recent.length && now - recent[0]! > 60_000) recent.shift();
        if (recent.length >= MAX_STREAM_GETS_PER_MINUTE)
          return Promise.reject(
            new Error(
              `the server closed its event streams ${MAX_STREAM_GETS_PER_MINUTE} times within a minute; not reconnecting again now`,
            ),
          );
        recent.push(now);
      }
      return inner(url, req);
    },
  };
}

export function streamableHttpOpener(
  url: string,
  options: HttpTargetOptions = {},
): TransportOpener {
  return {
    kind: "streamable-http",
    label: url,
    open: (guard) => {
      const tools = new Map<string, { properties?: unknown }>();
      return {
        kind: "streamable-http",
        countsBytes: true,
        ...(options.auth ? { auth: options.auth } : {}),
        knowTools: (listed) => {
          tools.clear();
          for (const tool of listed) tools.set(tool.name, tool.inputSchema);
        },
        transport: new StreamableHTTPClientTransport(new URL(url), {
          ...boundedReconnects(transportFetch(url, guard, options, tools)),
          ...(options.auth ? { authProvider: options.auth } : {}),
          reconnectionOptions: STREAM_RECONNECTION,
        }),
        fallbackReason: streamableFallbackReason,
      };
    },
  };
}

export function sseOpener(url: string, options: HttpTargetOptions = {}): TransportOpener {
  return {
    kind: "sse",
    label: url,
    open: (guard) => {
      const { fetch: fetchFn, requestInit } = transportFetch(url, guard, options);
      // Without OAuth the static headers also go on the event stream; with it, the routing adds them.
      const streamHeaders = options.auth ? {} : (options.headers ?? {});
      return {
        kind: "sse",
        countsBytes: true,
        ...(options.auth ? { auth: options.auth } : {}),
        transport: new SSEClientTransport(new URL(url), {
          requestInit,
          eventSourceInit: {
            fetch: (u, init) =>
              fetchFn(u, {
                ...init,
                headers: { ...(init?.headers as Record<string, string>), ...streamHeaders },
              }),
          },
          fetch: fetchFn,
          ...(options.auth ? { authProvider: options.auth } : {}),
        }),
      };
    },
  };
}
