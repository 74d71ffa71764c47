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
 * Not declared either: the MCP Apps extension (`extensions: {"io.modelcontextprotocol/ui": …}`),
 * although a server may list its UI tools only to a client that declares it. Adding it here would
 * change every snapshot's declared capabilities, so every existing pin would compare as
 * "incomparable" and block under "block" until re-pinned, on servers with no UI as much as on
 * those with one; and the gate declares this same set, so a record and its gate must agree on it.
 * Declaring it belongs to the server entry, as an opt-in the reviewer makes where the agent's host
 * renders apps, carried into the snapshot's names (`extensions.io.modelcontextprotocol/ui`), the
 * pin and the record, and declared by the gate from the record.
 */
import type { SurfaceSnapshot } from "@/lib/surface/types";

export const DECLARED_CLIENT_CAPABILITIES = Object.freeze({
  roots: Object.freeze({ listChanged: true }),
  sampling: Object.freeze({}),
  elicitation: Object.freeze({}),
});
export type DeclaredClientCapabilities = Record<string, Record<string, unknown>>;

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
