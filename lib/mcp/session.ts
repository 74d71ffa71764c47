/**
 * The one upstream session: initialize with the declared client capabilities (capabilities.ts),
 * list every advertised list page by page (leniently, per item), re-list on `list_changed` until
 * the surface has been quiet for `settleQuietMs` (at most `relists` times per list), then
 * fingerprint. The inspection
 * and the gate (node/gate.ts) both open their connection here, so a limit trips with the same
 * message, and the surface a gate checks is built exactly as the one its record was pinned from.
 * Runtime-neutral (no Node APIs): stdio and HTTP transports are built elsewhere and passed in as
 * openers; tests pass an InMemoryTransport. Never throws: every failure is an `InspectError`.
 */
import {
  Client,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from "@modelcontextprotocol/client";
import { isLocalWire, type WireTransportKind } from "@/lib/transport-kind";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ClientRequestSchema,
  type JSONRPCMessage,
  type ListRootsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { declaredCapabilityNames, declaredClientCapabilities } from "@/lib/mcp/capabilities";
import { GuardTripped, InspectionGuard } from "@/lib/mcp/guard";
import { readUiResources } from "@/lib/mcp/apps";
import { listEveryPage, type ListedItems } from "@/lib/mcp/list";
import { paramHeaderProblem } from "@/lib/mcp/param-headers";
import type { GrantedAuthorization, McpOAuthClient } from "@/lib/mcp/oauth/interface";
import {
  ERA_OF,
  type EraPreference,
  type InspectError,
  type InspectOptions,
  type InspectProgress,
  type InspectResult,
} from "@/lib/mcp/types";
import { uiResourceUris, type UiResourceItem } from "@/lib/surface/apps";
import { fingerprintSurface } from "@/lib/surface/fingerprint";
import { resolveInspectLimits, type InspectLimits } from "@/lib/surface/limits";
import {
  SURFACE_LISTS,
  SURFACE_SNAPSHOT_VERSION,
  type ResourceItem,
  type ResourceTemplateItem,
  type Surface,
  type SurfaceList,
  type SurfaceSnapshot,
  type ToolItem,
} from "@/lib/surface/types";

export const CLIENT_INFO = { name: "relay-review", version: "0.1.0" } as const;

/**
 * Every request method the session's client can send upstream (the SDK's client request union).
 * The gate's authorization table (lib/gate/authorize.ts) is checked against this list.
 */
export const UPSTREAM_REQUEST_METHODS: readonly string[] = Object.freeze(
  ClientRequestSchema.options.map((o) => o.shape.method.value),
);

export type ExitInfo = {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
  pendingBytes: number;
};

export type OpenedTransport = {
  transport: Transport;
  kind: WireTransportKind;
  /** How a stdio server ended (null while it runs), for error messages. */
  exitInfo?: () => ExitInfo | null;
  /** The last lines a stdio server wrote to stderr. */
  stderrTail?: () => string;
  /** Whether the transport counts received bytes itself (stdio, HTTP); otherwise messages are measured. */
  countsBytes: boolean;
  /** When connecting fails with this error, try the next opener (Streamable HTTP → SSE); returns why. */
  fallbackReason?: (error: unknown) => string | null;
  /** Closes everything, bounded; resolves when a stdio process group is gone. */
  close?: () => Promise<void>;
  /** The OAuth provider the transport authorizes with (HTTP targets with `auth`). */
  auth?: McpOAuthClient;
  /** The tools as last listed: a 2026 tools/call mirrors the arguments they mark into headers. */
  knowTools?: (tools: readonly ToolItem[]) => void;
};
export type TransportOpener = {
  kind: WireTransportKind;
  label: string;
  open: (guard: InspectionGuard) => OpenedTransport;
};

/**
 * The inspection's bounds while the surface is read; a relaying session (the gate) may then move
 * any number of bytes, so byte and invalid-line counting stop (timeouts still bound every request).
 */
class SessionGuard extends InspectionGuard {
  private isRelaying = false;
  startRelaying(): void {
    this.isRelaying = true;
  }
  override addBytes(n: number): boolean {
    return this.isRelaying ? this.error === null : super.addBytes(n);
  }
  override addInvalid(sample: string): boolean {
    return this.isRelaying ? this.error === null : super.addInvalid(sample);
  }
}

/** Records the negotiated protocol version and, for in-process transports, message sizes. */
class ObservedTransport implements Transport {
  protocolVersion: string | null = null;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  constructor(
    private readonly inner: Transport,
    private readonly guard: InspectionGuard,
    private readonly measure: boolean,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onmessage = (message) => {
      if (this.measure && !this.guard.addBytes(JSON.stringify(message).length)) return;
      if (this.guard.error) return;
      this.onmessage?.(message);
    };
    await this.inner.start();
  }
  send: Transport["send"] = async (message, options) => {
    try {
      await this.inner.send(message, options);
    } catch (error) {
      throw "method" in message && message.method === "server/discover"
        ? probeHttpError(error)
        : error;
    }
  };
  close(): Promise<void> {
    return this.inner.close();
  }
  setProtocolVersion = (version: string): void => {
    this.protocolVersion = version;
    this.inner.setProtocolVersion?.(version);
  };
}

/**
 * The era negotiation each preference asks the SDK for: `auto` sends `server/discover` first and
 * falls back to the 2025 `initialize` when the server does not answer it as a 2026-07-28 server;
 * the other two pin one era (no fallback): `2026` the 2026-07-28 revision, `2025` the `initialize`
 * handshake of 2024-10-07 … 2025-11-25, byte for byte as before.
 */
const VERSION_NEGOTIATION = {
  auto: "auto",
  "2026": { pin: "2026-07-28" },
  "2025": "legacy",
} as const satisfies Record<EraPreference, "auto" | "legacy" | { pin: string }>;
/** How long a `server/discover` probe waits before a stdio server counts as a 2025 one. */
const ERA_PROBE_TIMEOUT_MS = 5_000;

/**
 * The era a session asks for when neither the registration nor the caller says: the new one first
 * over HTTP; 2025 over stdio, where a server that never answers a request before `initialize`
 * would hold every inspection for the probe's wait, and some exit on it (the SDK's advice for
 * spawn-per-run tools). A registration or `--era auto` asks for the probe over stdio too.
 */
export function defaultEra(kind: WireTransportKind): EraPreference {
  return isLocalWire(kind) ? "2025" : "auto";
}

/**
 * The v2 client reads a refused `server/discover` as era evidence only from its own HTTP error
 * type (a 2025 server answers it 400 or 404: fall back to `initialize`; 401/403 and 5xx are not
 * evidence). The session's HTTP transports are the v1 SDK's, so their error is restated in it.
 */
function probeHttpError(error: unknown): unknown {
  if (!(error instanceof StreamableHTTPError) || error.code === undefined || error.code < 100)
    return error;
  const text = error.message.replace(/^Streamable HTTP error: (Error POSTing to endpoint: )?/, "");
  return new SdkHttpError(
    error.code === 401
      ? SdkErrorCode.ClientHttpAuthentication
      : SdkErrorCode.ClientHttpNotImplemented,
    error.message,
    { status: error.code, statusText: "", text },
    { cause: error },
  );
}

/** Coalesces a burst of list_changed notifications into one re-list. */
export const SETTLE_DEBOUNCE_MS = 50;

const PageSchema = z.looseObject({ nextCursor: z.unknown().optional() });

type ListState = ListedItems & { relists: number };

/** The snapshot's `cacheHints`: only the lists whose results declared one, and no key at all when none did. */
function cacheHintsOf(state: Record<SurfaceList, ListState>): Pick<SurfaceSnapshot, "cacheHints"> {
  const hints = Object.fromEntries(
    SURFACE_LISTS.flatMap((l) => {
      const hint = state[l].cacheHint;
      return hint ? [[l, hint]] : [];
    }),
  );
  return Object.keys(hints).length ? { cacheHints: hints } : {};
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An elicitation answer as the protocol shapes it (an action, and content only when accepted); else null. */
function asElicitResult(answer: unknown): Record<string, unknown> | null {
  if (!answer || typeof answer !== "object" || Array.isArray(answer)) return null;
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept") return null;
  if (content === undefined) return { action };
  return content && typeof content === "object" && !Array.isArray(content)
    ? { action, content }
    : null;
}

export type UpstreamSessionOptions = InspectOptions & {
  /**
   * Keep the connection open once the surface has settled, to relay over it. Without it the
   * server is shut down as soon as the surface has settled, while the snapshot is built.
   */
  keepOpen?: boolean;
  /** Answers the server's roots/list; default: no roots. Sampling is always refused; elicitation see `onElicitation`. */
  listRoots?: () => Promise<ListRootsResult>;
  /** After settling (keepOpen): the server announced a change to these lists. */
  onListChanged?: (lists: SurfaceList[]) => void;
  /**
   * Told of every elicitation a 2025-era server asks for (the gate scans its text and may relay
   * it to the agent): its answer goes back to the server; none, or a failure, declines. The
   * inspection sets none, so it declines every one.
   */
  onElicitation?: (
    params: Record<string, unknown>,
  ) => void | Promise<Record<string, unknown> | undefined>;
  /** After settling (keepOpen): every other notification the server sends. */
  onNotification?: (notification: { method: string; params?: Record<string, unknown> }) => void;
  /** After settling (keepOpen): the connection closed, by either side. */
  onClose?: () => void;
};

export type UpstreamSession = {
  client: Client;
  transport: WireTransportKind;
  /** The settled surface, with the real protocol version and settle figures. */
  snapshot: SurfaceSnapshot;
  /** The lists the server advertised in its capabilities. */
  advertised: readonly SurfaceList[];
  /** The OAuth grant the connection used (an HTTP target with `auth`), read when the surface settled; never a token. */
  authorization?: GrantedAuthorization;
  exitInfo: () => ExitInfo | null;
  stderrTail: () => string | undefined;
  /** The bound that closed the connection while relaying (e.g. an endless line), if one did. */
  failure: () => InspectError | null;
  /**
   * Re-list `lists` over the open connection (after `onListChanged`) and return the whole surface
   * with its fingerprint. A failed request rejects with the session's message and does not close
   * the connection; a tripped limit does.
   */
  relist: (lists: readonly SurfaceList[]) => Promise<{ surface: Surface; surfaceSha256: string }>;
  /** Bounded; idempotent; a stdio server's whole process group is gone when it resolves. */
  close: () => Promise<void>;
};

export type UpstreamSessionResult =
  { ok: true; session: UpstreamSession } | { ok: false; error: InspectError; stderrTail?: string };

/** An `InspectError` thrown by a re-list while relaying (the guard is not tripped by it). */
export class UpstreamRequestFailed extends Error {
  constructor(readonly error: InspectError) {
    super(error.message);
    this.name = "UpstreamRequestFailed";
  }
}

/**
 * Open a settled, bounded session through the first opener that connects (later ones are
 * fallbacks), and hand back the client, the lists and the snapshot. Never throws.
 */
export async function openUpstreamSession(
  openers: readonly TransportOpener[],
  options: UpstreamSessionOptions = {},
): Promise<UpstreamSessionResult> {
  let limits: InspectLimits;
  try {
    limits = resolveInspectLimits(options.limits);
  } catch (error) {
    return {
      ok: false,
      error: { code: "refused", message: `invalid limits: ${errorMessage(error)}` },
    };
  }
  const emit = (event: InspectProgress) => {
    try {
      options.onProgress?.(event);
    } catch {
      // a failing progress listener must not break the session
    }
  };
  const guard = new SessionGuard(limits);
  const started = Date.now();
  const deadline = setTimeout(
    () =>
      guard.tripLimit("deadlineMs", `the surface did not settle within ${limits.deadlineMs} ms`),
    limits.deadlineMs,
  );
  const onAbort = () => guard.trip({ code: "aborted", message: "the inspection was cancelled" });
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let opened: OpenedTransport | null = null;
  let isHandedOver = false;
  try {
    for (let i = 0; i < openers.length; i++) {
      const opener = openers[i]!;
      emit({ type: "connecting", transport: opener.kind, target: opener.label });
      try {
        opened = opener.open(guard);
      } catch (error) {
        return fail({
          code: "connect_failed",
          message: `could not start ${opener.label}: ${errorMessage(error)}`,
        });
      }
      const attempt = await runSession(opened, guard, limits, emit, started, options);
      if (attempt.kind === "done") {
        if (!attempt.result.ok) return fail(attempt.result.error, attempt.result.stderrTail);
        isHandedOver = true;
        if (options.keepOpen) guard.startRelaying();
        return attempt.result;
      }
      // connect failed in a way that says "try the legacy transport"
      await closeOpened(opened);
      opened = null;
      const next = openers[i + 1];
      if (!next) return fail({ code: "connect_failed", message: attempt.reason });
      emit({ type: "fallback", from: opener.kind, to: next.kind, reason: attempt.reason });
    }
    return fail({ code: "internal", message: "no transport to connect with" });
  } catch (error) {
    return fail(
      guard.error ?? { code: "internal", message: `unexpected failure: ${errorMessage(error)}` },
    );
  } finally {
    clearTimeout(deadline);
    options.signal?.removeEventListener("abort", onAbort);
    if (opened && !isHandedOver) await closeOpened(opened);
  }

  function fail(error: InspectError, stderrTail?: string): UpstreamSessionResult {
    emit({ type: "error", error });
    return { ok: false, error, ...(stderrTail ? { stderrTail } : {}) };
  }
}

/** Inspect through the first opener that connects: a session closed as soon as it has settled. Never throws. */
export async function inspectWithOpeners(
  openers: readonly TransportOpener[],
  options: InspectOptions = {},
): Promise<InspectResult> {
  const opened = await openUpstreamSession(openers, { ...options, keepOpen: false });
  if (!opened.ok) return { ok: false, error: opened.error };
  const { session } = opened;
  await session.close();
  const stderrTail = session.stderrTail();
  return {
    ok: true,
    snapshot: session.snapshot,
    ...(stderrTail ? { stderrTail } : {}),
    ...(session.authorization ? { authorization: session.authorization } : {}),
  };
}

const CLOSE_BOUND_MS = 5_000;
const closing = new WeakMap<OpenedTransport, Promise<void>>();

/** Close a transport, bounded; started once, later calls wait for the same close. */
function closeOpened(opened: OpenedTransport): Promise<void> {
  let done = closing.get(opened);
  if (!done) closing.set(opened, (done = closeBounded(opened)));
  return done;
}

async function closeBounded(opened: OpenedTransport): Promise<void> {
  const close = opened.close ?? (() => opened.transport.close());
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    close().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLOSE_BOUND_MS);
    }),
  ]);
  clearTimeout(timer);
}

