import "server-only";
/**
 * The gate: an MCP proxy that puts a decision record in the path of every request. The agent's
 * client starts the gate instead of the server; the gate opens the one upstream session the
 * inspection opens (lib/mcp/session.ts: same client capabilities and info, handlers, settling,
 * per-item salvage, limits and error messages), so the surface it checks is built exactly as the
 * one the record was pinned from, and it relays over that very connection. It refuses to start
 * unless the surface matches the record's fingerprint (under `on_surface_change: block`). Then:
 *
 * - each request goes through the authorization table (lib/gate/authorize.ts): the lists are
 *   answered from the checked surface filtered to the record, so the client only ever sees
 *   reviewed text; a call, read, prompt or completion is forwarded as it came when its target is
 *   in the record (no re-validation beyond the name check, for speed); anything else is refused
 *   with a JSON-RPC error and one JSON line on stderr;
 * - after a list_changed from the server, that list is re-read: a surface that no longer hashes
 *   to the record stops the gate (every later request gets an error; under `warn` it is logged);
 * - over OAuth, a forwarded request the server answers 403 insufficient_scope is stepped up in the
 *   middle of the session (`forward`): the user's consent (`options.consent`), then one resend;
 *   requests refused while that step-up is in flight wait for it and are resent, so one consent
 *   (or one headless token request) answers them all; a failure is a JSON-RPC error naming the
 *   OAuth step, bounded by the provider's limits.
 *
 * The server's roots/list goes to the agent's client when it declared roots (else an empty list);
 * a 2025-era server's sampling is refused by the session, as for an inspection, and its
 * elicitation is relayed to the 2025-era agent whose request it came during, under the record's
 * rules for input_required elicitation (`relayElicitation`), else declined. A 2026-07-28 server's
 * `input_required` results (multi-round requests) are judged against the record
 * (lib/gate/input-required.ts, `answerInput`): form elicitation and roots as the record's
 * inspection declared them, URL-mode elicitation only to the record's hosts, never sampling. The
 * upstream era is the one the record's inspection spoke (`registration.era`). Progress and
 * cancellation are relayed. Server stderr is kept as a tail for error messages, not relayed.
 */
import {
  scanElicitation,
  scanRelayed,
  type ContentFlaggedEvent,
  type ContentScanMode,
} from "@/lib/detection/gate-scan";
import { HeldResults } from "@/lib/gate/held";
import { randomUUID, timingSafeEqual } from "node:crypto";
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import { PassThrough } from "node:stream";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ErrorCode,
  McpError,
  type JSONRPCRequest,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import {
  Server as ModernServer,
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
} from "@modelcontextprotocol/server";
import { toWebRequest } from "@modelcontextprotocol/node";
import { CLIENT_CAPABILITIES_META_KEY } from "@modelcontextprotocol/client";
import { declaredClientCapabilities, declaresAppsExtension } from "@/lib/mcp/capabilities";
import { z } from "zod";
import type { DecisionRecord } from "@/lib/decisions/record";
import { GATE_RULES, authorizeRequest, type AuthorizeContext } from "@/lib/gate/authorize";
import {
  GATE_ERROR,
  checkAcceptedRisks,
  endedAcceptances,
  gatePolicyFromRecord,
  type GateEvent,
  type GatePolicy,
  type GateRefusal,
} from "@/lib/gate/policy";
import { compileUriTemplate, type StrictUriTemplate } from "@/lib/gate/uri-template";
import type { DomainItem } from "@/lib/mcp/convert";
import {
  INPUT_REFUSED,
  asLegacyRequest,
  MAX_INPUT_ROUNDS,
  inputPolicyFromRecord,
  inputRefusedMessage,
  isInputRequired,
  judgeInputRequest,
  judgeInputRequired,
  type InputPolicy,
} from "@/lib/gate/input-required";
import { openServerSession } from "@/lib/mcp/node/inspect";
import {
  AuthorizationInFlight,
  OAuthStepError,
  type McpOAuthClient,
} from "@/lib/mcp/oauth/interface";
import { MAX_STDIO_LINE_BYTES, lineTooLong } from "@/lib/mcp/node/stdio-transport";
import { CLIENT_INFO, SETTLE_DEBOUNCE_MS, type UpstreamSession } from "@/lib/mcp/session";
import type { EraPreference, InspectError, InspectTarget } from "@/lib/mcp/types";
import { itemKey } from "@/lib/surface/fingerprint";
import type { InspectLimits } from "@/lib/surface/limits";
import { comparePin, type PinComparison } from "@/lib/surface/registration";
import type {
  PromptItem,
  ResourceItem,
  ResourceTemplateItem,
  Surface,
  SurfaceList,
  SurfaceSnapshot,
  ToolItem,
} from "@/lib/surface/types";

/** Default bound on one forwarded request (reset by progress notifications). */
export const GATE_CALL_TIMEOUT_MS = 300_000;

/** An error the downstream client sees with exactly this code, message and data. */
class GateError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "GateError";
  }
}

/** An upstream McpError re-thrown downstream without a second "MCP error N:" prefix. */
function relayError(error: unknown): GateError {
  if (error instanceof McpError)
    return new GateError(error.code, error.message.replace(/^MCP error -?\d+: /, ""), error.data);
  return new GateError(
    ErrorCode.InternalError,
    `the gate could not forward the request: ${error instanceof Error ? error.message : String(error)}`,
  );
}

const PassthroughSchema = z.looseObject({});

/**
 * What a relayed request needs from the downstream side, whichever era it arrived in: the v1
 * server's handler extra (2025 era) and the v2 server's context (2026-07-28) both give it.
 */
type RelayExtra = Pick<
  RequestHandlerExtra<ServerRequest, ServerNotification>,
  "signal" | "_meta" | "sendNotification"
> & {
  /**
   * A 2025-era agent's client: sends it a server→client request (elicitation, roots), which is
   * how an `input_required` result reaches it. Absent for a 2026-07-28 agent, which gets the
   * result itself and retries with its answers.
   */
  askAgent?: (request: { method: string; params?: Record<string, unknown> }) => Promise<unknown>;
};

/**
 * The 2026-07-28 per-request envelope (`_meta` keys under io.modelcontextprotocol/: the agent's
 * protocol version, capabilities, client info, log level). It describes the agent's client to
 * the gate, not to the server: the upstream session declares its own (the record's) identity
 * and capabilities, so these keys are dropped before a request is forwarded.
 */
