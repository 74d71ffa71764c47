/**
 * The client capabilities every inspection declares. A server may show a different surface to a
 * client that declares different capabilities (server-everything registers tools for roots,
 * sampling and elicitation only when a client announces them), so the set is fixed, recorded in
 * each snapshot, and a pin compares only like with like.
 *
 * Choice: roots (with listChanged), sampling and elicitation (form mode, `{}`) — the three
 * client capabilities of the stable 2025-06-18 protocol that agent hosts commonly declare, so the
 * reviewed surface is the one such a host's agent sees. Not declared: `tasks` and URL-mode
 * elicitation (experimental, 2025-11-25) and `experimental`. The inspection never acts on a
 * server's requests: roots/list answers an empty list, sampling is refused, elicitation declined.
 *
 * The MCP Apps extension (`extensions: {"io.modelcontextprotocol/ui": {"mimeTypes":
 * ["text/html;profile=mcp-app"]}}`) is declared only for a server entry that opts in
 * (`hostRendersApps`: the agent's host renders apps), although a server may list its UI tools only
 * to a client that declares it. Declaring it for every server would change every snapshot's
 * declared capabilities, so every existing pin would compare as "incomparable" and block under
 * "block" until re-pinned, on servers with no UI as much as on those with one. With the opt-in it
 * is in the snapshot's names (`extensions`, `extensions.io.modelcontextprotocol/ui`), so a pin
 * taken without it is incomparable with an inspection with it; the record's
 * `registration.declared_capabilities` carries those names, and the gate declares the extension
 * upstream exactly when they include it (`declaresAppsExtension`), so record and gate agree.
 */
import { MCP_APPS_EXTENSION } from "@/lib/surface/apps";
import type { SurfaceSnapshot } from "@/lib/surface/types";

export const DECLARED_CLIENT_CAPABILITIES = Object.freeze({
  roots: Object.freeze({ listChanged: true }),
  sampling: Object.freeze({}),
  elicitation: Object.freeze({}),
});
export type DeclaredClientCapabilities = Record<string, Record<string, unknown>>;

/** The MIME type of an MCP App's HTML, the one the Apps extension declares the host renders. */
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The declared-capability name the Apps extension gives (see `declaredCapabilityNames`). */
export const APPS_EXTENSION_CAPABILITY = `extensions.${MCP_APPS_EXTENSION}`;

/** What a server entry decides of the declared set: whether the agent's host renders MCP Apps. */
export type CapabilityChoice = { hostRendersApps?: boolean | undefined };

/**
 * The client capabilities an inspection (and a sample call, and the gate) declares to a server:
 * the fixed set, plus the MCP Apps extension where the server entry opts in. A fresh object each
 * call, so a caller may hand it to the SDK.
 */
export function declaredClientCapabilities(choice?: CapabilityChoice): DeclaredClientCapabilities {
  const caps: DeclaredClientCapabilities = structuredClone(DECLARED_CLIENT_CAPABILITIES);
  if (choice?.hostRendersApps)
    caps.extensions = { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } };
  return caps;
}

/** The names of `declaredClientCapabilities(choice)`, as a snapshot records them. */
export const declaredCapabilityNamesFor = (choice?: CapabilityChoice): string[] =>
  declaredCapabilityNames(declaredClientCapabilities(choice));

/** Whether a recorded set of declared names (a record's, a pin's) includes the Apps extension. */
export const declaresAppsExtension = (names: readonly string[]): boolean =>
  names.includes(APPS_EXTENSION_CAPABILITY);

/** Stable names for a capability object: top-level keys, plus `key.sub` for true sub-flags. */
export function declaredCapabilityNames(caps: Readonly<Record<string, unknown>>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(caps)) {
    if (v === undefined) continue;
    out.push(k);
    if (v && typeof v === "object") {
      for (const [sub, sv] of Object.entries(v))
        if (sv === true || (sv && typeof sv === "object")) out.push(`${k}.${sub}`);
    }
  }
  return out.sort();
}

export const DECLARED_CAPABILITY_NAMES: readonly string[] = Object.freeze(
  declaredCapabilityNames(DECLARED_CLIENT_CAPABILITIES),
);

export type SnapshotCapabilities = Pick<
  SurfaceSnapshot,
  "clientCapabilities" | "declaredCapabilities"
>;
