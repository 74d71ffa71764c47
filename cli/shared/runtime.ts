/**
 * CLI runtime glue: lets lib/mcp/node/* load outside Next (see server-only-hook.mjs) and loads
 * them lazily, after the hook is registered.
 */
import type { ChildProcess } from "node:child_process";
import { register } from "node:module";
import type * as Inspector from "@/lib/mcp/node/inspect";
import type { InspectTarget } from "@/lib/mcp/types";

let isRegistered = false;

/** Register the `server-only` resolve hook once; later imports of lib/mcp/node/* then load. */
export function allowServerOnlyImports(): void {
  if (isRegistered) return;
  register(new URL("./server-only-hook.mjs", import.meta.url));
  isRegistered = true;
}

export async function loadInspector(): Promise<typeof Inspector> {
  allowServerOnlyImports();
  return import("@/lib/mcp/node/inspect");
}

/**
 * Start a stdio server before the SDK and the rest of lib/ load, so its boot overlaps ours.
 * Resolves once the process exists (or with the spawn error).
 */
export async function prespawn(target: InspectTarget): Promise<{ child?: ChildProcess; error?: string }> {
  if (target.kind !== "stdio") return {};
  allowServerOnlyImports();
  const { spawnStdioServer } = await import("@/lib/mcp/node/spawn");
  const child = spawnStdioServer(target);
  const error = await new Promise<string | undefined>((resolve) => {
    child.once("spawn", () => resolve(undefined));
    child.once("error", (e) => resolve(e.message));
  });
  return error ? { error } : { child };
}
