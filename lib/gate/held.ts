/**
 * Results the gate held back in `--content-scan hold` mode (issue 31 item 2), kept so that a
 * reviewer can release one. The agent got a notice naming the held result's id instead; once a
 * reviewer releases that id (through the workbench, which the gate's reporter asks, or
 * `gate.release(id)`), the agent's next identical request (same method and arguments) is answered
 * with exactly the result that was held — the bytes the detector and the reviewer saw, not what the
 * server says now. Bounded: at most MAX_HELD results and MAX_HELD_CHARS of their JSON; the oldest
 * goes first, and a released result is handed out once, then forgotten.
 */
import { canonicalJson } from "@/lib/hash";

export const MAX_HELD = 64;
export const MAX_HELD_CHARS = 4 * 1024 * 1024;

type Held = {
  id: string;
  key: string;
  result: Record<string, unknown>;
  chars: number;
  released: boolean;
};

/** The request a result answers: its method and its arguments without the JSON-RPC envelope. */
export function requestKey(method: string, params: unknown): string {
  const p = { ...((params ?? {}) as Record<string, unknown>) };
  delete p._meta;
  let args: string;
  try {
    args = canonicalJson(p);
  } catch {
    args = JSON.stringify(p); // a lone surrogate: still one stable text per request
  }
  return `${method}\u0000${args}`;
}

export class HeldResults {
  private readonly held = new Map<string, Held>();
  private chars = 0;

  /** Keeps a held result under its id. A result too large to keep can still be seen, not released. */
  keep(id: string, method: string, params: unknown, result: Record<string, unknown>): boolean {
    const chars = JSON.stringify(result).length;
    if (chars > MAX_HELD_CHARS) return false;
    while (this.held.size >= MAX_HELD || this.chars + chars > MAX_HELD_CHARS) {
      const oldest = this.held.values().next().value;
      if (!oldest) break;
      this.forget(oldest);
    }
    this.held.set(id, { id, key: requestKey(method, params), result, chars, released: false });
    this.chars += chars;
    return true;
  }

  /** Marks a held result released; false when the gate no longer holds it (evicted or handed out). */
  release(id: string): boolean {
    const h = this.held.get(id);
    if (!h) return false;
    h.released = true;
    return true;
  }

  /** The released result answering this request, handed out once; null when there is none. */
  take(method: string, params: unknown): { id: string; result: Record<string, unknown> } | null {
    const key = requestKey(method, params);
    for (const h of this.held.values())
      if (h.released && h.key === key) {
        this.forget(h);
        return { id: h.id, result: h.result };
      }
    return null;
  }

  /** The ids still held and not yet released (what the reporter asks the workbench about). */
  pending(): string[] {
    return [...this.held.values()].filter((h) => !h.released).map((h) => h.id);
  }

  private forget(h: Held): void {
    this.held.delete(h.id);
    this.chars -= h.chars;
  }
}
