/**
 * The public interface of the workbench's OAuth client for remote MCP servers (issue 17): the MCP
 * authorization specification (revision 2025-11-25) through the SDK's `OAuthClientProvider`
 * (lib/mcp/oauth/provider.ts), parameterised by where its state lives and how the user agent is
 * sent to the authorization server, so the CLI (memory) and the web app (the encrypted store, the
 * owner's session) plug in their own.
 *
 * How a caller uses it:
 * 1. Build a provider with `createOAuthProvider(options)` for one MCP server URL and pass it as
 *    the HTTP target's `auth` (lib/mcp/types.ts). The session sends its token, refreshes it before
 *    it expires and on a 401, and re-authorizes on a 403 `insufficient_scope` (bounded).
 * 2. When the server needs a user's consent, the session fails with code `unauthorized` and
 *    `provider.pendingAuthorization()` holds the authorization URL (already handed to
 *    `redirect.redirect`). The CLI prints it and waits on its loopback redirect; the web app sends
 *    the browser there.
 * 3. The callback calls `completeAuthorization(provider, { code, state, codeVerifier, iss })`:
 *    the code is exchanged (PKCE S256, resource indicator), the tokens go to `storage.saveTokens`.
 *    Then the session is opened again.
 *
 * Invariants every implementation of these interfaces can rely on:
 * - A token, an authorization code, a PKCE verifier or a client secret is never logged, never put
 *   in an error message, an event or a `GrantedAuthorization`; storage receives them only through
 *   `saveTokens` / `saveClientInformation` / `saveCodeVerifier`, which the web app seals.
 * - Every URL the flow fetches (resource metadata, authorization-server metadata, registration and
 *   token endpoints) passes the workbench's egress guard and limits (bytes, time, redirects), and
 *   must be `https:` unless its host is loopback. An issuer that differs from the authorization
 *   server it was fetched for, or a resource that does not match the server, is refused with the
 *   reason (`OAuthStepError`, naming the step).
 */