function withoutEnvelope(params: JSONRPCRequest["params"]): JSONRPCRequest["params"] {
  const meta = params?._meta;
  if (!meta || typeof meta !== "object") return params;
  const kept = Object.fromEntries(
    Object.entries(meta).filter(([k]) => !k.startsWith("io.modelcontextprotocol/")),
  );
  const { _meta: _dropped, ...rest } = params;
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}

/** The wait before retrying an input_required result that carries only requestState (the v2 client's pacing). */
const INPUT_STATE_PACING_MS = 250;

/**
 * A 2026-07-28 agent's retry of an input_required request: the v2 server lifts `inputResponses`
 * and `requestState` out of the params its handler sees; they go back in before the retry is
 * forwarded, byte for byte, since they are the server's to read.
 */
function withInputAnswers(
  request: JSONRPCRequest,
  mcpReq: { inputResponses?: Record<string, unknown>; requestState: () => unknown },
): JSONRPCRequest {
  const state = mcpReq.requestState();
  if (mcpReq.inputResponses === undefined && typeof state !== "string") return request;
  return {
    ...request,
    params: {
      ...request.params,
      ...(mcpReq.inputResponses !== undefined ? { inputResponses: mcpReq.inputResponses } : {}),
      ...(typeof state === "string" ? { requestState: state } : {}),
    },
  };
}

/** How many task handles the gate remembers (oldest forgotten first): a bound, not a quota. */
export const MAX_STARTED_TASKS = 10_000;

export type GateOptions = {
  /** A record whose signature was already verified (see verifyRecord). */
  record: DecisionRecord;
  target: InspectTarget;
  limits?: Partial<InspectLimits>;
  callTimeoutMs?: number;
  /** Receives every event; the CLI writes each as one JSON line on stderr. */
  onEvent: (event: GateEvent) => void;
  /**
   * Gets the user's consent an OAuth step-up is waiting for (cli/shared/oauth.ts `consent`): the
   * SDK has already put the authorization URL in front of the user; this resolves once the grant
   * is exchanged (then the request is sent again, once) or failed. Null: no consent was pending.
   */
  consent?: () => Promise<{ ok: true } | { ok: false; error: InspectError } | null>;
  /** The clock the record's acceptances are checked against (tests set it); default the system's. */
  now?: () => Date;
  /** What a result flagged by lib/detection does: `flag` (default) passes it and logs, `hold` withholds it. */
  contentScan?: ContentScanMode;
  /**
   * The era the gate speaks upstream; default: the era the record's inspection spoke
   * (`registration.era`), else the inspection's default for the transport (session.ts `defaultEra`).
   */
  era?: EraPreference;
  /** Told of every scanned result, flagged or not (the workbench reporter counts them: issue 31). */
  onScanned?: (server: string, flagged: ContentFlaggedEvent | null) => void;
};

/** The methods whose results scanRelayed reads (lib/detection/gate-scan.ts). */
const SCANNED_METHODS: ReadonlySet<string> = new Set([
  "tools/call",
  "resources/read",
  "prompts/get",
]);

export type GateStartFailure = {
  refusal: GateRefusal;
  /** The upstream session's error, when opening it failed: the inspection's message for the same failure. */
  error?: InspectError;
  /** Human-readable detail (the surface difference), for stderr. */
  detail?: string;
  comparison?: PinComparison;
  stderrTail?: string;
};
export type GateStartResult = { ok: true; gate: Gate } | ({ ok: false } & GateStartFailure);

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Open the upstream, check its surface against the record, and return a gate ready to serve. Never throws. */
export async function startGate(options: GateOptions): Promise<GateStartResult> {
  const policyResult = gatePolicyFromRecord(options.record);
  if (!policyResult.ok) return { ok: false, refusal: policyResult.refusal };
  const ended = checkAcceptedRisks(options.record, (options.now ?? (() => new Date()))());
  if (ended) return { ok: false, refusal: ended };
  const gate = new Gate(options, policyResult.policy);
  try {
    const started = await gate.start();
    if (!started.ok) await gate.close();
    return started;
  } catch (error) {
    await gate.close();
    return {
      ok: false,
      refusal: { reason: "upstream_failed", message: `unexpected failure: ${errorText(error)}` },
    };
  }
}

type Downstream = { server: Server; close: () => Promise<void> };
type Visible = {
  tools: ToolItem[];
  resources: ResourceItem[];
  resourceTemplates: ResourceTemplateItem[];
  prompts: PromptItem[];
};

export class Gate {
  private session: UpstreamSession | null = null;
  /** The upstream surface as last read (at startup, then after each list_changed). */
  private surface: Surface | null = null;
  private readonly templates: StrictUriTemplate[];
  /** Set once the surface changed under block: every later request gets this error. */
  private stopped: GateError | null = null;
  private pendingCheck: Promise<void> | null = null;
  private readonly dirty = new Set<SurfaceList>();
  private isRelaying = false;
  private readonly downstreams = new Set<Downstream>();
  private closing: Promise<void> | null = null;
  /** Resolves when the upstream connection closes. */
  readonly upstreamClosed: Promise<void>;
  private resolveUpstreamClosed!: () => void;
  private visible: Visible = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  private auth: AuthorizeContext;
  /**
   * Task handles (io.modelcontextprotocol/tasks; 2025-11-25 tasks) the server returned to a
   * tools/call this gate forwarded: only these can be followed or cancelled through the gate.
   */
  private readonly startedTasks = new Set<string>();
  private readonly modernHandlers = new Set<McpHttpHandler>();
  private inputPolicy: InputPolicy | null = null;
  /** The agents' requests being answered upstream now: a 2025-era server's elicitation is tied to one. */
  private readonly upstreamNow = new Set<{ method: string; extra: RelayExtra }>();
  /** Results held in `hold` mode until a reviewer releases them (issue 31; lib/gate/held.ts). */
  private readonly held = new HeldResults();
  /** The step-up consent being waited for; concurrent refused requests wait for the same one. */
  private consenting: Promise<{ ok: true } | { ok: false; error: InspectError } | null> | null =
    null;

  constructor(
    private readonly options: GateOptions,
    readonly policy: GatePolicy,
  ) {
    this.templates = policy.resourceTemplates.map(compileUriTemplate);
    this.upstreamClosed = new Promise((r) => (this.resolveUpstreamClosed = r));
    this.auth = this.authContext(new Set());
  }

  /** The surface the startup check compared with the record: the upstream session's own snapshot. */
  get snapshot(): SurfaceSnapshot | null {
    return this.session?.snapshot ?? null;
  }
  /** The tools the gate lists and forwards. */
  get visibleTools(): string[] {
    return this.visible.tools.map((t) => t.name);
  }

