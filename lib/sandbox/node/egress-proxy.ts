import "server-only";
/**
 * The workbench's egress proxy for one sandboxed run: an HTTP proxy (CONNECT, and absolute-URI
 * plain HTTP) listening on a unix socket that is bound into the sandbox, where socat bridges it to
 * the sandbox's loopback (lib/sandbox/plan.ts forwarderScript). It runs outside the sandbox,
 * so the server can neither read nor forge its record. Each request is decided against the
 * launcher's grants (lib/sandbox/egress.ts decideEgress), connected to the very address that
 * was checked, and recorded, allowed or refused. Everything the server drives is bounded by the
 * named EgressLimits: connections at once, requests, bytes, idle time, the time to decide.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { chmodSync, chownSync, mkdirSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import {
  MAX_PROXY_HEAD_BYTES,
  decideEgress,
  egressReport,
  logEgressAttempt,
  newEgressLog,
  parseEgressGrants,
  parseProxyHead,
  recheckConnectAddress,
  type EgressAttempt,
  type EgressLimits,
  type EgressLog,
  type EgressReport,
  type LookupAll,
  type ProxyRequest,
} from "@/lib/sandbox/egress";
import type { SandboxEgress } from "@/lib/sandbox/plan";

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  403: "Forbidden",
  429: "Too Many Requests",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** How long close() waits for open connections to end and be recorded. */
const CLOSE_BOUND_MS = 2_000;

export const systemLookup: LookupAll = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

export type EgressProxyOptions = SandboxEgress & {
  /** Owner of the socket: the sandbox's host uid/gid when the workbench runs as root. */
  uid?: number;
  gid?: number;
  lookup?: LookupAll;
};

type Attempt = Omit<EgressAttempt, "count">;

export class EgressProxy {
  private server: Server | null = null;
  /** Every socket of the proxy's (client and upstream sides), with the promise of its close. */
  private readonly sockets = new Map<Socket, Promise<void>>();
  private readonly log: EgressLog = newEgressLog();
  private readonly grants;
  private readonly limits: EgressLimits;
  private readonly lookup: LookupAll;
  private active = 0;
  private requests = 0;
  private bytes = 0;
  private closed: Promise<void> | null = null;

  constructor(private readonly options: EgressProxyOptions) {
    this.grants = parseEgressGrants(options.grants);
    this.limits = options.limits;
    this.lookup = options.lookup ?? systemLookup;
  }

