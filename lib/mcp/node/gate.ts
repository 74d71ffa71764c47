import "server-only";
/**
 * The gate: an MCP proxy that puts a decision record in the path of every request. The agent's
 * client starts the gate instead of the server; the gate starts (or reaches) the real server,
 * reads its surface over the very connection it will relay on, and refuses to start unless the
 * surface matches the record's fingerprint (under `on_surface_change: block`). It then serves:
 *
 * - tools/list, resources/list, resources/templates/list, prompts/list from the checked surface,
 *   filtered to the record (the approved tool set; the registration's resources and prompts), so
 *   the client only ever sees reviewed text, even if the server would answer a re-list differently;
 * - tools/call, resources/read|subscribe|unsubscribe, prompts/get, completion/complete forwarded as
 *   they came (no re-validation beyond the name check, for speed) when the name is in the record,
 *   otherwise a JSON-RPC error and one JSON line on stderr;
 * - after a list_changed from the server, a re-read of that list: a surface that no longer hashes
 *   to the record stops the gate (every later request gets an error; under `warn` it is logged).
 *
 * The upstream client declares the inspection's client capabilities and client info, so the
 * surface is the one the record's fingerprint was made from (lib/mcp/capabilities.ts). The
 * server's requests are answered as an inspection answers them: roots/list goes to the agent's
 * client when it declared roots (else an empty list), sampling is refused, elicitation declined —
 * the record does not speak to either, so the gate does not relay them. Progress and cancellation
 * are relayed. Server stderr is kept as a tail for error messages, not relayed.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { UriTemplate } from "@modelcontextprotocol/sdk/shared/uriTemplate.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type JSONRPCRequest,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { DecisionRecord } from "@/lib/decisions/record";
import { GATE_ERROR, gatePolicyFromRecord, type GateEvent, type GatePolicy, type GateRefusal } from "@/lib/gate/policy";
import { DECLARED_CLIENT_CAPABILITIES, declaredCapabilityNames } from "@/lib/mcp/capabilities";
import type { DomainItem } from "@/lib/mcp/convert";
import { GuardTripped, InspectionGuard } from "@/lib/mcp/guard";
import { listEveryPage } from "@/lib/mcp/list";
import { openersFor } from "@/lib/mcp/node/inspect";
import { CLIENT_INFO, SETTLE_DEBOUNCE_MS, type OpenedTransport } from "@/lib/mcp/session";
import type { InspectError, InspectTarget } from "@/lib/mcp/types";
import { fingerprintSurface, itemKey } from "@/lib/surface/fingerprint";
import { resolveInspectLimits, type InspectLimits } from "@/lib/surface/limits";
import { comparePin, type PinComparison } from "@/lib/surface/registration";
import {
  SURFACE_LISTS,
  SURFACE_SNAPSHOT_VERSION,
  type PromptItem,
  type ResourceItem,
  type ResourceTemplateItem,
  type Surface,
  type SurfaceList,
  type SurfaceReject,
  type SurfaceSnapshot,
  type ToolItem,
} from "@/lib/surface/types";

/** Default bound on one forwarded request (reset by progress notifications). */
export const GATE_CALL_TIMEOUT_MS = 300_000;

/**
 * The inspection's bounds during startup; once relaying, a long-lived session may move any
 * number of bytes, so byte and invalid-line counting stop (timeouts still bound every request).
 */
class RelayGuard extends InspectionGuard {
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
  if (error instanceof McpError) return new GateError(error.code, error.message.replace(/^MCP error -?\d+: /, ""), error.data);
  return new GateError(ErrorCode.InternalError, `the gate could not forward the request: ${error instanceof Error ? error.message : String(error)}`);
}

const PassthroughSchema = z.looseObject({});
const PageSchema = z.looseObject({ nextCursor: z.unknown().optional() });

type ListState = { items: DomainItem[]; rejects: SurfaceReject[] };
type Lists = Record<SurfaceList, ListState>;