  // ---------------------------------------------------------------- startup

  /** @internal used by startGate */
  async start(): Promise<GateStartResult> {
    const era = this.options.era ?? this.options.record.registration?.era;
    const opened = await openServerSession(this.options.target, {
      ...(this.options.limits ? { limits: this.options.limits } : {}),
      ...(era ? { era } : {}),
      // The record's inspection declared MCP Apps (its server entry opted in): declare it too, so
      // the startup check compares like with like. A record without it: today's set.
      ...(this.declaresApps() ? { hostRendersApps: true } : {}),
      keepOpen: true,
      listRoots: async () => {
        const primary = this.primaryClientWithRoots();
        return primary ? await primary.listRoots() : { roots: [] };
      },
      onListChanged: (lists) => this.onListChanged(lists),
      onNotification: (n) => void this.relayNotification(n), // relayNotification never rejects
      onElicitation: (params) => this.relayElicitation(params),
      onClose: () => this.onUpstreamClosed(),
    });
    if (!opened.ok) {
      const e = opened.error;
      return {
        ok: false,
        refusal: {
          reason: "upstream_failed",
          message: `${e.limit ? `limit ${e.limit} tripped: ` : ""}${e.message}`,
        },
        error: e,
        ...(opened.stderrTail ? { stderrTail: opened.stderrTail } : {}),
      };
    }
    this.session = opened.session;
    const snapshot = opened.session.snapshot;
    this.surface = snapshot;
    const failure = this.check(snapshot);
    if (failure) return { ok: false, ...failure };
    this.refreshVisible();
    this.isRelaying = true;
    return { ok: true, gate: this };
  }

  /** Whether the record's declared capabilities include the MCP Apps extension. */
  private declaresApps(): boolean {
    return declaresAppsExtension(this.options.record.registration?.declared_capabilities ?? []);
  }

  /** The startup check: the session's real snapshot against the record's pin. Null: serve. */
  private check(snapshot: SurfaceSnapshot): GateStartFailure | null {
    const cmp = comparePin(this.options.record.registration!, snapshot);
    if (cmp.status === "match") return null;
    if (cmp.status === "incomparable") {
      return {
        refusal: {
          reason: "incomparable",
          message: `${cmp.reason} (record: ${cmp.pinned.join(", ") || "none"}; gate: ${cmp.inspected.join(", ") || "none"})`,
        },
        comparison: cmp,
      };
    }
    if (!cmp.blocked) {
      // warn: start anyway, say so, and serve the live surface filtered to the record
      this.options.onEvent({
        event: "surface_changed",
        server: this.policy.serverName,
        decision: this.policy.decisionId,
        expected: cmp.expected,
        actual: cmp.actual,
        on_surface_change: "warn",
      });
      return null;
    }
    return {
      refusal: {
        reason: "surface_mismatch",
        message: `stale record: ${this.policy.serverName}'s live surface ${cmp.actual} is not the surface ${cmp.expected} the decision was made against (on_surface_change: block)`,
      },
      detail: formatMismatch(cmp, snapshot),
      comparison: cmp,
    };
  }

  private onUpstreamClosed(): void {
    if (this.closing || !this.isRelaying) return this.resolveUpstreamClosed();
    const info = this.session?.exitInfo();
    const failure = this.session?.failure();
    this.options.onEvent({
      event: "upstream_closed",
      server: this.policy.serverName,
      message: failure
        ? failure.message
        : info
          ? `the server exited (code ${info.exitCode ?? "none"}, signal ${info.signal ?? "none"})`
          : "the server closed the connection",
    });
    // The downstream sessions end with it (close() never rejects), once the requests in flight
    // have had their error: the session rejects them right after this callback.
    setImmediate(() => {
      this.resolveUpstreamClosed();
      void this.close();
    });
  }

  private authContext(visibleTools: ReadonlySet<string>): AuthorizeContext {
    return {
      policy: this.policy,
      visibleTools,
      matchesTemplate: (uri) => this.templates.some((t) => t.matches(uri)),
      startedTasks: this.startedTasks,
    };
  }

  /** What the client may see: the checked surface, filtered to the record. */
  private refreshVisible(): void {
    const p = this.policy;
    const s = this.surface!;
    this.visible = {
      tools: s.tools.filter((t) => p.tools.has(t.name)),
      resources: s.resources.filter((r) => p.resources.has(r.uri)),
      resourceTemplates: s.resourceTemplates.filter((t) =>
        p.resourceTemplates.includes(t.uriTemplate),
      ),
      prompts: s.prompts.filter((x) => p.prompts.has(x.name)),
    };
    this.auth = this.authContext(new Set(this.visible.tools.map((t) => t.name)));
  }

  // ---------------------------------------------------------------- surface changes while relaying

  private onListChanged(lists: SurfaceList[]): void {
    for (const l of lists) this.dirty.add(l);
    this.pendingCheck ??= this.recheck().finally(() => {
      this.pendingCheck = null;
    });
  }

  private async recheck(): Promise<void> {
    await new Promise((r) => setTimeout(r, SETTLE_DEBOUNCE_MS));
    const lists = [...this.dirty];
    this.dirty.clear();
    const p = this.policy;
    let actual: string;
    try {
      const read = await this.session!.relist(lists);
      this.surface = read.surface;
      actual = read.surfaceSha256;
    } catch (error) {
      this.stop(
        p.surfaceSha256,
        "unknown",
        `the server announced a surface change and the re-list failed (${errorText(error)}); the gate stopped forwarding`,
      );
      return;
    }
    if (actual === p.surfaceSha256) {
      this.refreshVisible();
      return;
    }
    if (p.onSurfaceChange === "warn") {
      this.options.onEvent({
        event: "surface_changed",
        server: p.serverName,
        decision: p.decisionId,
        expected: p.surfaceSha256,
        actual,
        on_surface_change: "warn",
      });
      this.refreshVisible();
      return;
    }
    this.stop(
      p.surfaceSha256,
      actual,
      `${p.serverName} changed its surface after the gate started (${actual.slice(0, 12)}…, reviewed ${p.surfaceSha256.slice(0, 12)}…); the gate stopped forwarding: review the new surface and export a new decision record`,
    );
  }

  private stop(expected: string, actual: string, message: string): void {
    if (this.stopped) return;
    this.stopped = new GateError(GATE_ERROR.SURFACE_CHANGED, message, {
      reason: "surface_changed",
      expected,
      actual,
    });
    const p = this.policy;
    this.options.onEvent({
      event: "surface_changed",
      server: p.serverName,
      decision: p.decisionId,
      expected,
      actual,
      on_surface_change: "block",
    });
    const hasTools = Boolean(this.session?.snapshot.capabilities.tools);
    for (const d of this.downstreams) {
      if (d.server.getClientCapabilities() && hasTools)
        void d.server.sendToolListChanged().catch(() => {}); // best effort: the client re-lists and sees the error
    }
  }