  /** Create the socket's private directory and listen; resolves once the socket accepts. */
  async start(): Promise<void> {
    const dir = path.dirname(this.options.socket);
    // A fresh directory (mkdir fails if anyone made it first); traversable, not listable.
    mkdirSync(dir, { mode: 0o711 });
    chmodSync(dir, 0o711);
    const server = createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.options.socket, () => {
        server.off("error", reject);
        try {
          if (this.options.uid !== undefined)
            chownSync(this.options.socket, this.options.uid, this.options.gid ?? this.options.uid);
          chmodSync(this.options.socket, 0o600);
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        resolve();
      });
    });
  }

  /** Stop listening, end every connection (each is recorded as it ends), remove the socket. Idempotent. */
  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    const server = this.server;
    // Stop accepting, then end what is open and wait (bounded) until each side has closed and
    // so has been recorded.
    const stopped = server?.listening
      ? new Promise<void>((r) => server.close(() => r()))
      : Promise.resolve();
    const ends = [...this.sockets.values()];
    for (const s of this.sockets.keys()) s.destroy();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      Promise.all([stopped, ...ends]),
      new Promise<void>((r) => {
        timer = setTimeout(r, CLOSE_BOUND_MS);
      }),
    ]);
    clearTimeout(timer);
    rmSync(path.dirname(this.options.socket), { recursive: true, force: true });
  }

  /** Every request so far; complete once close() has resolved. */
  report(): EgressReport {
    return egressReport(this.log, this.options.grants, this.limits);
  }

  private track(socket: Socket): void {
    this.sockets.set(
      socket,
      new Promise<void>((resolve) =>
        socket.once("close", () => {
          this.sockets.delete(socket);
          resolve();
        }),
      ),
    );
    socket.on("error", () => {
      // ECONNRESET and the like: the close handler records the end
    });
  }

  private accept(client: Socket): void {
    this.track(client);
    if (this.closed) {
      client.destroy();
      return;
    }
    this.requests++;
    if (this.requests > this.limits.requests) {
      this.refuse(
        client,
        429,
        { via: "?", target: "?" },
        `the run's limit of ${this.limits.requests} requests (egressLimits.requests) was reached`,
      );
      return;
    }
    if (this.active >= this.limits.connections) {
      this.refuse(
        client,
        503,
        { via: "?", target: "?" },
        `${this.limits.connections} connections were already open (egressLimits.connections)`,
      );
      return;
    }
    this.active++;
    client.once("close", () => this.active--);
    this.readHead(client);
  }

  /** Read up to the blank line, bounded in bytes and time, then decide. */
  private readHead(client: Socket): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(
      () =>
        this.refuse(
          client,
          400,
          { via: "?", target: "?" },
          `no complete request head within ${this.limits.connectSeconds} s (egressLimits.connectSeconds)`,
        ),
      this.limits.connectSeconds * 1000,
    );
    timer.unref();
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const all = Buffer.concat(chunks);
      const end = all.indexOf("\r\n\r\n");
      if (end === -1 && size <= MAX_PROXY_HEAD_BYTES) return;
      client.off("data", onData);
      client.pause();
      clearTimeout(timer);
      if (end === -1 || end > MAX_PROXY_HEAD_BYTES) {
        this.refuse(
          client,
          400,
          { via: "?", target: "?" },
          `the request head is longer than ${MAX_PROXY_HEAD_BYTES} bytes`,
        );
        return;
      }
      const parsed = parseProxyHead(all.subarray(0, end).toString("latin1"));
      if (!parsed.ok) {
        this.refuse(client, 400, { via: "?", target: parsed.target }, parsed.reason);
        return;
      }
      void this.forward(client, parsed.request, all.subarray(end + 4)); // never rejects: every failure is recorded
    };
    client.on("data", onData);
    client.once("close", () => clearTimeout(timer));
  }

  private async forward(client: Socket, request: ProxyRequest, rest: Buffer): Promise<void> {
    const via = request.kind === "connect" ? "CONNECT" : request.method;
    const what = { via, target: request.target };
    const deadline = this.limits.connectSeconds * 1000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const decision = await Promise.race([
      decideEgress(request, this.grants, this.lookup),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), deadline);
      }),
    ]).catch((error: unknown) => ({
      ok: false as const,
      reason: `the decision failed: ${error instanceof Error ? error.message : String(error)}`,
      status: 502 as const,
    }));
    clearTimeout(timer);
    if (client.destroyed) return;
    if (decision === null) {
      this.refuse(
        client,
        504,
        what,
        `the name was not resolved within ${this.limits.connectSeconds} s`,
      );
      return;
    }
    if (!decision.ok) {
      this.refuse(client, decision.status, what, decision.reason);
      return;
    }
    // The address about to be connected to, checked again by the same rule: a decision that
    // ever handed back an address it did not check is refused here, not connected.
    const again = recheckConnectAddress(request, decision.address, this.grants);
    if (again) {
      this.refuse(client, 403, what, again);
      return;
    }
    const allowed = {
      ...what,
      decision: "allowed" as const,
      reason: `granted by ${decision.grant}`,
    };
    const upstream = connect({ host: decision.address, port: request.port });
    this.track(upstream);
    let sent = 0;
    let received = 0;
    let outcome: string | null = null;
    let isOpen = false;
    const end = (why: string) => {
      outcome ??= why;
      upstream.destroy();
      // Before the tunnel opened, the client is told why (a 502 naming the failure), not just cut.
      if (!isOpen && !client.destroyed && client.writable) {
        isOpen = true;
        this.answer(
          client,
          502,
          `the connection to ${decision.address}:${request.port} failed: ${why}`,
        );
      } else client.destroy();
    };
    const connectTimer = setTimeout(
      () => end(`no connection within ${this.limits.connectSeconds} s`),
      deadline,
    );
    connectTimer.unref();
    upstream.once("error", (e: NodeJS.ErrnoException) => end(e.code ?? e.message));
    client.once("error", (e: NodeJS.ErrnoException) => end(e.code ?? e.message));
    // Recorded once both sides are down, with the bytes each way and how it ended.
    let down = 0;
    const onDown = () => {
      end("closed");
      if (++down < 2) return;
      clearTimeout(connectTimer);
      this.record({
        ...allowed,
        address: decision.address,
        outcome: outcome ?? "closed",
        bytesSent: sent,
        bytesReceived: received,
      });
    };
    client.once("close", onDown);
    upstream.once("close", onDown);
    upstream.once("connect", () => {
      // And once more on the peer the kernel actually connected to.
      const peer = upstream.remoteAddress ?? "";
      const wrong = recheckConnectAddress(request, peer, this.grants);
      if (wrong) {
        end(`refused after connecting: ${wrong}`);
        return;
      }
      isOpen = true;
      clearTimeout(connectTimer);
      const idle = this.limits.idleSeconds * 1000;
      for (const s of [client, upstream])
        s.setTimeout(idle, () =>
          end(`idle for ${this.limits.idleSeconds} s (egressLimits.idleSeconds)`),
        );
      const count = (n: number): boolean => {
        this.bytes += n;
        if (this.bytes <= this.limits.totalMiB * 1024 * 1024) return true;
        end(`the run's ${this.limits.totalMiB} MiB (egressLimits.totalMiB) were used up`);
        return false;
      };
      const head = request.kind === "connect" ? null : Buffer.from(request.upstreamHead, "latin1");
      if (request.kind === "connect") client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      for (const piece of [head, rest]) {
        if (!piece?.length) continue;
        sent += piece.length;
        if (!count(piece.length)) return;
        upstream.write(piece);
      }
      client.on("data", (chunk: Buffer) => {
        sent += chunk.length;
        if (count(chunk.length) && !upstream.write(chunk)) client.pause();
      });
      upstream.on("drain", () => client.resume());
      upstream.on("data", (chunk: Buffer) => {
        received += chunk.length;
        if (count(chunk.length) && !client.write(chunk)) upstream.pause();
      });
      client.on("drain", () => upstream.resume());
      client.once("end", () => upstream.end());
      upstream.once("end", () => client.end());
      client.resume();
    });
  }

  private refuse(
    client: Socket,
    status: number,
    what: Pick<Attempt, "via" | "target">,
    reason: string,
  ): void {
    this.record({ ...what, decision: "refused", reason, bytesSent: 0, bytesReceived: 0 });
    this.answer(client, status, `relay-review egress refused: ${reason}`);
  }

  /** A short plain-text answer, then the connection ends. */
  private answer(client: Socket, status: number, text: string): void {
    if (client.destroyed) return;
    const body = `${text}\n`;
    client.end(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? "Refused"}\r\n` +
        "Content-Type: text/plain; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "X-Relay-Review-Egress: refused\r\n" +
        "Connection: close\r\n\r\n" +
        body,
    );
    // A client that never reads the refusal is not waited for.
    setTimeout(() => client.destroy(), 1_000).unref();
  }

  private record(a: Attempt): void {
    logEgressAttempt(this.log, a);
  }
}
