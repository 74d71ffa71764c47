/**
 * The workbench's OAuth client: an `OAuthClientProvider` the SDK's `auth()` drives (discovery,
 * registration, PKCE, resource indicators, refresh, client credentials; see interface.ts for the
 * contract), with the workbench's own refusals added at the hooks the SDK calls before anything is
 * sent to an endpoint it discovered:
 * - `saveDiscoveryState` (after discovery, before registration): the authorization server's URL and
 *   every endpoint https or loopback; the metadata's issuer equal to the URL it was fetched for;
 *   the resource metadata's resource this server; PKCE S256 advertised; the expected issuer.
 * - `validateResourceURL`: the resource is always sent (RFC 8707), and only for this server.
 * - `redirectToAuthorization`: the authorization URL checked like any endpoint; at most
 *   `maxAuthorizations` per provider.
 * Every request of the flow goes through `authFetch` (fetch.ts): egress guard, https, limits.
 * Tokens are refreshed before they expire (`tokens()`, which the transport calls before each
 * request), once at a time. Disconnect revokes them (`revoke()`, RFC 7009) through the same fetch.
 */
import { createPrivateKeyJwtAuth } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import {
  UnauthorizedError,
  auth,
  extractWWWAuthenticateParams,
  selectClientAuthMethod,
  type AddClientAuthentication,
  type OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { z } from "zod";
import {
  endpointRefusal,
  expiresAtMs,
  idTokenSubject,
  issuerRefusal,
  redact,
  resourceOf,
  resourceRefusal,
  safeUrl,
  sameIssuer,
  scopeSet,
  selectScope,
} from "@/lib/mcp/oauth/checks";
import { DEFAULT_CLIENT_NAME } from "@/lib/mcp/oauth/client-metadata";
import { createAuthFetch } from "@/lib/mcp/oauth/fetch";
import {
  DEFAULT_OAUTH_FETCH_LIMITS,
  OAuthStepError,
  type AuthorizationCallback,
  type AuthorizationFailure,
  type CompleteAuthorizationResult,
  type GrantedAuthorization,
  type McpOAuthClient,
  type OAuthEvent,
  type OAuthFetchLimits,
  type OAuthInvalidateScope,
  type OAuthProviderOptions,
  type OAuthStep,
  type RevocableToken,
  type RevocationOutcome,
  type StoredTokens,
  type TokenFacts,
} from "@/lib/mcp/oauth/interface";

const DEFAULT_REFRESH_SKEW_MS = 60_000;
/** How much of an error answer's `error_description` a message quotes. */
const MAX_QUOTED_DESCRIPTION = 200;

/** Stored values are read back leniently: a row that does not parse counts as absent. */
const StoredTokensSchema = z.looseObject({
  access_token: z.string(),
  token_type: z.string(),
  expires_in: z.number().optional(),
  scope: z.string().optional(),
  refresh_token: z.string().optional(),
  id_token: z.string().optional(),
  issuer: z.string().optional(),
  obtained_at: z.number(),
});
const StoredClientSchema = z.looseObject({
  client_id: z.string().min(1),
  client_secret: z.string().optional(),
  issuer: z.string().optional(),
});
const StoredDiscoverySchema = z.looseObject({
  authorizationServerUrl: z.string(),
  resourceMetadataUrl: z.string().optional(),
  resourceMetadata: z.looseObject({ resource: z.string() }).optional(),
  authorizationServerMetadata: z.looseObject({ issuer: z.string() }).optional(),
});

/** RFC 7009's metadata (RFC 8414 §2), read leniently: OpenID provider metadata does not declare it. */
const RevocationMetadataSchema = z.looseObject({
  revocation_endpoint: z.string().optional(),
  revocation_endpoint_auth_methods_supported: z.array(z.string()).optional(),
});

/** Thrown from `state()` while the provider refreshes on its own: no user is there to consent. */
class NeedsConsent extends Error {}

/** The parameters of a `WWW-Authenticate` challenge (scope, error, resource_metadata). */
const challengeParams = (wwwAuthenticate: string | null) =>
  extractWWWAuthenticateParams(
    new Response(null, { headers: wwwAuthenticate ? { "www-authenticate": wwwAuthenticate } : {} }),
  );
/** A 403 with this challenge asks for a wider grant, which the SDK's transport then authorizes. */
const isStepUp = (params: ReturnType<typeof challengeParams>) =>
  params.error === "insufficient_scope";

/** SEP-837's `application_type` for a registration: `native` for a loopback (or no) redirect URI. */
export function applicationType(redirectUrl: string | undefined): "native" | "web" {
  if (!redirectUrl) return "native";
  const host = new URL(redirectUrl).hostname;
  return ["127.0.0.1", "[::1]", "localhost"].includes(host) ? "native" : "web";
}

/**
 * A URL whose `href` is `text` exactly. The SDK sends the resource indicator a provider returns
 * as its `href`, and a parsed `https://example.com` becomes `https://example.com/`: another
 * identifier than the one the resource metadata published, which the authorization server may
 * refuse (RFC 8707 and RFC 9728 §3.3 compare it as written).
 */
function verbatimUrl(text: string): URL {
  const url = new URL(text);
  if (url.href !== text) Object.defineProperty(url, "href", { value: text, enumerable: true });
  return url;
}

/** Build the provider for one MCP server URL. */
export function createOAuthProvider(options: OAuthProviderOptions): McpOAuthClient {
  return new McpOAuthProvider(options);
}

class McpOAuthProvider implements McpOAuthClient {
  readonly serverUrl: string;
  readonly authFetch: FetchLike;
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly limits: OAuthFetchLimits;
  private readonly now: () => number;
  /** Every secret this provider has seen, to redact from messages that quote a server. */
  private readonly secrets = new Set<string>();
  private challengeScope: string | null = null;
  private discovered: OAuthDiscoveryState | null = null;
  private refusal: OAuthStepError | null = null;
  private failure: OAuthStepError | null = null;
  private step: OAuthStep = "challenge";
  private isChallenged = false;
  /** A 403 insufficient_scope is being answered: a refresh cannot widen a grant, so none is tried. */
  private isSteppingUp = false;
  /** The scope asked for before a step-up challenge, joined to the one the challenge names. */
  private stepUpBase: string | null = null;
  /** A token was refused (401): the next flow discovers the authorization server again. */
  private isRediscovering = false;
  private pending: { authorizationUrl: string; state: string } | null = null;
  private currentState: string | null = null;
  private exchangeVerifier: string | null = null;
  private requestedScope: string | null = null;
  private lastTokenRequest: { grant: TokenFacts["grant"]; scope: string | null } | null = null;
  private internalAuth = 0;
  private refreshing: Promise<void> | null = null;
  /** 403 insufficient_scope challenges answered in this session (step-ups), bounded like authorizations. */
  private stepUps = 0;
  private authorizations = 0;
  private announcedClient: string | null = null;
  /**
   * The authorization a refused request put in flight (`joinAuthorization`): other requests
   * refused meanwhile wait for its outcome instead of authorizing again, which would ask the user
   * for a second consent, count a second step-up, or (the SDK's transport, seeing the same
   * challenge twice) fail at once as if the renewed grant had been refused.
   */
  private flight: {
    settled: Promise<AuthorizationFailure | null>;
    settle: (outcome: AuthorizationFailure | null) => void;
  } | null = null;
  /** The access token last saved in this session: a request sent with another was sent before it. */
  private savedAccessToken: string | null = null;

  constructor(private readonly options: OAuthProviderOptions) {
    this.serverUrl = resourceOf(options.serverUrl).href;
    this.limits = { ...DEFAULT_OAUTH_FETCH_LIMITS, ...options.limits };
    this.now = options.now ?? Date.now;
    const pre = options.client?.preRegistered;
    if (options.grant === "client_credentials" && !pre)
      throw new Error(
        "the client-credentials grant needs a pre-registered client (an id and a secret or key)",
      );
    if (options.grant === "authorization_code" && !options.redirect && !pre)
      throw new Error(
        "an authorization-code client without a redirect needs a pre-registered client (for its refresh token)",
      );
    if (pre?.clientSecret) this.secrets.add(pre.clientSecret);
    if (pre?.privateKeyJwt) {
      this.secrets.add(pre.privateKeyJwt.privateKey);
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: pre.clientId,
        subject: pre.clientId,
        privateKey: pre.privateKeyJwt.privateKey,
        alg: pre.privateKeyJwt.algorithm,
      });
    }
    this.authFetch = createAuthFetch({
      base: options.fetch ?? fetch,
      egress: options.egress ?? null,
      limits: this.limits,
      classify: (url, init) => this.classify(url, init),
      onRequest: (step, url, init) => this.onRequest(step, url, init),
      onRefusal: (error) => {
        this.refusal ??= error;
        this.failure = error;
      },
    });
  }

  // ------------------------------------------------------------ the SDK's OAuthClientProvider

  get redirectUrl(): string | undefined {
    return this.options.grant === "authorization_code"
      ? this.options.redirect?.redirectUrl
      : undefined;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.client?.metadataDocumentUrl;
  }

  /** The registration body (RFC 7591); `application_type` is OpenID's, which SEP-837 adopts. */
  get clientMetadata(): OAuthClientMetadata & { application_type: "native" | "web" } {
    const isCode = this.options.grant === "authorization_code";
    const pre = this.options.client?.preRegistered;
    return {
      client_name: this.options.client?.name ?? DEFAULT_CLIENT_NAME,
      redirect_uris: this.redirectUrl ? [this.redirectUrl] : [],
      grant_types: isCode ? ["authorization_code", "refresh_token"] : ["client_credentials"],
      response_types: isCode ? ["code"] : [],
      // SEP-837: a loopback redirect is a native application's; any other a web one.
      application_type: applicationType(this.redirectUrl),
      // A public client by default (PKCE protects the code): nothing secret to keep.
      token_endpoint_auth_method: pre?.privateKeyJwt
        ? "private_key_jwt"
        : pre?.clientSecret
          ? "client_secret_basic"
          : "none",
      ...(this.options.fallbackScope ? { scope: this.options.fallbackScope } : {}),
    };
  }

  async state(): Promise<string> {
    if (this.internalAuth > 0) throw new NeedsConsent();
    const redirect = this.options.redirect;
    if (!redirect || this.options.grant !== "authorization_code")
      throw this.fail(
        "authorization_request",
        "the server needs a user's consent, and this client is headless (client credentials or a refresh token); authorize interactively once",
      );
    this.authorizations++;
    if (this.authorizations > this.limits.maxAuthorizations)
      throw this.fail(
        "authorization_request",
        `the server asked for authorization ${this.authorizations} times in one session (limit ${this.limits.maxAuthorizations}); the grant it wants is never enough, so the flow stops`,
      );
    this.isSteppingUp = false;
    const state = await redirect.newState();
    this.secrets.add(state);
    this.currentState = state;
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const pre = this.options.client?.preRegistered;
    const stored = StoredClientSchema.safeParse(await this.options.storage.loadClientInformation());
    const found = stored.success ? stored.data : undefined;
    if (pre) {
      // Pre-registered: the id and secret come from the caller; the store only binds them to an issuer.
      const issuer =
        this.options.expectedIssuer ??
        (found?.client_id === pre.clientId ? found.issuer : undefined);
      return {
        client_id: pre.clientId,
        ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}),
        ...(issuer ? { issuer } : {}),
      };
    }
    if (found?.client_secret) this.secrets.add(found.client_secret);
    return found;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    const pre = this.options.client?.preRegistered;
    if (info.client_secret) this.secrets.add(info.client_secret);
    if (pre) {
      // The binding only: a pre-registered secret is never stored.
      await this.options.storage.saveClientInformation({
        client_id: info.client_id,
        ...(info.issuer ? { issuer: info.issuer } : {}),
      });
      this.announce("pre-registered", info.client_id);
      return;
    }
    await this.options.storage.saveClientInformation(info);
    this.announce(
      info.client_id === this.clientMetadataUrl ? "metadata-document" : "dynamic",
      info.client_id,
    );
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    let stored = await this.loadTokens();
    if (stored && this.isSteppingUp) {
      // The SDK reads the tokens inside its flow after the 403: without a refresh token it asks
      // for a new grant with the scope the challenge named (RFC 6749 §6: a refresh cannot widen).
      const { obtained_at: _o, refresh_token: _r, ...tokens } = stored;
      return tokens;
    }
    if (stored && this.internalAuth === 0 && this.needsRefresh(stored)) {
      await this.refreshOnce();
      stored = await this.loadTokens();
    }
    if (!stored) return undefined;
    // Inside the SDK's own flow the refresh token must be visible; outside, an empty access
    // token (a refresh token given on its own) is not sent as a bearer.
    if (this.internalAuth === 0 && !stored.access_token) return undefined;
    const { obtained_at: _obtained, ...tokens } = stored;
    return tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const previous = await this.loadTokens();
    const grant = this.lastTokenRequest?.grant ?? "authorization_code";
    const merged: StoredTokens = {
      ...tokens,
      // A refresh answer without a refresh token keeps the one it was made with (RFC 6749 §6).
      ...(!tokens.refresh_token && grant === "refresh_token" && previous?.refresh_token
        ? { refresh_token: previous.refresh_token }
        : {}),
      obtained_at: Math.floor(this.now() / 1000),
    };
    for (const s of [merged.access_token, merged.refresh_token, merged.id_token])
      if (s) this.secrets.add(s);
    const requested =
      this.lastTokenRequest?.scope ??
      (grant === "authorization_code"
        ? this.requestedScope
        : grant === "refresh_token"
          ? (previous?.scope ?? null)
          : null);
    const expires = expiresAtMs(merged.obtained_at, merged.expires_in);
    const facts: TokenFacts = {
      issuer: merged.issuer ?? this.discovered?.authorizationServerUrl ?? null,
      subject: idTokenSubject(merged.id_token),
      grantedScope: tokens.scope ?? requested ?? null,
      scopeSource: tokens.scope !== undefined ? "response" : requested ? "requested" : "none",
      expiresAt: expires === null ? null : new Date(expires),
      grant,
    };
    // Keep the scope the grant stands for in the stored tokens, so a later refresh knows it.
    if (merged.scope === undefined && facts.grantedScope) merged.scope = facts.grantedScope;
    await this.options.storage.saveTokens(merged, facts);
    this.savedAccessToken = merged.access_token || null;
    this.settleFlight(null);
    this.isChallenged = false;
    this.isSteppingUp = false;
    this.failure = null;
    this.pending = null;
    this.emit({
      type: "token",
      grant,
      scopes: scopeSet(facts.grantedScope),
      expiresAt: facts.expiresAt?.toISOString() ?? null,
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.step = "authorization_request";
    const bad = endpointRefusal("the authorization endpoint", authorizationUrl.href);
    if (bad) throw this.fail("authorization_request", bad);
    if (authorizationUrl.searchParams.get("code_challenge_method") !== "S256")
      throw this.fail(
        "authorization_request",
        "the authorization request carries no S256 PKCE challenge",
      );
    const state = this.currentState;
    if (!state)
      throw this.fail("authorization_request", "no state was made for this authorization request");
    const stepUpBase = this.stepUpBase;
    this.stepUpBase = null;
    if (stepUpBase) {
      // SEP-2350: a step-up asks for what was asked before and what the challenge names, so the
      // wider grant does not drop the scopes the session already uses.
      const union = new Set([
        ...scopeSet(stepUpBase),
        ...scopeSet(authorizationUrl.searchParams.get("scope")),
      ]);
      authorizationUrl.searchParams.set("scope", [...union].join(" "));
    }
    this.requestedScope = authorizationUrl.searchParams.get("scope");
    this.pending = { authorizationUrl: authorizationUrl.href, state };
    this.emit({ type: "authorization_required", authorizationUrl: authorizationUrl.href });
    await this.options.redirect!.redirect(authorizationUrl, state);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.secrets.add(codeVerifier);
    if (!this.currentState) throw this.fail("authorization_request", "no state for this verifier");
    await this.options.storage.saveCodeVerifier(this.currentState, codeVerifier);
  }

  codeVerifier(): string {
    if (!this.exchangeVerifier)
      throw this.fail("token_request", "no PKCE verifier is at hand for this code exchange");
    return this.exchangeVerifier;
  }

  async invalidateCredentials(scope: OAuthInvalidateScope): Promise<void> {
    if (scope === "all" || scope === "discovery") this.discovered = null;
    await this.options.storage.invalidate(scope);
  }

  validateResourceURL(_serverUrl: string | URL, resource?: string): Promise<URL | undefined> {
    // Always sent (MCP 2025-11-25 requires the indicator), and only ever for this server.
    if (resource === undefined) return Promise.resolve(resourceOf(this.serverUrl));
    const bad = resourceRefusal(this.serverUrl, resource);
    if (bad) return Promise.reject(this.fail("resource_metadata", bad));
    return Promise.resolve(verbatimUrl(resource));
  }

  prepareTokenRequest(): Promise<URLSearchParams | undefined> {
    if (this.options.grant === "client_credentials") {
      const scope = selectScope(
        this.challengeScope,
        this.discovered?.resourceMetadata?.scopes_supported,
        this.options.fallbackScope,
      );
      return Promise.resolve(
        new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) }),
      );
    }
    if (this.redirectUrl) return Promise.resolve(undefined); // the SDK's authorization-code request
    // Headless, from a refresh token it was given.
    return this.loadTokens().then((stored) => {
      if (!stored?.refresh_token)
        throw this.fail("token_refresh", "there is no refresh token to use, and no user to ask");
      const as = this.discovered?.authorizationServerUrl;
      if (stored.issuer && as && !sameIssuer(stored.issuer, as))
        throw this.fail(
          "token_refresh",
          `the refresh token was issued by ${safeUrl(stored.issuer)}, and the server now names ${safeUrl(as)}; it is not sent there`,
        );
      return new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: stored.refresh_token,
      });
    });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.isRediscovering) return undefined;
    if (this.discovered) return this.discovered;
    const parsed = StoredDiscoverySchema.safeParse(await this.options.storage.loadDiscoveryState());
    if (!parsed.success) return undefined;
    const state = parsed.data as unknown as OAuthDiscoveryState; // safe: the fields read are checked above and in discoveryRefusal
    // Checked again: a policy may have changed since it was stored. A refused one is rediscovered.
    if (this.discoveryRefusal(state)) return undefined;
    this.discovered = state;
    return state;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    // A refusal during discovery is not swallowed by the SDK's fallbacks.
    const refusal = this.refusal;
    if (refusal) {
      this.refusal = null;
      throw refusal;
    }
    const bad = this.discoveryRefusal(state);
    if (bad) throw this.fail(bad.step, bad.reason);
    this.discovered = state;
    this.isRediscovering = false;
    this.step = "client_registration";
    await this.options.storage.saveDiscoveryState(state);
  }

  // ------------------------------------------------------------ the workbench's side

  pendingAuthorization(): { authorizationUrl: string; state: string } | null {
    return this.pending;
  }

  lastError(): OAuthStepError | null {
    return this.failure;
  }

  async grantedAuthorization(): Promise<GrantedAuthorization | null> {
    const stored = await this.loadTokens();
    if (!stored || !stored.access_token) return null;
    const expires = expiresAtMs(stored.obtained_at, stored.expires_in);
    return {
      issuer: stored.issuer ?? this.discovered?.authorizationServerUrl ?? null,
      subject: idTokenSubject(stored.id_token),
      scopes: scopeSet(stored.scope),
      scopeSource: stored.scope ? "response" : "none",
      expiresAt: expires === null ? null : new Date(expires).toISOString(),
    };
  }

  joinAuthorization(
    status: number,
    wwwAuthenticate: string | null,
    sentAuthorization: string | null,
  ): Promise<AuthorizationFailure | null> | null {
    if (this.flight) return this.flight.settled;
    if (this.savedAccessToken && sentAuthorization !== `Bearer ${this.savedAccessToken}`)
      return Promise.resolve(null);
    if (status === 401 || (status === 403 && isStepUp(challengeParams(wwwAuthenticate)))) {
      let settle!: (outcome: AuthorizationFailure | null) => void;
      const settled = new Promise<AuthorizationFailure | null>((r) => (settle = r));
      this.flight = { settled, settle };
    }
    return null;
  }

  endAuthorization(failure: AuthorizationFailure): void {
    this.settleFlight(failure);
  }

  /** The transport saw a 401/403 from the MCP endpoint: its challenge selects the scope. */
  noteChallenge(status: number, wwwAuthenticate: string | null, sentBearer = false): void {
    const params = challengeParams(wwwAuthenticate);
    // A token refused outright: where it should come from is read again, not taken from the cache.
    if (status === 401 && sentBearer) this.isRediscovering = true;
    if (params.scope) this.challengeScope = params.scope;
    this.isChallenged = true;
    this.isSteppingUp = status === 403 && isStepUp(params);
    if (this.isSteppingUp) this.stepUpBase = this.requestedScope;
    if (this.isSteppingUp && ++this.stepUps > this.limits.maxAuthorizations) {
      // Bounds the headless grants too (client credentials never reach state()): a server that
      // keeps asking for more scope mid-session is stopped before another token request.
      this.isSteppingUp = false;
      throw this.fail(
        "challenge",
        `the server asked to widen the grant ${this.stepUps} times in one session (limit ${this.limits.maxAuthorizations}); the scope it wants is never enough, so no further grant is requested`,
      );
    }
    this.step = "resource_metadata";
    this.emit({
      type: "challenge",
      status,
      scope: params.scope ?? null,
      resourceMetadataUrl: params.resourceMetadataUrl ? safeUrl(params.resourceMetadataUrl) : null,
    });
  }

  /**
   * The flow failure behind `error` (what the transport or the SDK threw while authorizing), or
   * null when `error` is not one. SDK errors are named by the step in progress, with any secret
   * this provider has seen redacted from their message.
   */
  describeFailure(error: unknown): OAuthStepError | null {
    if (error instanceof OAuthStepError) return this.redacted(error);
    if (
      error instanceof StreamableHTTPError &&
      (error.code === 401 || error.code === 403) &&
      !this.pending
    )
      return new OAuthStepError(
        "challenge",
        error.code === 403
          ? "the server still answers 403 insufficient_scope after the grant was renewed for the scope it named"
          : "the server refused the token it was just given (401 after a completed authorization)",
      );
    if (error instanceof UnauthorizedError || this.pending) {
      if (this.pending)
        return new OAuthStepError(
          "authorization_request",
          "the server needs a user's consent: open the authorization URL, approve, and the inspection runs again",
        );
      if (this.failure) return this.redacted(this.failure);
      return new OAuthStepError(
        "challenge",
        "the server refused the request as unauthorized after the flow",
      );
    }
    if (this.failure) return this.redacted(this.failure);
    if (!this.isChallenged) return null;
    const message = error instanceof Error ? error.message : String(error);
    return new OAuthStepError(this.step, redact(message, this.secrets));
  }

  /** Exchange a callback's code (see `completeAuthorization`). */
  async exchange(callback: AuthorizationCallback): Promise<CompleteAuthorizationResult> {
    const fail = (step: OAuthStep, reason: string): CompleteAuthorizationResult => ({
      ok: false,
      error: this.fail(step, reason),
    });
    for (const s of [callback.code, callback.codeVerifier, callback.state])
      if (s) this.secrets.add(s);
    if (callback.error)
      return fail(
        "authorization_response",
        `the authorization server answered ${JSON.stringify(callback.error.slice(0, 100))}${callback.errorDescription ? `: ${redact(callback.errorDescription, this.secrets, 200)}` : ""}`,
      );
    if (!callback.code) return fail("authorization_response", "the callback carries no code");
    if (this.pending && this.pending.state !== callback.state)
      return fail(
        "authorization_response",
        "the callback's state is not the one this request was sent with",
      );
    const discovery = await this.discoveryState();
    if (!discovery)
      return fail(
        "authorization_response",
        "no authorization server was discovered for this server; connect again",
      );
    const metadata = discovery.authorizationServerMetadata as
      { authorization_response_iss_parameter_supported?: unknown } | undefined;
    if (callback.iss == null && metadata?.authorization_response_iss_parameter_supported === true)
      // RFC 9207 §2.4: a server that says it names itself in every response and did not, here,
      // may not be the one the request went to.
      return fail(
        "authorization_response",
        "the authorization server advertises the iss parameter (RFC 9207), and this response carries none",
      );
    if (callback.iss != null) {
      // RFC 9207: a response from another authorization server than the one asked (a mix-up) is
      // refused. Against the metadata's issuer the comparison is exact (§2.4: simple string
      // comparison, no normalisation: a trailing slash or a case change is another issuer).
      const metadataIssuer = discovery.authorizationServerMetadata?.issuer;
      const issuer = metadataIssuer ?? discovery.authorizationServerUrl;
      const isSame =
        metadataIssuer !== undefined
          ? callback.iss === metadataIssuer
          : sameIssuer(callback.iss, issuer);
      if (!isSame)
        return fail(
          "authorization_response",
          `the response names issuer ${safeUrl(callback.iss)}, not ${safeUrl(issuer)} which the request went to`,
        );
    }
    if (callback.requestedScope !== undefined) this.requestedScope = callback.requestedScope;
    this.exchangeVerifier = callback.codeVerifier;
    this.step = "token_request";
    this.isChallenged = true;
    try {
      const result = await auth(this, {
        serverUrl: this.serverUrl,
        authorizationCode: callback.code,
        fetchFn: this.authFetch,
      });
      if (result !== "AUTHORIZED")
        return fail("token_request", "the code exchange did not authorize");
    } catch (error) {
      const failure = (this.failure = this.describeFailureOf(error));
      // The consent was answered and gave no token: requests waiting on it are refused too.
      this.settleFlight(failure);
      return { ok: false, error: failure };
    } finally {
      this.exchangeVerifier = null;
    }
    this.pending = null;
    const granted = await this.grantedAuthorization();
    return granted
      ? { ok: true, authorization: granted }
      : fail("token_request", "no token was stored after the exchange");
  }

  async revoke(): Promise<RevocationOutcome> {
    const outcome: RevocationOutcome = { endpoint: null, revoked: [], notRevoked: [] };
    let stored: StoredTokens | undefined;
    try {
      stored = await this.loadTokens();
    } catch (error) {
      // The stored state does not open: nothing can be sent, and the caller deletes it anyway.
      const reason = `the stored tokens could not be read (${redact(error instanceof Error ? error.message : String(error), this.secrets)})`;
      return { ...outcome, notRevoked: [{ token: "access_token", reason }] };
    }
    // The refresh token first: revoking it also ends the access tokens of its grant at most servers (RFC 7009 §2.1).
    const held: [RevocableToken, string][] = [];
    if (stored?.refresh_token) held.push(["refresh_token", stored.refresh_token]);
    if (stored?.access_token) held.push(["access_token", stored.access_token]);
    if (!stored || held.length === 0) return outcome;
    const notTold = (reason: string): RevocationOutcome => ({
      ...outcome,
      notRevoked: held.map(([token]) => ({ token, reason })),
    });
    let discovery: OAuthDiscoveryState | undefined;
    let client: OAuthClientInformationMixed | undefined;
    try {
      discovery = await this.discoveryState();
      client = await this.clientInformation();
    } catch (error) {
      return notTold(
        `the stored connection could not be read (${redact(error instanceof Error ? error.message : String(error), this.secrets)})`,
      );
    }
    const metadata = discovery?.authorizationServerMetadata;
    if (!discovery || !metadata)
      return notTold(
        "no authorization-server metadata is stored for this connection, so no revocation endpoint is known",
      );
    const as = discovery.authorizationServerUrl;
    if (stored.issuer && !sameIssuer(stored.issuer, as))
      return notTold(
        `the tokens were issued by ${safeUrl(stored.issuer)}, and the stored metadata is of ${safeUrl(as)}; they are not sent there`,
      );
    const revocation = RevocationMetadataSchema.safeParse(metadata);
    const endpoint = revocation.success ? revocation.data.revocation_endpoint : undefined;
    if (!endpoint)
      return notTold(
        `the authorization server ${safeUrl(as)} names no revocation_endpoint in its metadata (RFC 7009 is optional)`,
      );
    const bad = endpointRefusal("the revocation endpoint", endpoint);
    if (bad) return notTold(bad);
    if (!client)
      return notTold("no client registration is stored to authenticate the revocation request");
    outcome.endpoint = safeUrl(endpoint);
    const authMethods = revocation.data?.revocation_endpoint_auth_methods_supported ?? [];
    // Bounded: two requests at most, and none after the endpoint could not be reached at all
    // (a refusal, a network error, a time-out would only repeat, and Disconnect would wait twice).
    let unreachable: string | null = null;
    for (const [token, value] of held) {
      const r: { reason: string; isAnswer: boolean } | null =
        unreachable === null
          ? await this.revokeOne(endpoint, metadata, client, token, value, authMethods)
          : { reason: unreachable, isAnswer: false };
      if (r === null) outcome.revoked.push(token);
      else {
        outcome.notRevoked.push({ token, reason: r.reason });
        if (!r.isAnswer) unreachable = r.reason;
      }
    }
    return outcome;
  }

  /**
   * One RFC 7009 request: null when the endpoint accepted it, else why not (never the token) and
   * whether the endpoint answered at all.
   */
  private async revokeOne(
    endpoint: string,
    metadata: NonNullable<OAuthDiscoveryState["authorizationServerMetadata"]>,
    client: OAuthClientInformationMixed,
    hint: RevocableToken,
    token: string,
    authMethods: readonly string[],
  ): Promise<{ reason: string; isAnswer: boolean } | null> {
    const url = new URL(endpoint);
    const params = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "application/json",
    });
    try {
      if (this.addClientAuthentication)
        await this.addClientAuthentication(headers, params, url, metadata);
      else {
        // The method the registration (or the pre-registered secret) implies, as for the token requests.
        const method = selectClientAuthMethod(client, [...authMethods]);
        if (method === "client_secret_basic" && client.client_secret)
          headers.set(
            "Authorization",
            `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
          );
        else {
          params.set("client_id", client.client_id);
          if (method === "client_secret_post" && client.client_secret)
            params.set("client_secret", client.client_secret);
        }
      }
    } catch (error) {
      return {
        reason: `the client authentication could not be made (${redact(error instanceof Error ? error.message : String(error), this.secrets)})`,
        isAnswer: false,
      };
    }
    let res: Response;
    try {
      res = await this.authFetch(url, { method: "POST", headers, body: params });
    } catch (error) {
      if (error instanceof OAuthStepError)
        return { reason: redact(error.reason, this.secrets), isAnswer: false };
      const cause = (error as { cause?: { code?: unknown } } | null)?.cause?.code;
      return {
        reason: `${safeUrl(url)} could not be reached${typeof cause === "string" ? ` (${cause})` : ""}`,
        isAnswer: false,
      };
    }
    if (res.ok) {
      await res.body?.cancel().catch(() => {});
      return null;
    }
    let body = "";
    try {
      body = await res.text();
    } catch {
      // an unreadable or oversized error answer: the status says enough
    }
    return {
      reason: `${safeUrl(url)} answered HTTP ${res.status}${this.quoteOAuthError(body)}`,
      isAnswer: true,
    };
  }

  /** `: "error": description` from an OAuth error answer, clipped and redacted; "" when it is not one. */
  private quoteOAuthError(body: string): string {
    try {
      const o = JSON.parse(body) as { error?: unknown; error_description?: unknown };
      if (typeof o.error !== "string") return "";
      const description =
        typeof o.error_description === "string" && o.error_description
          ? `: ${redact(o.error_description, this.secrets, MAX_QUOTED_DESCRIPTION)}`
          : "";
      return ` ${JSON.stringify(redact(o.error.slice(0, 100), this.secrets))}${description}`;
    } catch {
      return "";
    }
  }

  // ------------------------------------------------------------ internals

  private fail(step: OAuthStep, reason: string): OAuthStepError {
    const error = new OAuthStepError(step, redact(reason, this.secrets));
    this.failure = error;
    this.settleFlight(error);
    return error;
  }

  private settleFlight(outcome: AuthorizationFailure | null): void {
    this.flight?.settle(outcome);
    this.flight = null;
  }

  private redacted(error: OAuthStepError): OAuthStepError {
    const reason = redact(error.reason, this.secrets);
    return reason === error.reason ? error : new OAuthStepError(error.step, reason);
  }

  private emit(event: OAuthEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch {
      // a failing listener must not break the flow
    }
  }

  private announce(how: "pre-registered" | "metadata-document" | "dynamic", clientId: string) {
    if (this.announcedClient === clientId) return;
    this.announcedClient = clientId;
    this.emit({ type: "registered", how, clientId });
  }

  private classify(url: URL, init: RequestInit | undefined): OAuthStep {
    if ((init?.method ?? "GET").toUpperCase() === "POST") {
      if (init?.body instanceof URLSearchParams) {
        const grant = init.body.get("grant_type");
        if (grant === null && init.body.has("token")) return "token_revocation";
        return grant === "refresh_token"
          ? "token_refresh"
          : grant === "client_credentials"
            ? "client_credentials"
            : "token_request";
      }
      return "client_registration";
    }
    return /\/\.well-known\/(oauth-authorization-server|openid-configuration)/.test(url.pathname)
      ? "authorization_server_metadata"
      : "resource_metadata";
  }

  private onRequest(step: OAuthStep, url: URL, init: RequestInit | undefined): void {
    this.step = step;
    if (init?.body instanceof URLSearchParams) {
      const body = init.body;
      for (const k of [
        "token",
        "code",
        "code_verifier",
        "refresh_token",
        "client_secret",
        "client_assertion",
      ]) {
        const v = body.get(k);
        if (v) this.secrets.add(v);
      }
      const grant = body.get("grant_type");
      if (
        grant === "authorization_code" ||
        grant === "refresh_token" ||
        grant === "client_credentials"
      )
        this.lastTokenRequest = { grant, scope: body.get("scope") };
    }
    this.emit({ type: "fetch", step, url: safeUrl(url) });
  }

  private async loadTokens(): Promise<StoredTokens | undefined> {
    const parsed = StoredTokensSchema.safeParse(await this.options.storage.loadTokens());
    if (!parsed.success) return undefined;
    const t = parsed.data as StoredTokens;
    for (const s of [t.access_token, t.refresh_token, t.id_token]) if (s) this.secrets.add(s);
    return t;
  }

  private needsRefresh(stored: StoredTokens): boolean {
    const canRenew = !!stored.refresh_token || this.options.grant === "client_credentials";
    if (!canRenew) return false;
    if (!stored.access_token) return true;
    const expires = expiresAtMs(stored.obtained_at, stored.expires_in);
    return (
      expires !== null &&
      this.now() >= expires - (this.options.refreshSkewMs ?? DEFAULT_REFRESH_SKEW_MS)
    );
  }

  /** One refresh at a time; a failure is recorded, and the request goes on (a 401 then re-authorizes). */
  private refreshOnce(): Promise<void> {
    this.refreshing ??= (async () => {
      this.internalAuth++;
      try {
        await auth(this, { serverUrl: this.serverUrl, fetchFn: this.authFetch });
      } catch (error) {
        if (!(error instanceof NeedsConsent)) this.failure = this.describeFailureOf(error);
      } finally {
        this.internalAuth--;
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private describeFailureOf(error: unknown): OAuthStepError {
    if (error instanceof OAuthStepError) return this.redacted(error);
    const message = error instanceof Error ? error.message : String(error);
    return new OAuthStepError(this.step, redact(message, this.secrets));
  }

  /** The first refusal among a discovery result's URLs and identities, or null. */
  private discoveryRefusal(state: OAuthDiscoveryState): { step: OAuthStep; reason: string } | null {
    const as = state.authorizationServerUrl;
    const asBad = endpointRefusal("the authorization server", as);
    if (asBad) return { step: "authorization_server_metadata", reason: asBad };
    if (state.resourceMetadata) {
      const bad = resourceRefusal(this.serverUrl, state.resourceMetadata.resource);
      if (bad) return { step: "resource_metadata", reason: bad };
    }
    const expected = this.options.expectedIssuer;
    if (expected && !sameIssuer(expected, as))
      return {
        step: "authorization_server_metadata",
        reason: `the server's resource metadata names authorization server ${safeUrl(as)}, and this client's credentials are for ${safeUrl(expected)} only`,
      };
    const md = state.authorizationServerMetadata;
    if (!md) return null; // the 2025-03-26 fallback: /authorize, /token, /register on the checked URL
    const issuerBad = issuerRefusal(as, md.issuer);
    if (issuerBad) return { step: "authorization_server_metadata", reason: issuerBad };
    const endpoints: [string, string | undefined][] = [
      ["authorization endpoint", md.authorization_endpoint],
      ["token endpoint", md.token_endpoint],
      ["registration endpoint", md.registration_endpoint],
    ];
    for (const [what, url] of endpoints) {
      if (url === undefined) continue;
      const bad = endpointRefusal(`the ${what}`, url);
      if (bad) return { step: "authorization_server_metadata", reason: bad };
    }
    if (
      this.options.grant === "authorization_code" &&
      !(md.code_challenge_methods_supported ?? []).includes("S256")
    )
      return {
        step: "authorization_server_metadata",
        reason:
          "the authorization server does not advertise PKCE S256 (code_challenge_methods_supported); the spec forbids proceeding without it",
      };
    return null;
  }
}

/**
 * Exchange an authorization callback's code for tokens through `client` (PKCE verifier, resource
 * indicator, the discovered token endpoint), after checking `iss` and the state. Never throws.
 */
export async function completeAuthorization(
  client: McpOAuthClient,
  callback: AuthorizationCallback,
): Promise<CompleteAuthorizationResult> {
  if (!(client instanceof McpOAuthProvider))
    return {
      ok: false,
      error: new OAuthStepError(
        "authorization_response",
        "not a provider made by createOAuthProvider",
      ),
    };
  try {
    return await client.exchange(callback);
  } catch (error) {
    return {
      ok: false,
      error: new OAuthStepError(
        "token_request",
        error instanceof Error ? error.message : String(error),
      ),
    };
  }
}
