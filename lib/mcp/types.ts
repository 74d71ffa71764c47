/**
 * What `inspectServer` takes and returns, with no SDK import, so route handlers and the UI can
 * use these types freely. Every failure is a value: `{ ok: false, error }`, and when a named
 * limit tripped, `error.limit` says which one.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { GrantedAuthorization, McpOAuthClient, OAuthStep } from "@/lib/mcp/oauth/interface";
import type { LauncherSandbox, SandboxReport, SandboxRun } from "@/lib/sandbox/plan";
import type { InspectLimitName, InspectLimits } from "@/lib/surface/limits";
import type { SurfaceList, SurfaceSnapshot } from "@/lib/surface/types";
import type { HttpMode, WireTransportKind } from "@/lib/transport-kind";

export const INSPECT_ERROR_CODES = [
  /** A named limit tripped; `limit` says which. */
  "limit_exceeded",
  /** The process could not be started, or the URL could not be reached. */
  "connect_failed",
  /** The server process exited or the connection closed before the surface settled. */
  "server_exited",
  /** The server answered with something the protocol does not allow (error reply, bad page). */
  "protocol_error",
  /** The workbench refused the target (launcher allowlist, egress allowlist, unknown env var). */
  "refused",
  /**
   * The server requires OAuth authorization that could not be completed without the user (the
   * provider holds the authorization URL), or the flow failed; `oauthStep` names the step.
   */
  "unauthorized",
  /** The caller aborted. */
  "aborted",
  /** A bug on our side; the message says what. */
  "internal",
] as const;
export type InspectErrorCode = (typeof INSPECT_ERROR_CODES)[number];

export type InspectError = {
  code: InspectErrorCode;
  limit?: InspectLimitName;
  message: string;
  /** Last lines the server wrote to stderr (stdio), for diagnosis. */
  stderrTail?: string;
  exitCode?: number | null;
  signal?: string | null;
  /** For `unauthorized`: the step of the OAuth flow that failed, or `authorization_request` when the user must consent. */
  oauthStep?: OAuthStep;
};

export type InspectResult =
  | {
      ok: true;
      snapshot: SurfaceSnapshot;
      stderrTail?: string;
      sandbox?: SandboxReport;
      /** The OAuth grant the session used (HTTP targets with `auth`): scopes, issuer, expiry; never a token. */
      authorization?: GrantedAuthorization;
    }
  | { ok: false; error: InspectError; sandbox?: SandboxReport };

/** A transport target after the allowlist/egress checks. Env and header values live only here. */
export type InspectTarget =
  | {
      kind: "stdio";
      command: string;
      args: string[];
      /** Extra variables on top of the SDK's default environment (HOME, PATH, …). */
      env?: Record<string, string>;
      cwd?: string;
      /** The allowlist entry this target matched (resolve-target.ts): its sandbox settings. */
      launcher?: { id: string; sandbox: LauncherSandbox };
      /** Set by lib/sandbox/node/sandbox.ts: the command above is the sandbox wrapping the launcher's. */
      sandbox?: SandboxRun;
    }
  | {
      kind: "http";
      url: string;
      headers?: Record<string, string>;
      /** `auto`: Streamable HTTP, falling back to legacy SSE on a 4xx to the initialize POST. */
      mode?: HttpMode;
      /** Checked before every request (catches DNS changes); redirects are refused when set. */
      egress?: EgressGuard | null;
      /** The fetch every request goes through (the workbench's pins each connection to a checked address); default: global fetch. */
      fetch?: FetchLike;
      /**
       * OAuth for this server (lib/mcp/oauth): the session sends its token, refreshes it, and
       * re-authorizes on `insufficient_scope`. Every URL of the flow goes through `egress` and `fetch` too.
       */
      auth?: McpOAuthClient;
    };

/** Re-checks a URL just before each request; returns a refusal message or null. */
export type EgressGuard = (url: URL) => Promise<string | null>;

/**
 * The protocol's two eras: `2025` opens with `initialize` (revisions 2024-10-07 … 2025-11-25);
 * `2026` is stateless, opens with `server/discover` and carries its version in every request's
 * `_meta` (2026-07-28). Every inspection records the one it used, and a pin compares only
 * inspections of the same era.
 */
export const PROTOCOL_ERAS = ["2025", "2026"] as const;
export type ProtocolEraName = (typeof PROTOCOL_ERAS)[number];
/** What a reviewer asks for: the new era first with a 2025 fallback, or one era only. */
export const ERA_PREFERENCES = ["auto", "2026", "2025"] as const;
export type EraPreference = (typeof ERA_PREFERENCES)[number];
/** The SDK's names for the eras (`getProtocolEra()`) → ours. */
export const ERA_OF = { legacy: "2025", modern: "2026" } as const satisfies Record<
  string,
  ProtocolEraName
>;

export type InspectProgress =
  | { type: "connecting"; transport: WireTransportKind; target: string }
  | { type: "fallback"; from: WireTransportKind; to: WireTransportKind; reason: string }
  | {
      type: "initialized";
      serverName: string;
      serverVersion: string;
      protocolVersion: string;
      era: ProtocolEraName;
    }
  | { type: "listing"; list: SurfaceList; page: number; items: number }
  | { type: "list_changed"; list: SurfaceList }
  | { type: "settled"; counts: Record<SurfaceList, number>; rejects: number; relists: number }
  | { type: "error"; error: InspectError };

export type InspectOptions = {
  limits?: Partial<InspectLimits>;
  /** Which era to speak; default `auto` over HTTP, `2025` over stdio (session.ts `defaultEra`). */
  era?: EraPreference;
  /**
   * Also declare the MCP Apps extension (the server entry's opt-in, or a record whose declared
   * capabilities include it): lib/mcp/capabilities.ts `declaredClientCapabilities`.
   */
  hostRendersApps?: boolean;
  onProgress?: (event: InspectProgress) => void;
  signal?: AbortSignal;
};
