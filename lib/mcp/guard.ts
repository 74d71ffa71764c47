/**
 * One inspection's bounds, enforced in one place. The first tripped limit wins: it is recorded,
 * the abort signal fires, and the transport is closed (killing a stdio server's process group),
 * so nothing the server does afterwards can stall or grow the inspection. Every await on the
 * server goes through `race`, so no await outlives a trip.
 */
import type { InspectError } from "@/lib/mcp/types";
import type { InspectLimitName, InspectLimits } from "@/lib/surface/limits";

export class GuardTripped extends Error {
  constructor(readonly error: InspectError) {
    super(error.message);
    this.name = "GuardTripped";
  }
}

export class InspectionGuard {
  readonly limits: InspectLimits;
  private readonly controller = new AbortController();
  private tripped: InspectError | null = null;
  private readonly onTrip: (() => void)[] = [];
  private rejectTripped!: (e: GuardTripped) => void;
  private readonly trippedPromise: Promise<never>;
  bytes = 0;
  invalidMessages = 0;
  lastInvalidSample = "";

  constructor(limits: InspectLimits) {
    this.limits = limits;
    this.trippedPromise = new Promise<never>((_, reject) => {
      this.rejectTripped = reject;
    });
    this.trippedPromise.catch(() => {}); // observed through race(); never an unhandled rejection
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }
  get error(): InspectError | null {
    return this.tripped;
  }

  /** Record the first failure, abort, and run the close hooks. Later trips are ignored. */
  trip(error: InspectError): void {
    if (this.tripped) return;
    this.tripped = error;
    this.controller.abort(new GuardTripped(error));
    this.rejectTripped(new GuardTripped(error));
    for (const hook of this.onTrip.splice(0)) {
      try {
        hook();
      } catch {
        // closing is best effort; the error is already recorded
      }
    }
  }

  tripLimit(limit: InspectLimitName, message: string): void {
    this.trip({
      code: "limit_exceeded",
      limit,
      message: `${message} (limit ${limit}=${this.limits[limit]}; raise it to allow more)`,
    });
  }

  whenTripped(hook: () => void): void {
    if (this.tripped) hook();
    else this.onTrip.push(hook);
  }

  /** Count bytes received; false (and tripped) once over `totalBytes`. */
  addBytes(n: number): boolean {
    if (this.tripped) return false;
    this.bytes += n;
    if (this.bytes > this.limits.totalBytes) {
      this.tripLimit("totalBytes", `the server sent more than ${this.limits.totalBytes} bytes`);
      return false;
    }
    return true;
  }

  /** Count a line or message that is not JSON-RPC; false (and tripped) once over the limit. */
  addInvalid(sample: string): boolean {
    if (this.tripped) return false;
    this.invalidMessages++;
    this.lastInvalidSample = sample.slice(0, 120);
    if (this.invalidMessages > this.limits.invalidMessages) {
      this.tripLimit(
        "invalidMessages",
        `the server wrote ${this.invalidMessages} lines that are not JSON-RPC messages (last: ${JSON.stringify(this.lastInvalidSample)})`,
      );
      return false;
    }
    return true;
  }

  /** Await `p`, or throw `GuardTripped` as soon as any limit trips. */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.tripped) {
      p.catch(() => {});
      return Promise.reject(new GuardTripped(this.tripped));
    }
    return Promise.race([p, this.trippedPromise]);
  }

  /** Trip `limit` unless `p` settles within `ms`. */
  async within<T>(p: Promise<T>, ms: number, limit: InspectLimitName, what: string): Promise<T> {
    const timer = setTimeout(
      () => this.tripLimit(limit, `${what} did not finish within ${ms} ms`),
      ms,
    );
    try {
      return await this.race(p);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Sleep `ms`, cut short by a trip or by `wake` resolving. */
  async sleep(ms: number, wake?: Promise<void>): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const done = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    try {
      await this.race(wake ? Promise.race([done, wake]) : done);
    } finally {
      clearTimeout(timer);
    }
  }
}
