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
import { parseTrace, type SandboxReport, type SandboxRun } from "@/lib/mcp/sandbox-plan";
import {
  inspectWithOpeners,
  openUpstreamSession,
  type TransportOpener,
  type UpstreamSessionOptions,
  type UpstreamSessionResult,
} from "@/lib/mcp/session";
import type { InspectOptions, InspectResult, InspectTarget } from "@/lib/mcp/types";

type StdioTarget = Extract<InspectTarget, { kind: "stdio" }>;

/** What the sandbox let the server see and what it tried, from the transport's trace (read after close). */
function sandboxReport(run: SandboxRun, transports: GuardedStdioTransport[]): SandboxReport {
  const base = {
    sandboxed: true as const,
    mechanism: run.mechanism,
    network: "loopback only" as const,
    limits: run.plan.limits,
    visible: run.plan.visible,
  };
  if (!run.plan.traced)
    return {
      ...base,
      traced: false,
      traceNote: run.traceNote ?? "no trace was taken",
      attempts: [],
      droppedAttempts: 0,
      truncated: false,
      notFoundInView: 0,
    };
  let truncated = false;
  const texts: string[] = [];
  for (const t of transports) {
    const trace = t.getTrace();
    truncated ||= trace.truncated;
    texts.push(trace.text);
  }
  const parsed = parseTrace(texts.join("\n"), {
    entry: run.plan.entry,
    command: run.command,
    mirrored: run.plan.mirrored,
    redact: run.redact,
  });
  return { ...base, traced: true, ...parsed, truncated };
}

export function stdioOpener(
  target: StdioTarget,
  child?: ChildProcess,
  opened?: GuardedStdioTransport[],
): TransportOpener {
  return {
    kind: "stdio",
    // A sandboxed run is labelled with the launcher's command, not the bwrap line around it.
    label: target.sandbox
      ? `${target.sandbox.label} (sandboxed)`
      : [target.command, ...target.args].join(" "),
    open: (guard) => {
      const t = new GuardedStdioTransport(
        {
          command: target.command,
          args: target.args,
          env: target.env ?? {},
          ...(target.cwd ? { cwd: target.cwd } : {}),
          ...(child ? { child } : {}),
          ...(target.sandbox
            ? {
                sandboxed: {
                  traced: target.sandbox.plan.traced,
                  ...(target.sandbox.uid !== undefined ? { uid: target.sandbox.uid } : {}),
                  ...(target.sandbox.gid !== undefined ? { gid: target.sandbox.gid } : {}),
                },
              }
            : {}),
        },
        guard,
      );
      opened?.push(t);
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
  const opts = {
    headers: target.headers ?? {},
    egress: target.egress ?? null,
    ...(target.fetch ? { fetch: target.fetch } : {}),
    ...(target.auth ? { auth: target.auth } : {}),
  };
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
    if (target.kind === "stdio" && target.sandbox) {
      const opened: GuardedStdioTransport[] = [];
      const result = await inspectWithOpeners([stdioOpener(target, undefined, opened)], options);
      // inspectWithOpeners has closed the transport, so the trace is complete.
      await Promise.all(opened.map((t) => t.close()));
      return { ...result, sandbox: sandboxReport(target.sandbox, opened) };
    }
    return await inspectWithOpeners(
      openersFor(target, target.kind === "stdio" ? options.prespawned : undefined),
      options,
    );
  } catch (error) {
    return {
      ok: false,
      error: {
        code: "internal",
        message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

/** A settled session to a server, left open to relay over (the gate). Never throws. */
export async function openServerSession(
  target: InspectTarget,
  options: UpstreamSessionOptions = {},
): Promise<UpstreamSessionResult> {
  try {
    return await openUpstreamSession(openersFor(target), options);
  } catch (error) {
    return {
      ok: false,
      error: {
        code: "internal",
        message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}