export type GateOptions = {
  /** A record whose signature was already verified (see verifyRecord). */
  record: DecisionRecord;
  target: InspectTarget;
  limits?: Partial<InspectLimits>;
  callTimeoutMs?: number;
  /** Receives every event; the CLI writes each as one JSON line on stderr. */
  onEvent: (event: GateEvent) => void;
};

export type GateStartFailure = {
  refusal: GateRefusal;
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
  const policy = policyResult.policy;
  let limits: InspectLimits;
  try {
    limits = resolveInspectLimits(options.limits);
  } catch (error) {
    return { ok: false, refusal: { reason: "upstream_failed", message: `invalid limits: ${errorText(error)}` } };
  }
  const gate = new Gate(options, policy, limits);
  try {
    return await gate.start();
  } catch (error) {
    await gate.close();
    return { ok: false, refusal: { reason: "upstream_failed", message: `unexpected failure: ${errorText(error)}` } };
  }
}

type Downstream = { server: Server; close: () => Promise<void> };

export class Gate {
  private readonly guard: RelayGuard;
  private readonly client: Client;
  private opened: OpenedTransport | null = null;
  private lists: Lists = emptyLists();
  private instructions: string | null = null;
  private upstreamCaps: Record<string, unknown> = {};
  private serverInfo = { name: "relay-review-gate", version: "0.1.0" };
  private readonly templates: UriTemplate[];
  /** Set once the surface changed under block: every later request gets this error. */
  private stopped: GateError | null = null;
  private pendingCheck: Promise<void> | null = null;
  private readonly dirty = new Set<SurfaceList>();
  private isStarting = true;
  private wakeStart: () => void = () => {};
  private readonly downstreams = new Set<Downstream>();
  private closing: Promise<void> | null = null;
  /** Resolves when the upstream connection closes. */
  readonly upstreamClosed: Promise<void>;
  private resolveUpstreamClosed!: () => void;
  private visible: { tools: ToolItem[]; resources: ResourceItem[]; resourceTemplates: ResourceTemplateItem[]; prompts: PromptItem[] } = {
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
  };