import type {
  OAuthClientInformationMixed,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { EgressGuard } from "@/lib/mcp/types";

export type { OAuthClientInformationMixed, OAuthDiscoveryState, OAuthTokens };

/** The steps of the flow, in order; every failure names the one it happened in. */
export const OAUTH_STEPS = [
  /** Reading the server's 401/403 `WWW-Authenticate` challenge. */
  "challenge",
  /** RFC 9728 protected-resource metadata (from the challenge, then the well-known URLs). */
  "resource_metadata",
  /** RFC 8414 / OpenID Connect discovery of the authorization server. */
  "authorization_server_metadata",
  /** Pre-registered client, Client ID Metadata Document, or RFC 7591 dynamic registration. */
  "client_registration",
  /** Building the authorization URL (PKCE S256, resource, scope, state) and redirecting. */
  "authorization_request",
  /** The callback: state, `iss` (RFC 9207) and code checked. */
  "authorization_response",
  /** The authorization-code exchange at the token endpoint. */
  "token_request",
  /** A refresh-token grant. */
  "token_refresh",
  /** The client-credentials grant (the spec's extension for machines). */
  "client_credentials",
  /** Disconnect: RFC 7009 revocation of the stored tokens at the authorization server. */
  "token_revocation",
] as const;
export type OAuthStep = (typeof OAUTH_STEPS)[number];

/** A failure of the flow, naming its step. The message never contains a secret. */
export class OAuthStepError extends Error {
  constructor(
    readonly step: OAuthStep,
    readonly reason: string,
  ) {
    super(`OAuth ${step.replaceAll("_", " ")} failed: ${reason}`);
    this.name = "OAuthStepError";
  }
}

/** How an authorization in flight ended without a new token: its step and message. */
export type AuthorizationFailure = { readonly step: OAuthStep; readonly message: string };

/**
 * A request the MCP endpoint refused while another request's authorization (the first 401, or 403
 * insufficient_scope, seen) is still in flight, or after it renewed the token this request was
 * sent with. Not sent again by the transport: `settled` is that authorization's outcome (null when
 * a new token was saved, else its failure), and the caller sends the request again once it is
 * null. Callers that do not wait see an ordinary refusal of step `challenge`.
 */
export class AuthorizationInFlight extends OAuthStepError {
  constructor(readonly settled: Promise<AuthorizationFailure | null>) {
    super("challenge", "another request's authorization was in flight when this one was refused");
    this.name = "AuthorizationInFlight";
  }
}

/** Which part of the state to forget (the SDK's `invalidateCredentials` scopes). */
export type OAuthInvalidateScope = "all" | "client" | "tokens" | "verifier" | "discovery";

/**
 * What the card, the inspection record and the logs may know about a token response: never the
 * token. `grantedScope` is the response's `scope` as written (space-separated), or, when the
 * response names none, the scope that was requested (RFC 6749 §5.1: then the grant is the request),
 * with `scopeSource` saying which.
 */
export type TokenFacts = {
  /** The authorization server that issued the token (the discovered issuer). */
  issuer: string | null;
  /** Who connected, as the authorization server said it (an ID token's `sub`), display only. */
  subject: string | null;
  grantedScope: string | null;
  scopeSource: "response" | "requested" | "none";
  expiresAt: Date | null;
  /** How the token was obtained; `authorization_code` and `client_credentials` are new connections. */
  grant: "authorization_code" | "refresh_token" | "client_credentials";
};

/**
 * The token response as stored: the SDK's `OAuthTokens` (with its `issuer` stamp) plus when it was
 * obtained, so `expires_in` can be turned back into an expiry after a reload.
 */
export type StoredTokens = OAuthTokens & { obtained_at: number };

/**
 * Where one server's OAuth state lives. Values come back as `unknown` and are validated on read
 * (a row that fails is treated as absent). The web app seals the secret ones; the CLI keeps them in
 * memory (lib/mcp/oauth/memory-storage.ts).
 */
export interface OAuthStorage {
  /** The client registration (dynamic, metadata-document, or the stamp of a pre-registered one). */
  loadClientInformation(): Promise<unknown>;
  saveClientInformation(info: OAuthClientInformationMixed): Promise<void>;
  loadTokens(): Promise<unknown>;
  /** `tokens` holds secrets (seal them); `facts` are what may be shown. */
  saveTokens(tokens: StoredTokens, facts: TokenFacts): Promise<void>;
  /** Public discovery results (RFC 9728 and RFC 8414 metadata); no secret in them. */
  loadDiscoveryState(): Promise<unknown>;
  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void>;
  /**
   * The PKCE verifier of the authorization request carrying `state`, saved before the redirect.
   * It comes back through `completeAuthorization`'s `codeVerifier` (the web app reads it when it
   * consumes the flow); the provider never reads it back from here.
   */
  saveCodeVerifier(state: string, codeVerifier: string): Promise<void>;
  /** Forget part of the state after the authorization server refused it. */
  invalidate(scope: OAuthInvalidateScope): Promise<void>;
}

/**
 * How the user agent gets to the authorization server and back (the authorization-code grant).
 * Absent: the provider is headless (client credentials, or a refresh token it was given).
 */
export interface AuthorizationRedirect {
  /** The redirect URI registered and sent (the web app's callback, or the CLI's loopback). */
  readonly redirectUrl: string;
  /** A fresh, unguessable state for one authorization request (the web app binds it to the owner's session). */
  newState(): Promise<string>;
  /**
   * Hand the checked authorization URL to the user agent. Must not wait for the user: the session
   * fails with `unauthorized` and the caller waits (the CLI on its loopback, the web app on its callback).
   */
  redirect(authorizationUrl: URL, state: string): Promise<void>;
}

/** A client registered with the authorization server out of band; the secret is resolved by name by the caller. */
export type PreRegisteredClient = {
  clientId: string;
  /** From the secret store or an environment variable, by name; held in memory only. */
  clientSecret?: string;
  /** private_key_jwt client authentication (RFC 7523): a PKCS#8 PEM key, by name, and its algorithm. */
  privateKeyJwt?: { privateKey: string; algorithm: string };
};

/** Bounds on each request of the flow; every one is attacker-controlled. */
export type OAuthFetchLimits = {
  /** The largest response body read (metadata, registration, token), in bytes. */
  maxResponseBytes: number;
  /** Each request's time limit, headers and body together. */
  requestTimeoutMs: number;
  /** Same-origin redirects followed per request (cross-origin ones are never followed). */
  maxRedirects: number;
  /** Authorization attempts per session (401 then 403 step-ups); the next one fails. */
  maxAuthorizations: number;
};

export const DEFAULT_OAUTH_FETCH_LIMITS: OAuthFetchLimits = {
  maxResponseBytes: 256 * 1024,
  requestTimeoutMs: 10_000,
  maxRedirects: 3,
  maxAuthorizations: 3,
};

/** Something that happened in the flow, for a progress line; never a secret. */
export type OAuthEvent =
  | { type: "challenge"; status: number; scope: string | null; resourceMetadataUrl: string | null }
  | { type: "fetch"; step: OAuthStep; url: string }
  | {
      type: "registered";
      how: "pre-registered" | "metadata-document" | "dynamic";
      clientId: string;
    }
  | { type: "authorization_required"; authorizationUrl: string }
  | { type: "token"; grant: TokenFacts["grant"]; scopes: string[]; expiresAt: string | null };

export type OAuthProviderOptions = {
  /** The MCP endpoint these credentials are for (the RFC 8707 resource is derived from it). */
  serverUrl: string;
  storage: OAuthStorage;
  /** `authorization_code` needs `redirect`; `client_credentials` needs `client.preRegistered`. */
  grant: "authorization_code" | "client_credentials";
  redirect?: AuthorizationRedirect;
  client?: {
    preRegistered?: PreRegisteredClient;
    /** The https URL where this client's metadata document is served (Client ID Metadata Documents). */
    metadataDocumentUrl?: string;
    /** `client_name` in registrations and the metadata document; default "Relay Review". */
    name?: string;
  };
  /**
   * The authorization server these credentials may be presented to. When set, a server whose
   * metadata names another one is refused; when absent, credentials are bound to the first
   * authorization server that passes every check (and never presented to another).
   */
  expectedIssuer?: string;
  /** Scope to ask for when neither the challenge nor `scopes_supported` names one. */
  fallbackScope?: string;
  /** The base fetch (the workbench's egress-pinned fetch) and the per-request egress check. */
  fetch?: FetchLike;
  egress?: EgressGuard | null;
  limits?: Partial<OAuthFetchLimits>;
  /** Refresh this long before the access token expires. Default 60 s. */
  refreshSkewMs?: number;
  onEvent?: (event: OAuthEvent) => void;
  /** Clock, for tests. */
  now?: () => number;
};

/** What an inspection records about the authorization it used (never a token). */
export type GrantedAuthorization = {
  issuer: string | null;
  subject: string | null;
  /** Granted scopes, sorted and de-duplicated. */
  scopes: string[];
  scopeSource: TokenFacts["scopeSource"];
  expiresAt: string | null;
};

/** The callback's parameters, after the caller checked its own binding (session, one-time use). */
export type AuthorizationCallback = {
  code: string;
  /** The state the callback carried; must be the one the authorization request was sent with. */
  state: string;
  /** The verifier `storage.saveCodeVerifier` received for this state. */
  codeVerifier: string;
  /** RFC 9207 `iss`, when the authorization server sent one; must equal the discovered issuer. */
  iss?: string | null;
  /** An `error` the authorization server returned instead of a code (the user denied, …). */
  error?: string | null;
  errorDescription?: string | null;
  /**
   * The `scope` of the authorization URL this callback answers (from `pendingAuthorization()`), so
   * a token response that names no scope is recorded as granting what was asked (RFC 6749 §5.1).
   */
  requestedScope?: string | null;
};

/**
 * The document served at `metadataDocumentUrl` (Client ID Metadata Documents): `client_id` is the
 * document's own URL; a public client (PKCE, no secret).
 */
export type ClientMetadataDocument = {
  client_id: string;
  client_name: string;
  client_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
};

/**
 * The provider as callers hold it: the SDK's `OAuthClientProvider` (the transport drives it) plus
 * what the workbench reads back. Built by `createOAuthProvider` (lib/mcp/oauth/provider.ts).
 */
export interface McpOAuthClient extends OAuthClientProvider {
  readonly serverUrl: string;
  /** The authorization the last connect asked the user for, or null. Holds no secret (state is single-use). */
  pendingAuthorization(): { authorizationUrl: string; state: string } | null;
  /** What the current token grants (from storage), or null before any token. Never the token. */
  grantedAuthorization(): Promise<GrantedAuthorization | null>;
  /** The last flow failure, with its step (the SDK's own errors are mapped onto it). */
  lastError(): OAuthStepError | null;
  /**
   * The fetch the flow's requests go through (egress guard, https, limits). The HTTP transport
   * routes every request that is not to the MCP endpoint itself here.
   */
  readonly authFetch: FetchLike;
  /**
   * The transport saw a 401 or 403 from the MCP endpoint, with this `WWW-Authenticate`. Throws an
   * `OAuthStepError` (step `challenge`) on the step-up (403 insufficient_scope) past
   * `maxAuthorizations` in one session, so the request fails instead of asking again.
   * `sentBearer`: the refused request carried a token. A 401 then means the token is no longer
   * good where it was sent, and the resource metadata is read again (SEP-2352: the server may have
   * moved to another authorization server, which is then registered with anew).
   */
  noteChallenge(status: number, wwwAuthenticate: string | null, sentBearer?: boolean): void;
  /**
   * Called before `noteChallenge` for a JSON-RPC request the endpoint refused (401, 403), sent
   * with `sentAuthorization`: the outcome to wait for when an authorization is already in flight
   * or has renewed the token since the request was sent. Else null, and a refusal the transport
   * answers by authorizing (401, 403 insufficient_scope) puts one in flight until a token is
   * saved, a step fails, or `endAuthorization`. Synchronous: two refusals seen together do not
   * both authorize, and a step-up is counted once.
   */
  joinAuthorization(
    status: number,
    wwwAuthenticate: string | null,
    sentAuthorization: string | null,
  ): Promise<AuthorizationFailure | null> | null;
  /** The authorization in flight will not complete (its request was refused): joiners get `failure`. */
  endAuthorization(failure: AuthorizationFailure): void;
  /** The flow failure behind an error the transport threw while authorizing, or null when it is not one. */
  describeFailure(error: unknown): OAuthStepError | null;
  /**
   * Disconnect's first half: ask the authorization server to revoke the stored refresh token, then
   * the access token (RFC 7009), at the `revocation_endpoint` of the stored authorization-server
   * metadata, through `authFetch`, authenticated as the token requests were. Never throws and
   * deletes nothing: the caller deletes the stored state whatever the outcome.
   */
  revoke(): Promise<RevocationOutcome>;
}

/** `completeAuthorization`'s outcome: the grant, or the failure naming its step. */
export type CompleteAuthorizationResult =
  { ok: true; authorization: GrantedAuthorization } | { ok: false; error: OAuthStepError };

/** A token the workbench holds and can ask the authorization server to revoke (RFC 7009 `token_type_hint`). */
export type RevocableToken = "refresh_token" | "access_token";

/**
 * What `revoke()` achieved. `revoked`: the tokens the revocation endpoint accepted (HTTP 200; RFC
 * 7009 answers 200 also for a token it no longer knows). `notRevoked`: each stored token it was
 * not told about, with why (no endpoint, a refusal of the flow's checks, a network error, an error
 * answer); never a token in a reason. Both empty: nothing was stored to revoke.
 */
export type RevocationOutcome = {
  /** The revocation endpoint asked (without query), or null when none was. */
  endpoint: string | null;
  revoked: RevocableToken[];
  notRevoked: { token: RevocableToken; reason: string }[];
};

/** lib/mcp/oauth/provider.ts `createOAuthProvider`: one provider per MCP server URL and session. */
export type CreateOAuthProvider = (options: OAuthProviderOptions) => McpOAuthClient;
/** lib/mcp/oauth/provider.ts `completeAuthorization`: exchange the callback's code. Never throws. */
export type CompleteAuthorization = (
  client: McpOAuthClient,
  callback: AuthorizationCallback,
) => Promise<CompleteAuthorizationResult>;
