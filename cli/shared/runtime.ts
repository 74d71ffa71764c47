/**
 * CLI runtime glue: lib/mcp/node/* is loaded lazily, so a stdio server can start before the SDK
 * and the rest of lib/ load. (bin/relay-review.mjs makes `server-only` loadable outside Next.)
 */
import type { ChildProcess } from "node:child_process";
import type * as Inspector from "@/lib/mcp/node/inspect";
import type { InspectTarget } from "@/lib/mcp/types";

export async function loadInspector(): Promise<typeof Inspector> {
  return import("@/lib/mcp/node/inspect");
}

/**
 * Start a stdio server before the SDK and the rest of lib/ load, so its boot overlaps ours.
 * Resolves once the process exists (or with the spawn error).
 */
export async function prespawn(
  target: InspectTarget,
): Promise<{ child?: ChildProcess; error?: string }> {
  if (target.kind !== "stdio") return {};
  const { spawnStdioServer } = await import("@/lib/sandbox/node/spawn");
  const child = spawnStdioServer(target);
  const error = await new Promise<string | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", (e) => resolve(e.message));
  });
  return error ? { error } : { child };
}