  constructor(
    private readonly options: GateOptions,
    readonly policy: GatePolicy,
    private readonly limits: InspectLimits,
  ) {
    this.guard = new RelayGuard(limits);
    this.templates = policy.resourceTemplates.map((t) => new UriTemplate(t));
    this.upstreamClosed = new Promise((r) => (this.resolveUpstreamClosed = r));
    this.client = new Client(CLIENT_INFO, { capabilities: structuredClone(DECLARED_CLIENT_CAPABILITIES) });
    this.client.setRequestHandler(ListRootsRequestSchema, async () => {
      const primary = this.primaryClientWithRoots();
      return primary ? await primary.listRoots() : { roots: [] };
    });
    this.client.setRequestHandler(CreateMessageRequestSchema, () => {
      throw new McpError(ErrorCode.InvalidRequest, "the relay-review gate does not relay sampling requests");
    });
    this.client.setRequestHandler(ElicitRequestSchema, () => ({ action: "decline" as const }));
    this.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.onListChanged(["tools"]));
    this.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.onListChanged(["resources", "resourceTemplates"]));
    this.client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.onListChanged(["prompts"]));
    this.client.fallbackNotificationHandler = (n) => this.relayNotification(n);
  }

  get label(): string {
    return this.opened?.kind ?? this.options.target.kind;
  }
  /** The tools the gate lists and forwards. */
  get visibleTools(): string[] {
    return this.visible.tools.map((t) => t.name);
  }

  // ---------------------------------------------------------------- startup

  /** @internal used by startGate */
  async start(): Promise<GateStartResult> {
    const deadline = setTimeout(
      () => this.guard.tripLimit("deadlineMs", `the startup check did not finish within ${this.limits.deadlineMs} ms`),
      this.limits.deadlineMs,
    );
    try {
      const failure = await this.connectAndCheck();
      if (failure) {
        await this.close();
        return { ok: false, ...failure };
      }
      this.isStarting = false;
      this.guard.startRelaying();
      this.client.onclose = () => {
        this.resolveUpstreamClosed();
        if (!this.closing) {
          const info = this.opened?.exitInfo?.();
          this.options.onEvent({
            event: "upstream_closed",
            server: this.policy.serverName,
            message: info ? `the server exited (code ${info.exitCode ?? "none"}, signal ${info.signal ?? "none"})` : "the server closed the connection",
          });
          void this.close(); // the downstream sessions end with it; close() never rejects
        }
      };
      return { ok: true, gate: this };
    } finally {
      clearTimeout(deadline);
    }
  }

  private fail(error: InspectError): GateStartFailure {
    const tail = this.opened?.stderrTail?.();
    return {
      refusal: { reason: "upstream_failed", message: `${error.limit ? `limit ${error.limit} tripped: ` : ""}${error.message}` },
      ...(tail ? { stderrTail: tail } : {}),
    };
  }

  private async connectAndCheck(): Promise<GateStartFailure | null> {
    const openers = openersFor(this.options.target);
    for (let i = 0; i < openers.length; i++) {
      const opener = openers[i]!;
      try {
        this.opened = opener.open(this.guard);
      } catch (error) {
        return this.fail({ code: "connect_failed", message: `could not start ${opener.label}: ${errorText(error)}` });
      }
      this.guard.whenTripped(() => void this.opened?.close?.());
      try {
        await this.guard.within(
          this.client.connect(this.opened.transport, { timeout: this.limits.connectTimeoutMs }),
          this.limits.connectTimeoutMs,
          "connectTimeoutMs",
          "connecting and initializing",
        );
        break;
      } catch (error) {
        const reason = !this.guard.error && this.opened.fallbackReason?.(error);
        if (reason && i + 1 < openers.length) {
          await this.opened.close?.().catch(() => {});
          continue;
        }
        return this.fail(this.guard.error ?? this.describe(error, "initialize"));
      }
    }
    const info = this.client.getServerVersion();
    this.serverInfo = { name: info?.name ?? "", version: info?.version ?? "" };
    this.upstreamCaps = (this.client.getServerCapabilities() ?? {});
    this.instructions = this.client.getInstructions() ?? null;
    if (this.instructions !== null && this.instructions.length > this.limits.descriptionLength) {
      return this.fail({ code: "limit_exceeded", limit: "descriptionLength", message: `the server's instructions are ${this.instructions.length} characters long` });
    }
    try {
      for (const list of this.advertised()) {
        this.dirty.delete(list);
        this.lists[list] = await this.listAll(list);
      }
      await this.settle();
    } catch (error) {
      return this.fail(this.guard.error ?? (error instanceof GuardTripped ? error.error : this.describe(error, "listing")));
    }
    const snapshot = this.snapshot();
    const registration = this.options.record.registration!;
    const cmp = comparePin(registration, snapshot);
    if (cmp.status === "match") {
      this.refreshVisible();
      return null;
    }
    if (cmp.status === "incomparable") {
      return {
        refusal: { reason: "incomparable", message: `${cmp.reason} (record: ${cmp.pinned.join(", ") || "none"}; gate: ${cmp.inspected.join(", ") || "none"})` },
        comparison: cmp,
      };
    }
    const detail = formatMismatch(cmp, snapshot);
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
      this.refreshVisible();
      return null;
    }
    return {
      refusal: {
        reason: "surface_mismatch",
        message: `stale record: ${this.policy.serverName}'s live surface ${cmp.actual} is not the surface ${cmp.expected} the decision was made against (on_surface_change: block)`,
      },
      detail,
      comparison: cmp,
    };
  }

  private describe(error: unknown, what: string): InspectError {
    if (error instanceof McpError) {
      if (error.code === (ErrorCode.ConnectionClosed as number)) {
        const info = this.opened?.exitInfo?.();
        return { code: "server_exited", message: `the server ${info ? `exited (code ${info.exitCode ?? "none"})` : "closed the connection"} during ${what}` };
      }
      if (error.code === (ErrorCode.RequestTimeout as number)) return { code: "limit_exceeded", limit: "requestTimeoutMs", message: `${what} got no answer in time` };
      return { code: "protocol_error", message: `the server answered ${what} with error ${error.code}: ${error.message}` };
    }
    return { code: what === "initialize" ? "connect_failed" : "protocol_error", message: `${what} failed: ${errorText(error)}` };
  }

  private advertised(): SurfaceList[] {
    const c = this.upstreamCaps;
    const out: SurfaceList[] = [];
    if (c.tools) out.push("tools");
    if (c.resources) out.push("resources", "resourceTemplates");
    if (c.prompts) out.push("prompts");
    return out;
  }

  private hasListChanged(): boolean {
    const c = this.upstreamCaps as Record<string, { listChanged?: unknown } | undefined>;
    return this.advertised().some((l) => c[l === "resourceTemplates" ? "resources" : l]?.listChanged === true);
  }

  /** As the inspection settles: re-list what changed (debounced, bounded), until quiet for settleQuietMs. */
  private async settle(): Promise<void> {
    const relists: Record<SurfaceList, number> = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
    for (;;) {
      if (this.dirty.size) {
        await this.guard.sleep(Math.min(SETTLE_DEBOUNCE_MS, this.limits.settleQuietMs));
        const lists = this.advertised().filter((l) => this.dirty.has(l));
        this.dirty.clear();
        for (const list of lists) {
          if (++relists[list] > this.limits.relists) {
            this.guard.tripLimit("relists", `the server kept changing its ${list} list (list_changed after ${this.limits.relists} re-lists)`);
            throw new GuardTripped(this.guard.error!);
          }
          this.lists[list] = await this.listAll(list);
        }
        continue;
      }
      if (!this.hasListChanged() || this.limits.settleQuietMs === 0) return;
      const woke = new Promise<void>((r) => (this.wakeStart = r));
      await this.guard.sleep(this.limits.settleQuietMs, woke);
      if (this.dirty.size === 0) return;
    }
  }

  /** Every page of one list, exactly as an inspection lists it (lib/mcp/list.ts): same rejects, same fingerprint. */
  private async listAll(list: SurfaceList): Promise<ListState> {
    const { items, rejects } = await listEveryPage(list, {
      guard: this.guard,
      limits: this.limits,
      request: (method, params) => this.guard.race(this.client.request({ method, params }, PageSchema, { timeout: this.limits.requestTimeoutMs })),
    });
    return { items, rejects };
  }

  private surface(): Surface {
    const rejects = SURFACE_LISTS.flatMap((l) => this.lists[l].rejects);
    return {
      instructions: this.instructions,
      tools: this.lists.tools.items as ToolItem[],
      resources: this.lists.resources.items as ResourceItem[],
      resourceTemplates: this.lists.resourceTemplates.items as ResourceTemplateItem[],
      prompts: this.lists.prompts.items,
      rejects: rejects.map((r) => ({ list: r.list, raw: r.raw })),
    };
  }

  /** The live surface as a snapshot, for comparePin. */
  private snapshot(): SurfaceSnapshot {
    const surface = this.surface();
    const fp = fingerprintSurface(surface);
    const zero = { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 };
    return {
      snapshotVersion: SURFACE_SNAPSHOT_VERSION,
      fingerprintVersion: 1,
      transport: this.opened?.kind ?? "stdio",
      serverInfo: this.serverInfo,
      protocolVersion: "unknown",
      capabilities: this.upstreamCaps,
      clientCapabilities: structuredClone(DECLARED_CLIENT_CAPABILITIES),
      declaredCapabilities: declaredCapabilityNames(DECLARED_CLIENT_CAPABILITIES),
      ...surface,
      rejects: SURFACE_LISTS.flatMap((l) => this.lists[l].rejects),
      surfaceSha256: fp.surfaceSha256,
      itemHashes: fp.itemHashes,
      settle: { listChangedNotifications: 0, relists: zero, pages: zero },
      inspectedAt: new Date().toISOString(),
      durationMs: 0,
      limits: this.limits,
    };
  }

  /** What the client may see: the checked surface, filtered to the record. */
  private refreshVisible(): void {
    const p = this.policy;
    this.visible = {
      tools: (this.lists.tools.items as ToolItem[]).filter((t) => p.tools.has(t.name)),
      resources: (this.lists.resources.items as ResourceItem[]).filter((r) => p.resources.has(r.uri)),
      resourceTemplates: (this.lists.resourceTemplates.items as ResourceTemplateItem[]).filter((t) => p.resourceTemplates.includes(t.uriTemplate)),
      prompts: (this.lists.prompts.items as PromptItem[]).filter((x) => p.prompts.has(x.name)),
    };
    this.visibleToolNames = new Set(this.visible.tools.map((t) => t.name));
  }
  private visibleToolNames = new Set<string>();

  // ---------------------------------------------------------------- surface changes while relaying

  private onListChanged(lists: SurfaceList[]): void {
    for (const l of lists) this.dirty.add(l);
    if (this.isStarting) {
      this.wakeStart();
      return;
    }
    this.pendingCheck ??= this.recheck().finally(() => {
      this.pendingCheck = null;
    });
  }

  private async recheck(): Promise<void> {
    await new Promise((r) => setTimeout(r, SETTLE_DEBOUNCE_MS));
    const lists = this.advertised().filter((l) => this.dirty.has(l));
    this.dirty.clear();
    const p = this.policy;
    try {
      for (const list of lists) this.lists[list] = await this.listAll(list);
    } catch (error) {
      this.stop(p.surfaceSha256, "unknown", `the server announced a surface change and the re-list failed (${errorText(error)}); the gate stopped forwarding`);
      return;
    }
    const actual = fingerprintSurface(this.surface()).surfaceSha256;
    if (actual === p.surfaceSha256) {
      this.refreshVisible();
      return;
    }
    if (p.onSurfaceChange === "warn") {
      this.options.onEvent({ event: "surface_changed", server: p.serverName, decision: p.decisionId, expected: p.surfaceSha256, actual, on_surface_change: "warn" });
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
    this.stopped = new GateError(GATE_ERROR.SURFACE_CHANGED, message, { reason: "surface_changed", expected, actual });
    const p = this.policy;
    this.options.onEvent({ event: "surface_changed", server: p.serverName, decision: p.decisionId, expected, actual, on_surface_change: "block" });
    for (const d of this.downstreams) {
      if (d.server.getClientCapabilities() && this.upstreamCaps.tools) void d.server.sendToolListChanged().catch(() => {}); // best effort: the client re-lists and sees the error
    }
  }

  // ---------------------------------------------------------------- serving

  private primaryClientWithRoots(): Server | null {
    let last: Server | null = null;
    for (const d of this.downstreams) if (d.server.getClientCapabilities()?.roots) last = d.server;
    return last;
  }

  private capabilities(): ServerCapabilities {
    const c = this.upstreamCaps as Record<string, Record<string, unknown> | undefined>;
    const caps: ServerCapabilities = {};
    if (c.tools) caps.tools = { listChanged: true };
    if (c.resources) caps.resources = { listChanged: true, ...(c.resources.subscribe === true ? { subscribe: true } : {}) };
    if (c.prompts) caps.prompts = { listChanged: true };
    if (c.logging) caps.logging = {};
    if (c.completions) caps.completions = {};
    return caps;
  }

  /** A downstream MCP server wired to this gate; connect it to any server transport. */
  createServer(): Server {
    const server = new Server(this.serverInfo, {
      capabilities: this.capabilities(),
      ...(this.instructions !== null ? { instructions: this.instructions } : {}),
    });
    // Every request except initialize/ping/logging comes here unparsed: the name check is the only check.
    server.fallbackRequestHandler = (request, extra) => this.handle(request, extra);
    return server;
  }

  private refuse(method: string, target: string, what: string): GateError {
    const p = this.policy;
    if (method === "tools/call") this.options.onEvent({ event: "refused_call", tool: target, server: p.serverName, decision: p.decisionId });
    else this.options.onEvent({ event: "refused_request", method, target, server: p.serverName, decision: p.decisionId });
    return new GateError(
      GATE_ERROR.NOT_APPROVED,
      `relay-review gate: ${what} ${JSON.stringify(target)} is not approved for ${p.agentName} by decision ${p.decisionId} (${p.serverName})`,
      { reason: "not_approved", decision: p.decisionId, ...(method === "tools/call" ? { approvedTools: [...this.visibleToolNames] } : {}) },
    );
  }

  private isResourceApproved(uri: string): boolean {
    return this.policy.resources.has(uri) || this.templates.some((t) => t.match(uri) !== null);
  }

  private async handle(
    request: JSONRPCRequest,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<Record<string, unknown>> {
    if (this.pendingCheck) await this.pendingCheck;
    if (this.stopped) throw this.stopped;
    const params = (request.params ?? {}) as Record<string, unknown>;
    switch (request.method) {
      case "tools/list":
        return { tools: this.visible.tools };
      case "resources/list":
        return { resources: this.visible.resources };
      case "resources/templates/list":
        return { resourceTemplates: this.visible.resourceTemplates };
      case "prompts/list":
        return { prompts: this.visible.prompts };
      case "tools/call": {
        const name = params.name;
        if (typeof name !== "string" || !this.visibleToolNames.has(name)) throw this.refuse("tools/call", String(name), "tool");
        return this.forward(request, extra);
      }
      case "resources/read":
      case "resources/subscribe":
      case "resources/unsubscribe": {
        const uri = params.uri;
        if (typeof uri !== "string" || !this.isResourceApproved(uri)) throw this.refuse(request.method, String(uri), "resource");
        return this.forward(request, extra);
      }
      case "prompts/get": {
        const name = params.name;
        if (typeof name !== "string" || !this.policy.prompts.has(name)) throw this.refuse(request.method, String(name), "prompt");
        return this.forward(request, extra);
      }
      case "completion/complete": {
        const ref = (params.ref ?? {}) as Record<string, unknown>;
        const ok =
          (ref.type === "ref/prompt" && typeof ref.name === "string" && this.policy.prompts.has(ref.name)) ||
          (ref.type === "ref/resource" && typeof ref.uri === "string" && (this.policy.resourceTemplates.includes(ref.uri) || this.policy.resources.has(ref.uri)));
        if (!ok) throw this.refuse(request.method, JSON.stringify(ref), "completion reference");
        return this.forward(request, extra);
      }
      default:
        throw new GateError(ErrorCode.MethodNotFound, `Method not found: the relay-review gate does not forward ${request.method}`);
    }
  }

  private async forward(request: JSONRPCRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>): Promise<Record<string, unknown>> {
    const progressToken = extra._meta?.progressToken;
    try {
      return await this.client.request({ method: request.method, params: request.params }, PassthroughSchema, {
        signal: extra.signal,
        timeout: this.options.callTimeoutMs ?? GATE_CALL_TIMEOUT_MS,
        resetTimeoutOnProgress: true,
        ...(progressToken !== undefined
          ? { onprogress: (p) => void extra.sendNotification({ method: "notifications/progress", params: { ...p, progressToken } }).catch(() => {}) }
          : {}),
      });
    } catch (error) {
      throw relayError(error);
    }
  }

  private async relayNotification(n: { method: string; params?: Record<string, unknown> }): Promise<void> {
    if (this.stopped) return;
    if (n.method === "notifications/resources/updated") {
      const uri = n.params?.uri;
      if (typeof uri !== "string" || !this.isResourceApproved(uri)) return;
    } else if (n.method !== "notifications/message") return;
    await Promise.all([...this.downstreams].map((d) => d.server.notification(n as ServerNotification).catch(() => {})));
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

  /** Serve one client over this process's stdin/stdout; resolves when either side goes away. */
  async serveStdio(): Promise<void> {
    const server = this.createServer();
    const transport = new StdioServerTransport();
    let onClosed: () => void = () => {};
    const ended = new Promise<void>((resolve) => {
      onClosed = resolve;
      process.stdin.once("end", resolve);
      process.stdin.once("close", resolve);
    });
    this.track(server, () => server.close(), onClosed);
    await server.connect(transport);
    await Promise.race([ended, this.upstreamClosed]);
  }

  /**
   * Serve Streamable HTTP on 127.0.0.1:`port` at /mcp, one session per client. Host headers other
   * than the loopback names are refused (DNS rebinding); with `token`, every request needs
   * `Authorization: Bearer <token>`.
   */
  async listen(port: number, token: string | null = null): Promise<{ url: string; close: () => Promise<void> }> {
    const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: Server }>();
    let allowedHosts: string[] = [];
    const expected = token === null ? null : Buffer.from(`Bearer ${token}`);
    const isAuthorized = (req: IncomingMessage) => {
      if (expected === null) return true;
      const got = Buffer.from(req.headers.authorization ?? "");
      return got.length === expected.length && timingSafeEqual(got, expected);
    };
    const reply = (res: ServerResponse, status: number, message: string) =>
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
    const http = createHttpServer((req, res) => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname !== "/mcp") return void reply(res, 404, "not found: the gate serves /mcp");
      if (!isAuthorized(req)) return void reply(res, 401, "unauthorized: this gate needs Authorization: Bearer <token>");
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
      if (req.method !== "POST") return void reply(res, 400, "a new session starts with an initialize POST");
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
        .then(() => transport.handleRequest(req, res))
        .catch(() => {
          if (!res.headersSent) reply(res, 500, "the gate failed to start a session");
        });
    });
    await new Promise<void>((resolve, reject) => {
      http.once("error", reject);
      http.listen(port, "127.0.0.1", () => resolve());
    });
    const actual = (http.address() as AddressInfo).port;
    allowedHosts = [`127.0.0.1:${actual}`, `localhost:${actual}`];
    return {
      url: `http://127.0.0.1:${actual}/mcp`,
      close: async () => {
        await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
        await new Promise<void>((r) => http.close(() => r()));
      },
    };
  }

  /** Close the downstream sessions and the upstream (a stdio server's whole process group). Idempotent; never rejects. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.downstreams].map((d) => d.close().catch(() => {})));
      this.downstreams.clear();
      await this.client.close().catch(() => {});
      await this.opened?.close?.().catch(() => {});
      this.resolveUpstreamClosed();
    })();
    return this.closing;
  }
}

function emptyLists(): Lists {
  return { tools: { items: [], rejects: [] }, resources: { items: [], rejects: [] }, resourceTemplates: { items: [], rejects: [] }, prompts: { items: [], rejects: [] } };
}

const LIST_LABEL: Record<SurfaceList, string> = { tools: "tool", resources: "resource", resourceTemplates: "resource template", prompts: "prompt" };

/**
 * The difference at startup, from the record's names and per-item hashes: the record carries
 * hashes, not the reviewed text, so a changed item is shown with its live text (what the gate
 * refused to relay), next to the hash it should have had.
 */