  /**
   * An acceptance in the record that ends while the gate runs stops it, as a surface change under
   * block does. Checked on every request rather than by a timer: the gate's only effect is what it
   * forwards, so the request is the moment that matters; a comparison per request costs nothing;
   * and the wall clock read then is right to the millisecond even after the machine slept, where a
   * timer (and Node's, capped near 24.8 days) would fire late. Lists are refused too: the record
   * no longer vouches for the surface they show.
   */
  private checkAcceptances(): void {
    if (this.stopped) return;
    const ended = endedAcceptances(this.options.record, (this.options.now ?? (() => new Date()))());
    if (ended === null) return;
    const p = this.policy;
    const message = `${ended}; the gate stopped forwarding: decide again in the workbench and export a fresh record`;
    this.stopped = new GateError(GATE_ERROR.ACCEPTANCE_ENDED, message, {
      reason: "acceptance_ended",
    });
    this.options.onEvent({
      event: "acceptance_ended",
      server: p.serverName,
      decision: p.decisionId,
      message,
    });
  }

  // ---------------------------------------------------------------- serving

  private primaryClientWithRoots(): Server | null {
    let last: Server | null = null;
    for (const d of this.downstreams) if (d.server.getClientCapabilities()?.roots) last = d.server;
    return last;
  }

  private capabilities(): ServerCapabilities {
    const c = (this.session?.snapshot.capabilities ?? {}) as Record<
      string,
      Record<string, unknown> | undefined
    >;
    const caps: ServerCapabilities = {};
    if (c.tools) caps.tools = { listChanged: true };
    if (c.resources)
      caps.resources = {
        listChanged: true,
        ...(c.resources.subscribe === true ? { subscribe: true } : {}),
      };
    if (c.prompts) caps.prompts = { listChanged: true };
    if (c.logging) caps.logging = {};
    if (c.completions) caps.completions = {};
    // Tasks: only the ones a relayed tools/call starts (followed and cancelled by handle);
    // tasks/list is not relayed, since it would name handles the gate did not start.
    if (c.tasks) caps.tasks = { cancel: {}, requests: { tools: { call: {} } } };
    return caps;
  }

  /** A downstream MCP server wired to this gate; connect it to any server transport. */
  createServer(): Server {
    // The gate's own identity, never the server's serverInfo: no pin covers it (it is not in the
    // fingerprint), so relaying it would let the server tell the agent anything about itself. The
    // reviewed server's name and the decision come from the signed record.
    const p = this.policy;
    const instructions = this.session?.snapshot.instructions ?? null;
    const server = new Server(
      {
        name: "relay-review-gate",
        version: CLIENT_INFO.version,
        title: `${p.serverName} through the relay-review gate (decision ${p.decisionId})`,
      },
      { capabilities: this.capabilities(), ...(instructions !== null ? { instructions } : {}) },
    );
    // Every request except initialize/ping/logging comes here unparsed: the table's check is the only check.
    server.fallbackRequestHandler = (request, extra) =>
      this.handle(request, {
        ...extra,
        askAgent: (r) => extra.sendRequest(r, PassthroughSchema, { signal: extra.signal }),
      });
    return server;
  }

  /**
   * A downstream server for an agent's client speaking the 2026-07-28 era (server/discover,
   * stateless requests with their `_meta` envelope), on the SDK's v2 line. Same identity,
   * capabilities and authorization table as the 2025-era server above: every request goes to
   * `handle`, so the era changes the wire, never what is relayed.
   */
  createModernServer(): ModernServer {
    const p = this.policy;
    const instructions = this.session?.snapshot.instructions ?? null;
    const server = new ModernServer(
      {
        name: "relay-review-gate",
        version: CLIENT_INFO.version,
        title: `${p.serverName} through the relay-review gate (decision ${p.decisionId})`,
      },
      {
        capabilities: this.capabilities() as never,
        ...(instructions !== null ? { instructions } : {}),
      },
    );
    server.fallbackRequestHandler = async (request, ctx) =>
      await this.handle(withInputAnswers(request, ctx.mcpReq), {
        signal: ctx.mcpReq.signal,
        _meta: ctx.mcpReq._meta,
        sendNotification: (n) => ctx.mcpReq.notify(n),
      });
    return server;
  }

  /**
   * The JSON-RPC error for a modern request the gate will not relay (no rule in the table, or a
   * method of a capability the server does not declare), with its event; null: serve it.
   * Methods the v2 server answers itself (server/discover, subscriptions/listen) are served.
   */
  private notRelayed(body: unknown): { id: unknown; error: Record<string, unknown> } | null {
    if (!body || typeof body !== "object" || Array.isArray(body)) return null;
    const { method, id, params } = body as { method?: unknown; id?: unknown; params?: unknown };
    if (typeof method !== "string" || id === undefined) return null;
    if (method === "server/discover" || method === "subscriptions/listen") return null;
    const verdict = this.authorize(method, params);
    if (verdict.kind !== "refuse" || verdict.code !== GATE_ERROR.NOT_RELAYED) return null;
    this.options.onEvent(verdict.event);
    return { id, error: { code: verdict.code, message: verdict.message, data: verdict.data } };
  }

  /**
   * The table's verdict, except that a method of a capability the server does not declare has no
   * rule: the gate answers lists from the checked surface, and a list of a capability the server
   * never declared would tell the agent it has one.
   */
  private authorize(method: string, params: unknown) {
    const needs = method.startsWith("tools/")
      ? "tools"
      : method.startsWith("resources/")
        ? "resources"
        : method.startsWith("prompts/")
          ? "prompts"
          : method.startsWith("completion/")
            ? "completions"
            : method.startsWith("tasks/")
              ? "tasks"
              : null;
    const declared = needs === null || (this.capabilities() as Record<string, unknown>)[needs];
    return authorizeRequest(method, params, this.auth, declared ? GATE_RULES : {});
  }

