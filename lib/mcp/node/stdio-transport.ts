import "server-only";
/**
 * stdio transport for inspections, in place of the SDK's StdioClientTransport, for three
 * reasons: (1) bytes are counted as they arrive, before any buffering, so a flood or an endless
 * line trips `totalBytes` instead of growing memory; (2) non-JSON-RPC lines are counted against
 * `invalidMessages` instead of only reaching `onerror`; (3) the server runs in its own process
 * group (`detached`), and close kills the whole group, so `npx`-style wrappers leave no
 * grandchildren behind. Framing is the SDK's (newline-delimited JSON-RPC, `serializeMessage`).
 */
import type { ChildProcess } from "node:child_process";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { InspectionGuard } from "@/lib/mcp/guard";
import { spawnStdioServer, type StdioSpawnParams } from "@/lib/sandbox/node/spawn";
import { MAX_TRACE_BYTES } from "@/lib/sandbox/plan";
import type { ExitInfo } from "@/lib/mcp/session";

/** After stdin closes, how long a well-behaved server gets to exit before SIGTERM, then SIGKILL. */
export const STDIO_CLOSE_GRACE_MS = 250;
export const STDIO_TERM_GRACE_MS = 1_000;
const STDERR_TAIL_BYTES = 4_096;
/**
 * The longest line (one JSON-RPC message) read from a stdio peer: the server here, the agent's
 * client in the gate. While the surface is read `totalBytes` bounds everything; once a gate relays,
 * byte counting stops, and without this an endless line would grow memory until the host gives out.
 * 32 MiB: a large tool result (a base64 image, a long document) fits; more fails closed.
 */
export const MAX_STDIO_LINE_BYTES = 32 * 1024 * 1024;

export type StdioParams = {
  command: string;
  args: string[];
  /** Extra variables on top of the default environment. */
  env?: Record<string, string>;
  cwd?: string;
  /** A child already started with `spawnStdioServer` for these params (the CLI starts it early). */
  child?: ChildProcess;
  sandboxed?: StdioSpawnParams["sandboxed"];
  /** Awaited before the child is spawned (a sandbox's egress proxy must listen first); a rejection fails start. */
  beforeSpawn?: () => Promise<void>;
};

/** The error for a peer's line past MAX_STDIO_LINE_BYTES (`who`: "the server", "the agent's client"). */
export function lineTooLong(who: string, bytes: number): string {
  return `${who} sent more than ${MAX_STDIO_LINE_BYTES} bytes without a newline (${bytes} bytes of one message; bound MAX_STDIO_LINE_BYTES); the connection was closed`;
}

export class GuardedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | null = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private stderrTail = "";
  private trace: Buffer[] = [];
  private traceBytes = 0;
  private traceTruncated = false;
  private exit: { code: number | null; signal: string | null } | null = null;
  private closed: Promise<void> | null = null;
  private exited!: Promise<void>;

  constructor(
    private readonly params: StdioParams,
    private readonly guard: InspectionGuard,
  ) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  async start(): Promise<void> {
    await this.params.beforeSpawn?.();
    return this.spawnChild();
  }

  private spawnChild(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = this.params.child ?? spawnStdioServer(this.params);
      this.child = child;
      if (child.exitCode !== null || child.signalCode !== null) {
        // an adopted child that died before we attached: its close event has come and gone
        this.exit = { code: child.exitCode, signal: child.signalCode };
        this.exited = Promise.resolve();
        reject(
          new Error(
            `the server exited (${child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode}) before the inspection connected`,
          ),
        );
        return;
      }
      this.exited = new Promise<void>((done) => child.once("close", () => done()));
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      if (child.pid !== undefined && this.params.child) resolve();
      else child.once("spawn", () => resolve());
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
      });
      child.once("close", (code, signal) => {
        this.exit ??= { code, signal };
        this.onclose?.();
      });
      child.stdin?.on("error", () => {
        // EPIPE when the server has gone; the close path reports it
      });
      child.stdout?.on("data", (chunk: Buffer) => this.onData(chunk));
      const traced = this.params.sandboxed?.traced === true;
      // Traced: fd 2 is strace's record (kept up to MAX_TRACE_BYTES, the rest drained), fd 3 the server's stderr.
      const stderr = traced
        ? (child.stdio[3] as NodeJS.ReadableStream | null | undefined)
        : child.stderr;
      stderr?.on("data", (chunk: Buffer) => {
        this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
      });
      if (traced) {
        child.stderr?.on("data", (chunk: Buffer) => {
          if (this.traceBytes >= MAX_TRACE_BYTES) {
            this.traceTruncated = true;
            return;
          }
          const piece = chunk.subarray(0, MAX_TRACE_BYTES - this.traceBytes);
          if (piece.length < chunk.length) this.traceTruncated = true;
          this.trace.push(piece);
          this.traceBytes += piece.length;
        });
      }
    });
  }

  private onData(chunk: Buffer): void {
    if (!this.guard.addBytes(chunk.length)) return;
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl !== -1; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      from = nl + 1;
      this.onLine(line.toString("utf8").replace(/\r$/, ""));
      if (this.guard.error) return;
    }
    if (from < chunk.length) {
      this.pending.push(chunk.subarray(from));
      this.pendingBytes += chunk.length - from;
      if (this.pendingBytes > MAX_STDIO_LINE_BYTES) {
        this.pending = [];
        this.guard.trip({
          code: "protocol_error",
          message: lineTooLong("the server", this.pendingBytes),
        });
      }
    }
  }

  private onLine(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(line));
    } catch {
      this.guard.addInvalid(line);
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.exit) {
        reject(new Error("Not connected"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  exitInfo(): ExitInfo | null {
    if (!this.exit) return null;
    return {
      exitCode: this.exit.code,
      signal: this.exit.signal,
      stderrTail: this.stderrTail,
      pendingBytes: this.pendingBytes,
    };
  }
  getStderrTail(): string {
    return this.stderrTail;
  }
  /** strace's record of a traced sandboxed run, complete once close() has resolved. */
  getTrace(): { text: string; truncated: boolean } {
    return { text: Buffer.concat(this.trace).toString("utf8"), truncated: this.traceTruncated };
  }

  private killGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (!pid) return;
    try {
      if (process.platform === "win32") this.child?.kill(signal);
      else process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone
    }
  }

  /**
   * Close stdin, give the server a moment to exit, then SIGTERM and SIGKILL its process group.
   * With `force` (a tripped limit) the group is killed at once. Idempotent.
   */
  close(force = false): Promise<void> {
    if (force && this.child && !this.exit) this.killGroup("SIGKILL");
    this.closed ??= this.doClose(force);
    return this.closed;
  }

  private async doClose(force: boolean): Promise<void> {
    const child = this.child;
    if (!child) return;
    const waitExit = (ms: number) =>
      Promise.race([this.exited, new Promise<void>((r) => setTimeout(r, ms).unref())]).then(
        () => this.exit !== null,
      );
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    if (!this.exit && !force && !(await waitExit(STDIO_CLOSE_GRACE_MS))) {
      this.killGroup("SIGTERM");
      if (!(await waitExit(STDIO_TERM_GRACE_MS))) this.killGroup("SIGKILL");
    } else if (!this.exit) {
      this.killGroup("SIGKILL");
    }
    await waitExit(STDIO_TERM_GRACE_MS);
    // The leader may be gone while children it started still run in the group.
    this.killGroup("SIGKILL");
    child.stdout?.destroy();
    child.stderr?.destroy();
    (child.stdio[3] as { destroy?: () => void } | null | undefined)?.destroy?.();
    this.pending = [];
  }
}
