/**
 * The gate's reports to the workbench (issue 31 items 1 and 2): every scanned result is counted per
 * server, and every `content.flagged` event is sent, to POST {workbench}/api/report/{token} under a
 * reporting token (which can add counts and flag events to one review and do nothing else). Sent
 * in batches every few seconds and at close; a failed batch is sent again as it was, under its
 * idempotency key (so a batch the workbench did count is not counted twice), and
 * what waits is bounded (flags beyond MAX_PENDING_FLAGS are dropped and counted as dropped).
 * Reporting never slows or stops a call: the gate's relay does not wait on it.
 */
import { randomBytes } from "node:crypto";
import type { ContentFlaggedEvent } from "@/lib/detection/gate-scan";

export const MAX_PENDING_FLAGS = 200;
export const DEFAULT_FLUSH_MS = 5_000;

export type ReporterOptions = {
  /** The workbench's base URL, e.g. http://127.0.0.1:3000 */
  url: string;
  token: string;
  /** The agent the gate serves: the record's agent name. */
  agent: string;
  flushMs?: number;
  /** Told when a send fails (the CLI writes it on stderr); never the token. */
  onError?: (message: string) => void;
  /** The ids of results the gate holds (hold mode): each report asks whether a reviewer released them. */
  held?: () => string[];
  /** Told of held ids a reviewer released in the workbench (the gate then releases them). */
  onReleased?: (ids: string[]) => void;
};

/** Held ids asked about per report (the gate holds at most 64: lib/gate/held.ts). */
export const MAX_HELD_ASKED = 64;

type Count = { source: string; agent: string; scanned: number; flagged: number };
/** One report as sent: a failed one is sent again as it was, under the same idempotency key. */
type Batch = { batch: string; counts: Count[]; flags: Flag[] };

type Flag = {
  id: string;
  agent: string;
  server: string;
  serverId?: string;
  method: string;
  tool: string;
  score: number;
  reasons: string[];
  excerpt: string;
  mode: string;
};

export class DetectionReporter {
  private counts = new Map<string, { scanned: number; flagged: number }>();
  private flags: Flag[] = [];
  /** The batch whose send failed: sent again, unchanged, before anything new (at most one). */
  private unsent: Batch | null = null;
  private dropped = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private sending: Promise<void> = Promise.resolve();
  private readonly endpoint: string;

  constructor(private readonly options: ReporterOptions) {
    const base = new URL(options.url);
    if (base.protocol !== "http:" && base.protocol !== "https:")
      throw new Error("--report-to must be an http(s) URL");
    this.endpoint = new URL(
      `api/report/${encodeURIComponent(options.token)}`,
      base.href.endsWith("/") ? base.href : `${base.href}/`,
    ).href;
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? DEFAULT_FLUSH_MS);
    this.timer.unref?.();
  }

  /** One scanned result, flagged or not. */
  scanned(server: string, event: ContentFlaggedEvent | null): void {
    const c = this.counts.get(server) ?? { scanned: 0, flagged: 0 };
    c.scanned++;
    if (event) c.flagged++;
    this.counts.set(server, c);
    if (!event) return;
    if (this.flags.length >= MAX_PENDING_FLAGS) {
      this.dropped++;
      return;
    }
    this.flags.push({
      // The event's own id: the workbench logs a retry once, and a held result is released by it.
      id: event.id,
      agent: this.options.agent.slice(0, 200),
      server: event.server.slice(0, 200),
      ...(event.serverId !== undefined ? { serverId: event.serverId.slice(0, 200) } : {}),
      method: event.method,
      tool: event.tool.slice(0, 200),
      score: event.score,
      reasons: event.reasons.slice(0, 20).map((r) => reasonText(r).slice(0, 300)),
      excerpt: event.excerpt.slice(0, 400),
      mode: event.mode,
    });
  }

  /** Sends what is pending (one send at a time); resolves when it is sent or has failed. */
  flush(): Promise<void> {
    this.sending = this.sending.then(() => this.sendPending());
    return this.sending;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  private async sendPending(): Promise<void> {
    // A batch the workbench may have counted (a timeout after it committed) is retried under its
    // own key, so it is counted once; what arrived meanwhile waits for the next batch.
    if (this.unsent) {
      if (!(await this.send(this.unsent))) return;
      this.unsent = null;
    }
    const held = (this.options.held?.() ?? []).slice(0, MAX_HELD_ASKED);
    if (this.counts.size === 0 && this.flags.length === 0 && held.length === 0) return;
    const batch: Batch = {
      batch: randomBytes(16).toString("base64url"),
      counts: [...this.counts.entries()].map(([source, c]) => ({
        source: source.slice(0, 200),
        agent: this.options.agent.slice(0, 200),
        ...c,
      })),
      flags: this.flags.splice(0, 200),
    };
    this.counts = new Map();
    if (!(await this.send(batch, held)) && (batch.counts.length || batch.flags.length))
      this.unsent = batch;
  }

  /** Sends one batch (and asks about held ids); false when it failed. */
  private async send(batch: Batch, held: string[] = []): Promise<boolean> {
    try {
      const response = await fetch(this.endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...batch, ...(held.length ? { held } : {}) }),
        signal: AbortSignal.timeout(10_000),
        redirect: "error",
      });
      if (!response.ok) throw new Error(`the workbench answered ${response.status}`);
      const answer = (await response.json().catch(() => ({}))) as { released?: unknown };
      const released = Array.isArray(answer.released)
        ? answer.released.filter((id): id is string => typeof id === "string" && held.includes(id))
        : [];
      if (released.length) this.options.onReleased?.(released);
      if (this.dropped) {
        this.options.onError?.(`${this.dropped} flagged results were not reported (queue full)`);
        this.dropped = 0;
      }
      return true;
    } catch (error) {
      this.options.onError?.(
        `cannot report to the workbench: ${error instanceof Error ? error.message : String(error)}`,
      );
      return false;
    }
  }
}

function reasonText(r: { signal: string; detail: string }): string {
  return `${r.signal}: ${r.detail}`;
}
