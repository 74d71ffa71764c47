import "server-only";
/**
 * The transport openers for a checked target (see resolve-target.ts for the workbench's allowlist
 * and egress checks), and the two ways in to the one upstream session (lib/mcp/session.ts):
 * `inspectServer`, the call route handlers and the CLI make, and `openServerSession`, the gate's.
 * Neither throws.
 */
import type { ChildProcess } from "node:child_process";
import { sseOpener, streamableHttpOpener } from "@/lib/mcp/http";
import { GuardedStdioTransport } from "@/lib/mcp/node/stdio-transport";
import {
  inspectWithOpeners,
  openUpstreamSession,
  type TransportOpener,
  type UpstreamSessionOptions,
  type UpstreamSessionResult,
} from "@/lib/mcp/session";
import type { InspectOptions, InspectResult, InspectTarget } from "@/lib/mcp/types";

export function stdioOpener(target: Extract<InspectTarget, { kind: "stdio" }>, child?: ChildProcess): TransportOpener {
  return {
    kind: "stdio",
    label: [target.command, ...target.args].join(" "),
    open: (guard) => {
      const t = new GuardedStdioTransport(
        {
          command: target.command,
          args: target.args,
          env: target.env ?? {},
          ...(target.cwd ? { cwd: target.cwd } : {}),
          ...(child ? { child } : {}),
        },
        guard,
      );
      return {
        kind: "stdio",
        transport: t,
        countsBytes: true,
        exitInfo: () => t.exitInfo(),
        stderrTail: () => t.getStderrTail(),
        close: () => t.close(guard.error !== null),
      };
    },
  };
}

export function openersFor(target: InspectTarget, child?: ChildProcess): TransportOpener[] {
  if (target.kind === "stdio") return [stdioOpener(target, child)];
  const opts = { headers: target.headers ?? {}, egress: target.egress ?? null, ...(target.fetch ? { fetch: target.fetch } : {}) };
  switch (target.mode ?? "auto") {
    case "streamable-http":
      return [streamableHttpOpener(target.url, opts)];
    case "sse":
      return [sseOpener(target.url, opts)];
    default:
      return [streamableHttpOpener(target.url, opts), sseOpener(target.url, opts)];
  }
}

/**
 * Inspect a server's live surface, bounded by `options.limits`. Never throws. `prespawned` is a
 * child already started for this stdio target with `spawnStdioServer` (lib/mcp/node/spawn.ts).
 */
export async function inspectServer(
  target: InspectTarget,
  options: InspectOptions & { prespawned?: ChildProcess } = {},
): Promise<InspectResult> {
  try {
    return await inspectWithOpeners(openersFor(target, target.kind === "stdio" ? options.prespawned : undefined), options);
  } catch (error) {
    return { ok: false, error: { code: "internal", message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

/** A settled session to a server, left open to relay over (the gate). Never throws. */
export async function openServerSession(target: InspectTarget, options: UpstreamSessionOptions = {}): Promise<UpstreamSessionResult> {
  try {
    return await openUpstreamSession(openersFor(target), options);
  } catch (error) {
    return { ok: false, error: { code: "internal", message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}` } };
  }
}