type SessionOutcome =
  { kind: "done"; result: UpstreamSessionResult } | { kind: "fallback"; reason: string };

/** The lists a server's capabilities advertise, in listing order. */
export function advertisedLists(capabilities: Readonly<Record<string, unknown>>): SurfaceList[] {
  const advertised: SurfaceList[] = [];
  if (capabilities.tools) advertised.push("tools");
  if (capabilities.resources) advertised.push("resources", "resourceTemplates");
  if (capabilities.prompts) advertised.push("prompts");
  return advertised;
}

async function runSession(
  opened: OpenedTransport,
  guard: SessionGuard,
  limits: InspectLimits,
  emit: (e: InspectProgress) => void,
  started: number,
  options: UpstreamSessionOptions,
): Promise<SessionOutcome> {
  const observed = new ObservedTransport(opened.transport, guard, !opened.countsBytes);
  const eraPreference = options.era ?? defaultEra(opened.kind);
  const declared = declaredClientCapabilities(options);
  const client = new Client(CLIENT_INFO, {
    capabilities: structuredClone(declared),
    versionNegotiation: {
      mode: VERSION_NEGOTIATION[eraPreference],
      // A silent stdio server is a 2025 one (the SDK then falls back); over HTTP silence fails.
      probe: { timeoutMs: Math.min(limits.connectTimeoutMs, ERA_PROBE_TIMEOUT_MS), maxRetries: 0 },
    },
  });
  guard.whenTripped(() => void closeOpened(opened)); // kill the server at once; the error is recorded

  // Nothing the server asks for is acted on: the reviewed surface is what a client declaring
  // these capabilities sees, and the decision record speaks to neither sampling nor elicitation.
  // (A 2026-07-28 server asks through `input_required` results instead; the session's own
  // requests are lists, which have nothing to ask, and the SDK drops server→client requests there.)
  client.setRequestHandler("roots/list", async () =>
    options.listRoots ? options.listRoots() : { roots: [] },
  );
  client.setRequestHandler("sampling/createMessage", () => {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      "relay-review does not answer sampling requests",
    );
  });
  client.setRequestHandler("elicitation/create", async (request) => {
    // Declined unless the listener answers (the gate, relaying it to the agent under the record);
    // the gate scans the text first (issue 31: it was put before a user).
    try {
      const answer = asElicitResult(await options.onElicitation?.(request.params));
      if (answer) return answer as never;
    } catch {
      // a failing listener must not answer the server for us
    }
    return { action: "decline" as const };
  });

  let isSettled = false;
  const dirty = new Set<SurfaceList>();
  let listChangedCount = 0;
  let wake: () => void = () => {};
  let wakePromise = new Promise<void>((r) => (wake = r));
  const markDirty = (lists: SurfaceList[]) => {
    if (isSettled) {
      options.onListChanged?.(lists);
      return;
    }
    listChangedCount++;
    for (const l of lists) {
      dirty.add(l);
      emit({ type: "list_changed", list: l });
    }
    wake();
    wakePromise = new Promise<void>((r) => (wake = r));
  };
  client.setNotificationHandler("notifications/tools/list_changed", () => markDirty(["tools"]));
  client.setNotificationHandler("notifications/resources/list_changed", () =>
    markDirty(["resources", "resourceTemplates"]),
  );
  client.setNotificationHandler("notifications/prompts/list_changed", () => markDirty(["prompts"]));
  client.fallbackNotificationHandler = (n) => {
    if (isSettled) options.onNotification?.(n);
    return Promise.resolve();
  };

  const describeClosed = (what: string): InspectError => {
    const info = opened.exitInfo?.() ?? null;
    const how = info
      ? info.exitCode !== null
        ? `exited with code ${info.exitCode}`
        : info.signal
          ? `was killed by ${info.signal}`
          : "closed its output"
      : "closed the connection";
    const partial =
      info && info.pendingBytes > 0
        ? `; ${info.pendingBytes} bytes of an unfinished message were discarded`
        : "";
    return {
      code: "server_exited",
      message: `the server ${how} ${what}${partial}`,
      ...(info
        ? { exitCode: info.exitCode, signal: info.signal, stderrTail: info.stderrTail }
        : {}),
    };
  };
  const mapError = (
    error: unknown,
    what: string,
    timeoutLimit: "connectTimeoutMs" | "requestTimeoutMs",
  ): InspectError => {
    if (guard.error) return guard.error;
    if (error instanceof GuardTripped) return error.error;
    const authFailure = opened.auth?.describeFailure(error);
    if (authFailure)
      return { code: "unauthorized", oauthStep: authFailure.step, message: authFailure.message };
    if (error instanceof SdkError && !(error instanceof SdkHttpError)) {
      if (error.code === SdkErrorCode.RequestTimeout) {
        return {
          code: "limit_exceeded",
          limit: timeoutLimit,
          message: `${what} got no answer within ${limits[timeoutLimit]} ms (limit ${timeoutLimit}; raise it to wait longer)`,
        };
      }
      if (error.code === SdkErrorCode.ConnectionClosed)
        return describeClosed(`before answering ${what}`);
      if (error.code === SdkErrorCode.EraNegotiationFailed)
        return { code: "connect_failed", message: `${what} failed: ${error.message}` };
    }
    if (error instanceof ProtocolError) {
      return {
        code: "protocol_error",
        message: `the server answered ${what} with error ${error.code}: ${error.message}`,
      };
    }
    if (opened.exitInfo?.()) return describeClosed(`during ${what}`);
    return {
      code: what === "initialize" ? "connect_failed" : "protocol_error",
      message: `${what} failed: ${errorMessage(error)}`,
    };
  };
  const failed = (error: InspectError): SessionOutcome => {
    const stderrTail = opened.stderrTail?.();
    return { kind: "done", result: { ok: false, error, ...(stderrTail ? { stderrTail } : {}) } };
  };

  // --- connect + initialize
  try {
    await guard.within(
      client.connect(observed, { timeout: limits.connectTimeoutMs }),
      limits.connectTimeoutMs,
      "connectTimeoutMs",
      "connecting and initializing",
    );
  } catch (error) {
    const reason =
      !guard.error && !opened.auth?.describeFailure(error) && opened.fallbackReason?.(error);
    if (reason) return { kind: "fallback", reason };
    return failed(mapError(error, "initialize", "connectTimeoutMs"));
  }
  const serverInfo = client.getServerVersion();
  const capabilities = (client.getServerCapabilities() ?? {}) as Record<string, unknown>;
  const instructions = client.getInstructions() ?? null;
  const protocolVersion =
    client.getNegotiatedProtocolVersion() ?? observed.protocolVersion ?? "unknown";
  const protocolEra = ERA_OF[client.getProtocolEra() ?? "legacy"];
  emit({
    type: "initialized",
    serverName: serverInfo?.name ?? "",
    serverVersion: serverInfo?.version ?? "",
    protocolVersion,
    era: protocolEra,
  });
  if (instructions !== null && instructions.length > limits.descriptionLength) {
    guard.tripLimit(
      "descriptionLength",
      `the server's instructions are ${instructions.length} characters long`,
    );
    return failed(guard.error!);
  }

  const advertised = advertisedLists(capabilities);
  const capsOf = (l: SurfaceList) =>
    capabilities[l === "resourceTemplates" ? "resources" : l] as
      { listChanged?: unknown } | undefined;
  const hasListChanged = advertised.some((l) => capsOf(l)?.listChanged === true);

  const state: Record<SurfaceList, ListState> = {
    tools: { items: [], rejects: [], pages: 0, relists: 0 },
    resources: { items: [], rejects: [], pages: 0, relists: 0 },
    resourceTemplates: { items: [], rejects: [], pages: 0, relists: 0 },
    prompts: { items: [], rejects: [], pages: 0, relists: 0 },
  };

  /** While settling a failed request trips the guard (and ends the session); once settled it only rejects. */
  const listAll = async (list: SurfaceList): Promise<void> => {
    const listed = await listEveryPage(list, {
      guard,
      limits,
      onPage: (page, received) => emit({ type: "listing", list, page, items: received }),
      // SEP-2243: a 2026 client excludes a tool whose header annotations are invalid. A 2025
      // surface is listed as before (its fingerprint does not change).
      ...(list === "tools" && protocolEra === "2026"
        ? { itemProblem: (item) => paramHeaderProblem((item as ToolItem).inputSchema) }
        : {}),
      request: (method, params, page) =>
        guard
          .race(
            client.request({ method, params }, PageSchema, { timeout: limits.requestTimeoutMs }),
          )
          .catch((error: unknown) => {
            const mapped = mapError(error, `${method} (page ${page})`, "requestTimeoutMs");
            if (isSettled) throw new UpstreamRequestFailed(mapped);
            guard.trip(mapped);
            throw new GuardTripped(guard.error!);
          }),
    });
    Object.assign(state[list], {
      items: listed.items,
      rejects: listed.rejects,
      pages: listed.pages,
      cacheHint: listed.cacheHint,
    });
    if (list === "tools") opened.knowTools?.(listed.items as ToolItem[]);
  };

  // MCP Apps: the ui:// resources the tools name or the server lists, read once the lists have
  // settled (their CSP and permissions are on the read content). A failed read is recorded as
  // unreadable; a tripped guard (bytes, deadline) still ends the session.
  let uiResources: UiResourceItem[] = [];
  const readUi = async (): Promise<void> => {
    const uris = uiResourceUris(
      state.tools.items as ToolItem[],
      state.resources.items as ResourceItem[],
    );
    uiResources = await readUiResources(uris, async (uri) => {
      try {
        return await guard.race(
          client.request({ method: "resources/read", params: { uri } }, PageSchema, {
            timeout: limits.requestTimeoutMs,
          }),
        );
      } catch (error) {
        if (guard.error) throw new GuardTripped(guard.error);
        throw new Error(mapError(error, "resources/read", "requestTimeoutMs").message);
      }
    });
  };

  try {
    for (const list of advertised) {
      dirty.delete(list);
      await listAll(list);
    }
    // --- settle: re-list what changed (after a short debounce, so a burst costs one re-list, at
    // most `relists` times per list), then wait `settleQuietMs`; settled when that wait is quiet.
    for (;;) {
      if (dirty.size) {
        await guard.sleep(Math.min(SETTLE_DEBOUNCE_MS, limits.settleQuietMs));
        const lists = advertised.filter((l) => dirty.has(l));
        dirty.clear();
        for (const list of lists) {
          const s = state[list];
          s.relists++;
          if (s.relists > limits.relists) {
            guard.tripLimit(
              "relists",
              `the server kept changing its ${list} list (list_changed after ${limits.relists} re-lists)`,
            );
            throw new GuardTripped(guard.error!);
          }
          await listAll(list);
        }
        continue;
      }
      if (!hasListChanged || limits.settleQuietMs === 0) break;
      await guard.sleep(limits.settleQuietMs, wakePromise);
      if (dirty.size === 0) break;
    }
    await readUi();
  } catch (error) {
    return failed(guard.error ?? mapError(error, "listing", "requestTimeoutMs"));
  }
  if (guard.error) return failed(guard.error);
  isSettled = true;
  if (options.keepOpen) {
    client.onclose = () => options.onClose?.();
  } else {
    // Nothing more is read. The server is shut down while the surface is fingerprinted (a stdio
    // server gets a grace period to exit); session.close() waits for the same close.
    void closeOpened(opened);
    // Closing a stdio server's stdin is only requested here: the pipe is shut once the event loop
    // polls. Yield that once, so the server reads its end of input and exits while we fingerprint,
    // instead of after (on 10,000 tools the CLI sat 50–130 ms waiting for that exit).
    await new Promise<void>((resolve) => setImmediate(resolve));
  }

  const surfaceOf = (): Surface => ({
    ...(uiResources.length ? { uiResources } : {}),
    instructions,
    tools: state.tools.items as ToolItem[],
    resources: state.resources.items as ResourceItem[],
    resourceTemplates: state.resourceTemplates.items as ResourceTemplateItem[],
    prompts: state.prompts.items,
    rejects: SURFACE_LISTS.flatMap((l) => state[l].rejects).map((r) => ({
      list: r.list,
      raw: r.raw,
    })),
  });
  const counts = Object.fromEntries(SURFACE_LISTS.map((l) => [l, state[l].items.length])) as Record<
    SurfaceList,
    number
  >;
  const rejects = SURFACE_LISTS.flatMap((l) => state[l].rejects);
  emit({
    type: "settled",
    counts,
    rejects: rejects.length,
    relists: SURFACE_LISTS.reduce((n, l) => n + state[l].relists, 0),
  });
  const surface = surfaceOf();
  const fp = fingerprintSurface(surface);
  const snapshot: SurfaceSnapshot = {
    snapshotVersion: SURFACE_SNAPSHOT_VERSION,
    fingerprintVersion: 1,
    transport: opened.kind,
    serverInfo: {
      name: serverInfo?.name ?? "",
      version: serverInfo?.version ?? "",
      ...(typeof serverInfo?.title === "string" ? { title: serverInfo.title } : {}),
    },
    protocolVersion,
    era: protocolEra,
    capabilities,
    clientCapabilities: declared,
    declaredCapabilities: declaredCapabilityNames(declared),
    ...surface,
    rejects,
    surfaceSha256: fp.surfaceSha256,
    itemHashes: fp.itemHashes,
    settle: {
      listChangedNotifications: listChangedCount,
      relists: Object.fromEntries(SURFACE_LISTS.map((l) => [l, state[l].relists])) as Record<
        SurfaceList,
        number
      >,
      pages: Object.fromEntries(SURFACE_LISTS.map((l) => [l, state[l].pages])) as Record<
        SurfaceList,
        number
      >,
    },
    inspectedAt: new Date().toISOString(),
    durationMs: Date.now() - started,
    limits,
    ...cacheHintsOf(state),
  };
  const authorization = (await opened.auth?.grantedAuthorization()) ?? undefined;
  const session: UpstreamSession = {
    client,
    transport: opened.kind,
    snapshot,
    advertised,
    ...(authorization ? { authorization } : {}),
    exitInfo: () => opened.exitInfo?.() ?? null,
    stderrTail: () => opened.stderrTail?.() || undefined,
    failure: () => guard.error,
    relist: async (lists) => {
      for (const list of advertised) if (lists.includes(list)) await listAll(list);
      if (lists.includes("tools") || lists.includes("resources")) await readUi();
      const now = surfaceOf();
      return { surface: now, surfaceSha256: fingerprintSurface(now).surfaceSha256 };
    },
    close: async () => {
      await client.close().catch(() => {});
      await closeOpened(opened);
    },
  };
  return { kind: "done", result: { ok: true, session } };
}

/** Whether an error from connecting over Streamable HTTP means "this server speaks only SSE". */
export function streamableFallbackReason(error: unknown): string | null {
  if (
    error instanceof StreamableHTTPError &&
    (error.code === 400 || error.code === 404 || error.code === 405)
  ) {
    return `the Streamable HTTP initialize POST got HTTP ${error.code}; trying the legacy SSE transport`;
  }
  return null;
}
