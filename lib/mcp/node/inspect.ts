import "server-only";
/**
 * The transport openers for a checked target (see resolve-target.ts for the workbench's allowlist
 * and egress checks), and the two ways in to the one upstream session (lib/mcp/session.ts):
 * `inspectServer`, the call route handlers and the CLI make, and `openServerSession`, the gate's.
 * Neither throws.
 */
import type { ChildProcess } from "node:child_process";
import { sseOpener, streamableHttpOpener } from "@/lib/mcp/http";
import { EgressProxy } from "@/lib/sandbox/node/egress-proxy";
import {
  createSandboxCgroup,
  releaseHostUid,
  removeSandboxCgroup,
} from "@/lib/sandbox/node/sandbox";
import { GuardedStdioTransport } from "@/lib/mcp/node/stdio-transport";
import { SANDBOX_EGRESS_SOCKET } from "@/lib/sandbox/egress";
import { parseTrace, type SandboxReport, type SandboxRun } from "@/lib/sandbox/plan";
import {
  inspectWithOpeners,
  openUpstreamSession,
  type TransportOpener,
  type UpstreamSessionOptions,
  type UpstreamSessionResult,
} from "@/lib/mcp/session";
import type { InspectOptions, InspectResult, InspectTarget } from "@/lib/mcp/types";

type StdioTarget = Extract<InspectTarget, { kind: "stdio" }>;
/** One start of a stdio server: its transport and, when its launcher grants egress, its proxy. */
export type OpenedStdio = { transport: GuardedStdioTransport; proxy: EgressProxy | null };

/** What the sandbox let the server see and what it tried, from the transport's trace and the proxy's record (read after close). */
function sandboxReport(run: SandboxRun, runs: OpenedStdio[]): SandboxReport {
  const transports = runs.map((r) => r.transport);
  // One inspection starts the server once; the report is that run's (the last, if ever more).
  const proxy = runs.findLast((r) => r.proxy)?.proxy;
  const base = {
    sandboxed: true as const,
    mechanism: run.mechanism,
    network: "loopback only" as const,
    limits: run.plan.limits,
    visible: run.plan.visible,
    totalBound: run.totalBound,
    hostUid: run.uid ?? null,
    ...(proxy ? { egress: proxy.report() } : {}),
  };
  const untraced = (traceNote: string): SandboxReport => ({
    ...base,
    traced: false,
    traceNote,
    attempts: [],
    droppedAttempts: 0,
    truncated: false,
    notFoundInView: 0,
  });
  if (!run.plan.traced) return untraced(run.traceNote ?? "no trace was taken");
  let truncated = false;
  const texts: string[] = [];
  for (const t of transports) {
    const trace = t.getTrace();
    truncated ||= trace.truncated;
    texts.push(trace.text);
  }
  // strace records at least the sandbox's own start (an execve), so an empty record means the
  // tracer saw nothing, not that the server tried nothing: say so rather than list no attempts.
  if (transports.length > 0 && texts.every((text) => text.trim() === ""))
    return untraced(
      "strace ran but recorded nothing, not even the sandbox starting, so what the server tried is not known",
    );
  const parsed = parseTrace(texts.join("\n"), {
    entry: run.plan.entry,
    command: run.command,
    mirrored: run.plan.mirrored,
    redact: run.redact,
    plumbing: [`unix:${SANDBOX_EGRESS_SOCKET}`],
  });
  return { ...base, traced: true, ...parsed, truncated };
}

export function stdioOpener(
  target: StdioTarget,
  child?: ChildProcess,
  opened?: OpenedStdio[],
): TransportOpener {
  return {
    kind: "stdio",
    // A sandboxed run is labelled with the launcher's command, not the bwrap line around it.
    label: target.sandbox
      ? `${target.sandbox.label} (sandboxed)`
      : [target.command, ...target.args].join(" "),
    open: (guard) => {
      const run = target.sandbox;
      const proxy = run?.plan.egress
        ? new EgressProxy({
            ...run.plan.egress,
            ...(run.uid !== undefined ? { uid: run.uid } : {}),
            ...(run.gid !== undefined ? { gid: run.gid } : {}),
          })
        : null;
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
                  inputs: target.sandbox.plan.inputs,
                },
              }
            : {}),
          ...(run && (proxy || run.cgroup)
            ? {
                beforeSpawn: async () => {
                  if (run.cgroup) createSandboxCgroup(run.cgroup, run);
                  await proxy?.start();
                },
              }
            : {}),
        },
        guard,
      );
      opened?.push({ transport: t, proxy });
      return {
        kind: "stdio",
        transport: t,
        countsBytes: true,
        exitInfo: () => t.exitInfo(),
        stderrTail: () => t.getStderrTail(),
        // The proxy stops once the server is gone, so its record is complete when close resolves.
        close: () =>
          t
            .close(guard.error !== null)
            .finally(() => proxy?.close())
            .finally(async () => {
              if (run?.cgroup) await removeSandboxCgroup(run.cgroup);
              releaseHostUid(run?.uid);
            }),
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
 * child already started for this stdio target with `spawnStdioServer` (lib/sandbox/node/spawn.ts).
 */
export async function inspectServer(
  target: InspectTarget,
  options: InspectOptions & { prespawned?: ChildProcess } = {},
): Promise<InspectResult> {
  try {
    if (target.kind === "stdio" && target.sandbox) {
      const opened: OpenedStdio[] = [];
      const result = await inspectWithOpeners([stdioOpener(target, undefined, opened)], options);
      // inspectWithOpeners has closed the transport, so the trace is complete.
      await Promise.all(opened.map((o) => o.transport.close().finally(() => o.proxy?.close())));
      if (target.sandbox.cgroup) await removeSandboxCgroup(target.sandbox.cgroup);
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