export function formatMismatch(cmp: Extract<PinComparison, { status: "mismatch" }>, live: SurfaceSnapshot): string {
  const lines = [`surface_sha256 expected ${cmp.expected}`, `surface_sha256 live     ${cmp.actual}`];
  const n = cmp.names;
  if (!n) return lines.join("\n");
  const find = (list: SurfaceList, key: string) => (live[list] as DomainItem[]).find((i) => itemKey(list, i) === key);
  const text = (item: DomainItem | undefined) => {
    if (!item) return [];
    const i = item as Record<string, unknown>;
    return (["title", "description"] as const).filter((f) => typeof i[f] === "string").map((f) => `    live ${f}: ${JSON.stringify(i[f])}`);
  };
  for (const a of n.added) lines.push(`+ ${LIST_LABEL[a.list]} ${JSON.stringify(a.key)} (not in the record)`, ...text(find(a.list, a.key)));
  for (const r of n.removed) lines.push(`- ${LIST_LABEL[r.list]} ${JSON.stringify(r.key)} (in the record, gone from the server)`);
  for (const c of n.changed) lines.push(`~ ${LIST_LABEL[c.list]} ${JSON.stringify(c.key)}: changed since review (item hash differs)`, ...text(find(c.list, c.key)));
  if (n.instructionsChanged) lines.push(`~ instructions changed`, `    live: ${JSON.stringify(live.instructions)}`);
  return lines.join("\n");
}