  private async handle(
    request: JSONRPCRequest,
    extra: RelayExtra,
  ): Promise<Record<string, unknown>> {
    if (this.pendingCheck) await this.pendingCheck;
    this.checkAcceptances();
    if (this.stopped) throw this.stopped;
    const verdict = this.authorize(request.method, request.params);
    switch (verdict.kind) {
      case "serve":
        return { [verdict.field]: this.visible[verdict.list] };
      case "forward": {
        // A held result a reviewer released answers the same request once, as it was held.
        const released = this.held.take(request.method, request.params);
        if (released) {
          this.options.onEvent({
            event: "content.released",
            id: released.id,
            server: this.policy.serverName,
            method: request.method,
          });
          return released.result;
        }
        // Detection (issue 31): counts what arrives, never refuses; `hold` swaps the text for a notice.
        const result = await this.answerInput(request, await this.forward(request, extra), extra);
        if (request.method === "tools/call") this.rememberTask(result);
        const scanned = scanRelayed(request.method, request.params, result, {
          server: this.policy.serverName,
          serverId: this.policy.serverId,
          tools: this.visibleTools,
          mode: this.options.contentScan,
        });
        if (scanned.event) this.options.onEvent(scanned.event);
        if (scanned.event && scanned.result !== result)
          this.held.keep(scanned.event.id, request.method, request.params, result);
        if (SCANNED_METHODS.has(request.method))
          this.options.onScanned?.(this.policy.serverName, scanned.event);
        return scanned.result;
      }
      case "refuse":
        this.options.onEvent(verdict.event);
        throw new GateError(verdict.code, verdict.message, verdict.data);
    }
  }

  /**
   * A forwarded request's result, when the server asked for input (`input_required`): judged
   * against the record (lib/gate/input-required.ts). Allowed, a 2026-07-28 agent gets the result
   * as it came and retries with its answers, which the gate forwards like any request; a 2025-era
   * agent is asked each embedded request as the server→client request it stands for, and the gate
   * retries upstream with the answers (at most MAX_INPUT_ROUNDS rounds). Refused: a JSON-RPC
   * error naming each refused request and why.
   */
  private async answerInput(
    request: JSONRPCRequest,
    first: Record<string, unknown>,
    extra: RelayExtra,
  ): Promise<Record<string, unknown>> {
    let result = first;
    for (let round = 1; isInputRequired(result); round++) {
      const judged = judgeInputRequired(
        result,
        (this.inputPolicy ??= inputPolicyFromRecord(this.options.record)),
      );
      this.options.onEvent({
        event: "input_required",
        server: this.policy.serverName,
        decision: this.policy.decisionId,
        method: request.method,
        outcome: judged.ok ? "relayed" : "refused",
        requests: judged.requests,
      });
      if (!judged.ok) throw this.inputRefused(request, judged.message);
      // What the server asks the agent's user passes to the agent: scanned like any relayed text.
      for (const asked of Object.values((result.inputRequests ?? {}) as Record<string, unknown>)) {
        const { method, params } = (asked ?? {}) as { method?: unknown; params?: unknown };
        if (method === "elicitation/create" && params && typeof params === "object")
          this.scanElicitation(params as Record<string, unknown>);
      }
      if (!extra.askAgent) return result;
      if (round > MAX_INPUT_ROUNDS)
        throw this.inputRefused(
          request,
          `the server still asked for input after ${MAX_INPUT_ROUNDS} rounds`,
        );
      const answers: Record<string, unknown> = {};
      // Judged above: an object of request objects, each with a method.
      const asked = (result.inputRequests ?? {}) as Record<
        string,
        { method: string; params?: Record<string, unknown> }
      >;
      for (const [key, { method, params }] of Object.entries(asked)) {
        try {
          answers[key] = await extra.askAgent(asLegacyRequest(method, params, randomUUID));
        } catch (error) {
          // An agent that cannot ask its user (no elicitation capability, no person at hand)
          // declines, as a client without a person does: the server hears "no" and the call goes
          // on with its state echoed. Anything else unanswered is refused.
          if (method !== "elicitation/create")
            throw this.inputRefused(
              request,
              `the agent's client did not answer ${method} (${errorText(error)})`,
            );
          answers[key] = { action: "decline" };
        }
      }
      if (Object.keys(answers).length === 0)
        await new Promise((r) => setTimeout(r, INPUT_STATE_PACING_MS));
      const params = {
        ...(request.params ?? {}),
        ...(Object.keys(answers).length ? { inputResponses: answers } : {}),
        ...(judged.requestState !== undefined ? { requestState: judged.requestState } : {}),
      };
      result = await this.forward({ ...request, params }, extra);
    }
    return result;
  }

  /**
   * A 2026-07-28 server asks for URL-mode elicitation only of a client that declares it, per
   * request. The session declares the record's capabilities (form-mode elicitation: the surface
   * was listed so); a forwarded request also declares URL mode when the record admits hosts for
   * it, so the server may ask, and the gate judges where it sends the user. Lists are unchanged.
   */
  private withUrlElicitation(params: JSONRPCRequest["params"]): JSONRPCRequest["params"] {
    const reg = this.options.record.registration;
    if (!reg?.elicitation_url_domains?.length || this.session?.snapshot.era !== "2026")
      return params;
    return {
      ...params,
      _meta: {
        ...params?._meta,
        [CLIENT_CAPABILITIES_META_KEY]: {
          ...declaredClientCapabilities({ hostRendersApps: this.declaresApps() }),
          elicitation: { form: {}, url: {} },
        },
      },
    };
  }

  private inputRefused(request: JSONRPCRequest, why: string): GateError {
    return new GateError(
      INPUT_REFUSED,
      inputRefusedMessage(this.policy.serverName, request.method, why),
      { reason: "input_refused" },
    );
  }

  /**
   * Releases a held result (issue 31): the agent's next identical request gets it. False when the
   * gate no longer holds that id (never held here, evicted by newer ones, or already handed out).
   */
  release(id: string): boolean {
    return this.held.release(id);
  }

  /** The ids of held results not yet released (the reporter asks the workbench about them). */
  heldIds(): string[] {
    return this.held.pending();
  }

  /**
   * An elicitation the server asked for, scanned and counted: a 2025-era server's own request
   * (relayElicitation), or one inside a 2026-07-28 `input_required` result the record lets through (flagged, never
   * held: the agent's user answers it, and a notice in its place would answer nothing).
   */
  private scanElicitation(params: Record<string, unknown>): void {
    const event = scanElicitation(params, {
      server: this.policy.serverName,
      serverId: this.policy.serverId,
      tools: this.visibleTools,
    });
    if (event === undefined) return;
    if (event) this.options.onEvent(event);
    this.options.onScanned?.(this.policy.serverName, event);
  }

