/**
 * CLI runtime glue: lets lib/mcp/node/* load outside Next (see server-only-hook.mjs) and loads
 * them lazily, after the hook is registered.
 */
import { register } from "node:module";
import type * as Inspector from "@/lib/mcp/node/inspect";

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
