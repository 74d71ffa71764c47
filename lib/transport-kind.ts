/**
 * The transport kinds, defined once: how a reviewed server is registered (the review schema, its
 * decision records, share links, the import and the exports), which wire transport an inspection or
 * the gate actually spoke (the surface snapshot, the session), and how an HTTP target picks between
 * Streamable HTTP and legacy SSE. Everything that names a kind imports it from here, so a new kind
 * is added in one place and the enums cannot disagree.
 *
 * A top-level file of its own (like lib/errors.ts) because lib/review, lib/surface, lib/mcp and
 * lib/import all need it and lib/mcp already imports lib/review: a home inside any of them would
 * make a folder cycle (tests/layout).
 */
import { z } from "zod";

// ---- how a server is registered ----------------------------------------------------------------

/**
 * How a reviewed server is reached: a command (`stdio`), a URL spoken as Streamable HTTP with the
 * legacy-SSE fallback (`http`), a URL spoken as legacy SSE only (`sse`), or not reached at all —
 * a server not under review whose tools are entered by hand (`manual`).
 */
export const SERVER_TRANSPORT_KINDS = ["stdio", "http", "sse", "manual"] as const;
export const ServerTransportKindSchema = z.enum(SERVER_TRANSPORT_KINDS);
export type ServerTransportKind = z.infer<typeof ServerTransportKindSchema>;

/** The registered kinds reached by URL. */
export const REMOTE_TRANSPORT_KINDS = ["http", "sse"] as const;
export const RemoteTransportKindSchema = z.enum(REMOTE_TRANSPORT_KINDS);
export type RemoteTransportKind = z.infer<typeof RemoteTransportKindSchema>;

/** Whether a registered kind is reached by URL (and so has a URL, headers, an origin, OAuth). */
export function isRemote(kind: string): kind is RemoteTransportKind {
  return (REMOTE_TRANSPORT_KINDS as readonly string[]).includes(kind);
}

/** Narrows a transport (any object with a `kind`) to its remote variant. */
export function isRemoteTransport<T extends { kind: string }>(
  t: T | null | undefined,
): t is Extract<T, { kind: RemoteTransportKind }> {
  return !!t && isRemote(t.kind);
}

/** Whether a registered server can be connected to at all (inspected, gated, authorized). */
export function isLive(kind: ServerTransportKind): kind is Exclude<ServerTransportKind, "manual"> {
  return kind !== "manual";
}

/** The HTTP mode a registered kind asks for when reached by URL: `sse` pins legacy SSE, `http` tries both. */
export function httpModeOf(kind: ServerTransportKind): HttpMode {
  return kind === "sse" ? "sse" : "auto";
}

// ---- what was spoken on the wire ---------------------------------------------------------------

/**
 * The transport an inspection or a gate session actually spoke, recorded on every surface
 * snapshot. `in-memory` is the tests' linked pair.
 */
export const WIRE_TRANSPORT_KINDS = ["stdio", "streamable-http", "sse", "in-memory"] as const;
export const WireTransportKindSchema = z.enum(WIRE_TRANSPORT_KINDS);
export type WireTransportKind = z.infer<typeof WireTransportKindSchema>;

/** Whether a wire transport runs in this process's reach (a child or the same process), not over a network. */
export function isLocalWire(kind: WireTransportKind): boolean {
  return kind === "stdio" || kind === "in-memory";
}

// ---- how an HTTP target chooses --------------------------------------------------------------

/** `auto`: Streamable HTTP, falling back to legacy SSE on a 4xx to the first POST. */
export const HTTP_MODES = ["auto", "streamable-http", "sse"] as const;
export const HttpModeSchema = z.enum(HTTP_MODES);
export type HttpMode = z.infer<typeof HttpModeSchema>;

export function isHttpMode(value: string): value is HttpMode {
  return (HTTP_MODES as readonly string[]).includes(value);
}

// ---- what client configs write ----------------------------------------------------------------

/**
 * The `type` (or `transport`) values MCP client configs write, mapped to the registered kind:
 * Claude Desktop and Cursor write `stdio`/`sse`/`http`, VS Code `http`, others `streamable-http` or
 * `streamableHttp`.
 */
export const CONFIG_TRANSPORT_TYPES = {
  stdio: "stdio",
  http: "http",
  "streamable-http": "http",
  streamableHttp: "http",
  sse: "sse",
} as const satisfies Record<string, Exclude<ServerTransportKind, "manual">>;
export type ConfigTransportType = keyof typeof CONFIG_TRANSPORT_TYPES;

export function isConfigTransportType(value: unknown): value is ConfigTransportType {
  return typeof value === "string" && Object.hasOwn(CONFIG_TRANSPORT_TYPES, value);
}