  /**
   * A 2025-era server's own elicitation/create, asked while the gate forwards an agent's request:
   * relayed to the agent under the rules of an input_required elicitation (judgeInputRequest: form
   * mode when the record's inspection declared elicitation, URL mode only to a host the record
   * lists), and its answer returned to the server. Declined otherwise, and whenever it cannot be
   * tied to one agent that can be asked: exactly one request must be upstream (with several, the
   * gate cannot tell whose user the server is asking), from a 2025-era agent (a 2026-07-28 agent
   * takes no server→client requests), whose client answers (one without elicitation declines,
   * as a client without a person does). Its text is scanned first, whatever happens to it.
   */
  private async relayElicitation(
    params: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined> {
    this.scanElicitation(params);
    const verdict = judgeInputRequest(
      "elicitation",
      { method: "elicitation/create", params },
      (this.inputPolicy ??= inputPolicyFromRecord(this.options.record)),
    );
    const upstream = [...this.upstreamNow];
    const asking = upstream.length === 1 ? upstream[0]! : null;
    const refused =
      verdict.refused ??
      (this.stopped
        ? `the gate has stopped relaying: ${this.stopped.message}`
        : upstream.length === 0
          ? "no request of the agent was being answered, so no agent is asked"
          : !asking
            ? `${upstream.length} requests were being answered, so the gate cannot tell whose user is asked`
            : !asking.extra.askAgent
              ? "the agent's client speaks 2026-07-28, which takes no server→client requests"
              : undefined);
    this.options.onEvent({
      event: "input_required",
      server: this.policy.serverName,
      decision: this.policy.decisionId,
      method: asking?.method ?? "elicitation/create",
      outcome: refused === undefined ? "relayed" : "refused",
      requests: [{ ...verdict, ...(refused !== undefined ? { refused } : {}) }],
    });
    if (refused !== undefined || !asking?.extra.askAgent) return undefined;
    try {
      const answer = await asking.extra.askAgent(
        asLegacyRequest("elicitation/create", params, randomUUID),
      );
      return answer && typeof answer === "object" ? (answer as Record<string, unknown>) : undefined;
    } catch {
      return undefined; // the agent's client cannot ask its user: the server hears "decline"
    }
  }

  /** A task handle in a forwarded tools/call's result (CreateTaskResult), remembered as started here. */
  private rememberTask(result: Record<string, unknown>): void {
    const task = result.task;
    if (!task || typeof task !== "object") return;
    const id = (task as { taskId?: unknown }).taskId;
    if (typeof id !== "string" || id.length === 0 || id.length > 1024) return;
    if (this.startedTasks.size >= MAX_STARTED_TASKS) {
      const oldest = this.startedTasks.values().next().value;
      if (oldest !== undefined) this.startedTasks.delete(oldest);
    }
    this.startedTasks.add(id);
  }

  /**
   * Forward a request. When the server refuses the grant mid-session (403 insufficient_scope on a
   * call the listing did not need), the SDK's transport has already asked for a wider one: headless
   * (client credentials) it got it and sent the request again itself; interactive, it printed the
   * authorization URL, and this waits for that consent (one at a time for the whole gate), then
   * sends the request once more. A request refused while another's step-up is in flight waits for
   * that one instead (`AuthorizationInFlight`), then is sent once more. A refusal is the agent's
   * JSON-RPC error, naming the OAuth step.
   */
  private async forward(
    request: JSONRPCRequest,
    extra: RelayExtra,
  ): Promise<Record<string, unknown>> {
    try {
      return await this.send(request, extra);
    } catch (error) {
      if (error instanceof AuthorizationInFlight) await this.awaitStepUp(request, error, extra);
      else await this.consentToStepUp(request, error);
    }
    try {
      return await this.send(request, extra);
    } catch (error) {
      const failure = this.authFailure(error);
      throw failure ? this.refuseAuth(request, failure) : this.upstreamError(error);
    }
  }

  /** An upstream error for the agent: the bound that closed the connection, when one did. */
  private upstreamError(error: unknown): GateError {
    const failure = this.session?.failure();
    return failure
      ? new GateError(ErrorCode.InternalError, `relay-review gate: ${failure.message}`, {
          reason: failure.code,
        })
      : relayError(error);
  }

  /** The wider grant `error` asked the user for (its URL printed), consented; else the refusal. */
  private async consentToStepUp(request: JSONRPCRequest, error: unknown): Promise<void> {
    const failure = this.authFailure(error);
    if (!failure) throw this.upstreamError(error);
    const auth = this.oauthClient();
    if (!auth?.pendingAuthorization() || !this.options.consent)
      throw this.refuseAuth(request, failure);
    this.consenting ??= this.options.consent().finally(() => {
      this.consenting = null;
    });
    const got = await this.consenting;
    if (got && !got.ok) throw this.refuseAuth(request, got.error);
    this.stepUpGranted(request);
  }

  /**
   * The outcome of the step-up another request put in flight, waited for no longer than a call
   * may take (then it is ended for every request waiting on it) and not past the agent's
   * cancellation of this request.
   */
  private async awaitStepUp(
    request: JSONRPCRequest,
    inFlight: AuthorizationInFlight,
    extra: RelayExtra,
  ): Promise<void> {
    const bound = this.options.callTimeoutMs ?? GATE_CALL_TIMEOUT_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    const outcome = await Promise.race([
      inFlight.settled,
      new Promise<"timeout" | "cancelled">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), bound);
        onAbort = () => resolve("cancelled");
        extra.signal.addEventListener("abort", onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    extra.signal.removeEventListener("abort", onAbort);
    if (outcome === "cancelled")
      throw new GateError(
        ErrorCode.RequestTimeout,
        "the agent cancelled the request while it waited for another request's step-up",
      );
    if (outcome === "timeout")
      throw this.refuseAuth(request, {
        code: "unauthorized",
        oauthStep: "challenge",
        message: `the step-up another request started did not complete within ${bound} ms (limit callTimeoutMs)`,
      });
    if (outcome)
      throw this.refuseAuth(request, {
        code: "unauthorized",
        oauthStep: outcome.step,
        message: outcome.message,
      });
    this.stepUpGranted(request);
  }

  private stepUpGranted(request: JSONRPCRequest): void {
    this.options.onEvent({
      event: "step_up",
      server: this.policy.serverName,
      method: request.method,
      outcome: "granted",
    });
  }

  private oauthClient(): McpOAuthClient | null {
    const t = this.options.target;
    return t.kind === "http" && t.auth ? t.auth : null;
  }

  /** The OAuth failure behind an upstream error (a 401/403 the flow could not answer), or null. */
  private authFailure(error: unknown): InspectError | null {
    const auth = this.oauthClient();
    if (!auth) return null;
    const isAuth =
      error instanceof OAuthStepError ||
      error instanceof UnauthorizedError ||
      (error instanceof StreamableHTTPError && (error.code === 401 || error.code === 403));
    const described = isAuth ? auth.describeFailure(error) : null;
    return described
      ? { code: "unauthorized", oauthStep: described.step, message: described.message }
      : null;
  }

  /** The agent's error for a step-up not obtained; requests waiting on that step-up get it too. */
  private refuseAuth(request: JSONRPCRequest, failure: InspectError): GateError {
    const step = failure.oauthStep ?? "challenge";
    this.oauthClient()?.endAuthorization({ step, message: failure.message });
    this.options.onEvent({
      event: "step_up",
      server: this.policy.serverName,
      method: request.method,
      outcome: "refused",
      step,
      message: failure.message,
    });
    return new GateError(
      GATE_ERROR.UNAUTHORIZED,
      `${this.policy.serverName} refused the gate's authorization for ${request.method}, and a wider grant was not obtained: ${failure.message}`,
      { reason: "unauthorized", step },
    );
  }

  private async send(request: JSONRPCRequest, extra: RelayExtra): Promise<Record<string, unknown>> {
    const progressToken = extra._meta?.progressToken;
    // While it is upstream, a 2025-era server's elicitation may be this request's (relayElicitation).
    const upstream = { method: request.method, extra };
    this.upstreamNow.add(upstream);
    try {
      return await this.session!.client.request(
        {
          method: request.method,
          params: this.withUrlElicitation(withoutEnvelope(request.params)),
        },
        PassthroughSchema,
        {
          signal: extra.signal,
          // An input_required result comes back as it is, for the record to judge (answerInput):
          // the client's own driver would answer it with the session's handlers instead.
          allowInputRequired: true,
          timeout: this.options.callTimeoutMs ?? GATE_CALL_TIMEOUT_MS,
          resetTimeoutOnProgress: true,
          ...(progressToken !== undefined
            ? {
                onprogress: (p) =>
                  void extra
                    .sendNotification({
                      method: "notifications/progress",
                      params: { ...p, progressToken },
                    })
                    .catch(() => {}),
              }
            : {}),
        },
      );
    } finally {
      this.upstreamNow.delete(upstream);
    }
  }

  private async relayNotification(n: {
    method: string;
    params?: Record<string, unknown>;
  }): Promise<void> {
    if (this.stopped) return;
    if (n.method === "notifications/resources/updated") {
      const uri = n.params?.uri;
      if (
        typeof uri !== "string" ||
        !(this.policy.resources.has(uri) || this.auth.matchesTemplate(uri))
      )
        return;
    } else if (n.method !== "notifications/message") return;
    await Promise.all(
      [...this.downstreams].map((d) =>
        d.server.notification(n as ServerNotification).catch(() => {}),
      ),
    );
  }

  private track(server: Server, close: () => Promise<void>, onClosed?: () => void): Downstream {
    const d: Downstream = { server, close };
    this.downstreams.add(d);
    server.onclose = () => {
      this.downstreams.delete(d);
      onClosed?.();
    };
    return d;
  }

  /**
   * Serve one client over this process's stdin/stdout; resolves when either side goes away. The
   * agent's lines have the server's bound, MAX_STDIO_LINE_BYTES: stdin is split into lines here
   * (each byte copied once) and only whole lines reach the SDK's transport, whose own buffer
   * copies the whole of a partial line on every chunk and closes silently at 10 MiB. A line past
   * the bound ends the session with a `downstream_closed` event naming it.
   */
  async serveStdio(): Promise<void> {
    const server = this.createServer();
    const lines = new PassThrough();
    const transport = new StdioServerTransport(lines, process.stdout, {
      maxBufferSize: 2 * MAX_STDIO_LINE_BYTES, // whole lines only; this is a backstop
    });
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const onData = (chunk: Buffer) => {
      let from = 0;
      for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
        const piece = chunk.subarray(from, nl + 1);
        lines.write(pendingBytes ? Buffer.concat([...pending, piece]) : piece);
        pending = [];
        pendingBytes = 0;
        from = nl + 1;
      }
      if (from === chunk.length) return;
      pending.push(chunk.subarray(from));
      pendingBytes += chunk.length - from;
      if (pendingBytes <= MAX_STDIO_LINE_BYTES) return;
      stopReading();
      this.options.onEvent({
        event: "downstream_closed",
        server: this.policy.serverName,
        message: lineTooLong("the agent's client", pendingBytes),
      });
      pending = [];
      void transport.close();
    };
    const onEnd = () => lines.end();
    // Else stdin stays open, and the process with it.
    const stopReading = () => {
      process.stdin.off("data", onData);
      process.stdin.off("end", onEnd);
      process.stdin.pause();
    };
    let onClosed: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      onClosed = () => {
        stopReading();
        resolve();
      };
      process.stdin.once("end", resolve);
      process.stdin.once("close", resolve);
    });
    this.track(server, () => server.close(), onClosed);
    process.stdin.on("data", onData);
    process.stdin.on("end", onEnd);
    await server.connect(transport);
    await Promise.race([ended, this.upstreamClosed]);
  }

  /**
   * Serve Streamable HTTP on 127.0.0.1:`port` at /mcp, one session per client. Host headers other
   * than the loopback names are refused (DNS rebinding); with `token`, every request needs
   * `Authorization: Bearer <token>`. No default: any local process reaches 127.0.0.1, so a caller
   * passes null (no token) only as an explicit choice (`--listen-no-token`).
   */
  async listen(
    port: number,
    token: string | null,
  ): Promise<{ url: string; close: () => Promise<void> }> {
    const sessions = new Map<
      string,
      { transport: StreamableHTTPServerTransport; server: Server }
    >();
    let allowedHosts: string[] = [];
    const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
    const isAuthorized = (req: IncomingMessage) => {
      if (expected === null) return true;
      const got = Buffer.from(req.headers.authorization ?? "");
      return got.length === expected.length && timingSafeEqual(got, expected);
    };
    const reply = (res: ServerResponse, status: number, message: string) =>
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
    const http = createHttpServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mcp") return void reply(res, 404, "not found: the gate serves /mcp");
      if (!isAuthorized(req))
        return void reply(res, 401, "unauthorized: this gate needs Authorization: Bearer <token>");
      const sid = req.headers["mcp-session-id"];
      const id = Array.isArray(sid) ? sid[0] : sid;
      if (id !== undefined) {
        const s = sessions.get(id);
        if (!s) return void reply(res, 404, "unknown or expired session");
        void s.transport.handleRequest(req, res).catch(() => {
          if (!res.headersSent) reply(res, 500, "the gate failed to handle this request");
        });
        return;
      }
      if (req.method !== "POST")
        return void reply(res, 400, "a new session starts with an initialize POST");
      void this.routeByEra(req, res, modern, allowedHosts, startLegacy).catch(() => {
        if (!res.headersSent) reply(res, 500, "the gate failed to handle this request");
      });
    });
    // A 2025-era client: one sessionful v1 transport per client (roots, notifications, list_changed).
    const startLegacy = (req: IncomingMessage, res: ServerResponse, body: unknown) => {
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableDnsRebindingProtection: true,
        allowedHosts,
        onsessioninitialized: (sessionId) => {
          sessions.set(sessionId, { transport, server });
        },
      });
      const server = this.createServer();
      this.track(server, () => server.close());
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      server
        .connect(transport)
        .then(() => transport.handleRequest(req, res, body))
        .catch(() => {
          if (!res.headersSent) reply(res, 500, "the gate failed to start a session");
        });
    };
    // A 2026-07-28 client: stateless, one v2 server instance per request (createMcpHandler), the
    // 2025 leg refused there because it is routed above.
    const modern = createMcpHandler(() => this.createModernServer(), {
      legacy: "reject",
      onerror: () => {},
    });
    this.modernHandlers.add(modern);
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, "127.0.0.1", () => resolve());
    });
    const actual = (http.address() as AddressInfo).port;
    allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
    return {
      url: `http://127.0.0.1:${actual}/mcp`,
      close: async () => {
        this.modernHandlers.delete(modern);
        await modern.close().catch(() => {});
        await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
        await new Promise<void>((r) => http.close(() => r()));
      },
    };
  }

  /**
   * A POST without a session id: a 2026-07-28 request goes to the stateless v2 handler, anything
   * else (a 2025 initialize) to `legacy`. The body is read once, under the SDK's bound, and
   * handed to whichever leg serves it. Host and Origin are checked here for the modern leg (the
   * v1 transport checks its own): a rebound name or another origin is refused (403).
   */
  private async routeByEra(
    req: IncomingMessage,
    res: ServerResponse,
    modern: McpHttpHandler,
    allowedHosts: string[],
    legacy: (req: IncomingMessage, res: ServerResponse, body: unknown) => void,
  ): Promise<void> {
    const abort = new AbortController();
    res.once("close", () => abort.abort());
    let web: Request;
    let body: unknown;
    try {
      web = await toWebRequest(req, undefined, { signal: abort.signal });
      body = JSON.parse(await web.clone().text());
    } catch {
      res.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: "parse error" },
        }),
      );
      return;
    }
    if (await isLegacyRequest(web, body)) return legacy(req, res, body);
    const refusal = foreignHostOrOrigin(req, allowedHosts);
    if (refusal) {
      res
        .writeHead(403, { "content-type": "application/json" })
        .end(
          JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: refusal } }),
        );
      return;
    }
    // A method the gate does not relay is refused here, with the 404 the 2026-07-28 HTTP binding
    // gives an unknown method: from inside a handler the SDK could only answer 200.
    const notRelayed = this.notRelayed(body);
    if (notRelayed) {
      res
        .writeHead(404, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", ...notRelayed }));
      return;
    }
    const response = await modern.fetch(web, { parsedBody: body });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}), {
      once: true,
    });
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  }

  /** Close the downstream sessions and the upstream (a stdio server's whole process group). Idempotent; never rejects. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.downstreams].map((d) => d.close().catch(() => {})));
      this.downstreams.clear();
      await Promise.all([...this.modernHandlers].map((h) => h.close().catch(() => {})));
      await this.session?.close().catch(() => {});
      this.resolveUpstreamClosed();
    })();
    return this.closing;
  }
}

/**
 * Why a request's Host or Origin is not this loopback listener (DNS rebinding, a page of another
 * origin), or null. `allowedHosts`: the listener's `127.0.0.1:PORT` and `localhost:PORT`.
 */
function foreignHostOrOrigin(req: IncomingMessage, allowedHosts: string[]): string | null {
  const host = req.headers.host;
  if (!host || !allowedHosts.includes(host.toLowerCase()))
    return `Invalid Host header: ${JSON.stringify(host ?? null)}`;
  const origin = req.headers.origin;
  if (origin === undefined) return null;
  try {
    const url = new URL(origin);
    if ((url.protocol === "http:" || url.protocol === "https:") && allowedHosts.includes(url.host))
      return null;
  } catch {
    // not a URL: refused below
  }
  return `Invalid Origin header: ${JSON.stringify(origin)}`;
}

const LIST_LABEL: Record<SurfaceList, string> = {
  tools: "tool",
  resources: "resource",
  resourceTemplates: "resource template",
  prompts: "prompt",
};

/**
 * The difference at startup, from the record's names and per-item hashes: the record carries
 * hashes, not the reviewed text, so a changed item is shown with its live text (what the gate
 * refused to relay), next to the hash it should have had.
 */
export function formatMismatch(
  cmp: Extract<PinComparison, { status: "mismatch" }>,
  live: SurfaceSnapshot,
): string {
  const lines = [
    `surface_sha256 expected ${cmp.expected}`,
    `surface_sha256 live     ${cmp.actual}`,
  ];
  const n = cmp.names;
  if (!n) return lines.join("\n");
  const find = (list: SurfaceList, key: string) =>
    (live[list] as DomainItem[]).find((i) => itemKey(list, i) === key);
  const text = (item: DomainItem | undefined) => {
    if (!item) return [];
    const i = item as Record<string, unknown>;
    return (["title", "description"] as const)
      .filter((f) => typeof i[f] === "string")
      .map((f) => `    live ${f}: ${JSON.stringify(i[f])}`);
  };
  for (const a of n.added)
    lines.push(
      `+ ${LIST_LABEL[a.list]} ${JSON.stringify(a.key)} (not in the record)`,
      ...text(find(a.list, a.key)),
    );
  for (const r of n.removed)
    lines.push(
      `- ${LIST_LABEL[r.list]} ${JSON.stringify(r.key)} (in the record, gone from the server)`,
    );
  for (const c of n.changed)
    lines.push(
      `~ ${LIST_LABEL[c.list]} ${JSON.stringify(c.key)}: changed since review (item hash differs)`,
      ...text(find(c.list, c.key)),
    );
  if (n.instructionsChanged)
    lines.push(`~ instructions changed`, `    live: ${JSON.stringify(live.instructions)}`);
  return lines.join("\n");
}
