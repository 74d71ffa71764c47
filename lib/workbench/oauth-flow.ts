import "server-only";
/**
 * Connect in the web app, through the OAuth client provider of lib/mcp/oauth with the sealed
 * storage of lib/workbench/oauth.ts:
 * - start: a flow row binds a fresh `state` to the owner's session cookie (by hash) and receives
 *   the PKCE verifier; the provider builds the authorization URL (discovery, registration, PKCE
 *   S256, resource indicator, scope) and the browser is sent there;
 * - finish (/oauth/finish, reached through /oauth/callback): the flow is consumed once for the
 *   same session before it expires, the server must still have the URL Connect was started for,
 *   and the code is exchanged; the tokens are sealed into the store;
 * - disconnect: the stored tokens are revoked at the authorization server (RFC 7009) when it has a
 *   revocation endpoint and answers, and deleted from the store whatever it said.
 * Every URL the provider fetches goes through the same egress guard and pinned fetch as the
 * inspection (lib/mcp/node/resolve-target.ts).
 */
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { ReviewId, ServerId } from "@/lib/ids";
import { LOOPBACK_HOSTS } from "@/lib/auth/check";
import { cookieHostRefusal, sessionCookieHosts } from "@/lib/auth/cookie-hosts";
import { isSecureRequest } from "@/lib/auth/session";
import { clientMetadataDocument } from "@/lib/mcp/oauth/client-metadata";
import { safeUrl } from "@/lib/mcp/oauth/checks";
import type {
  AuthorizationRedirect,
  McpOAuthClient,
  RevocableToken,
  RevocationOutcome,
} from "@/lib/mcp/oauth/interface";
import { completeAuthorization, createOAuthProvider } from "@/lib/mcp/oauth/provider";
import { inspectServer } from "@/lib/mcp/node/inspect";
import { resolveInspectTarget, type Env } from "@/lib/mcp/node/resolve-target";
import type { InspectTarget } from "@/lib/mcp/types";
import type { RelayServer } from "@/lib/review/schema";
import { getSecretKey } from "@/lib/secrets/key";
import { openSecrets } from "@/lib/store/secrets";
import type { Db } from "@/lib/store/db";
import {
  consumeOAuthFlow,
  createOAuthFlow,
  deleteOAuthState,
  listOAuthConnections,
  type OAuthServerRef,
} from "@/lib/store/oauth";
import {
  OAUTH_CALLBACK_PATH,
  OAUTH_CLIENT_METADATA_PATH,
  type OAuthDisconnectResponse,
} from "@/lib/workbench/oauth-api";
import {
  FLOW_REFUSAL_TEXT,
  StoredOAuthState,
  oauthKeyOrThrow,
  oauthResourceUrl,
} from "@/lib/workbench/oauth";
import { loadReviewServer } from "@/lib/workbench/surface";

type HttpTarget = Extract<InspectTarget, { kind: "http" }>;

/**
 * The workbench's own origin as the browser reaches it: the Host header the proxy checked against
 * the allowed hosts (Next's `request.url` may name another loopback name, and a redirect_uri on
 * `localhost` would come back without the cookie set for `127.0.0.1`).
 */
export function publicOrigin(request: Request): string {
  const url = new URL(request.url);
  const host = request.headers.get("host");
  const scheme = isSecureRequest(request) ? "https:" : url.protocol;
  return host ? new URL(`${scheme}//${host}`).origin : `${scheme}//${url.host}`;
}

export const callbackUrl = (origin: string) => `${origin}${OAUTH_CALLBACK_PATH}`;

/** The Client ID Metadata Document's URL: only over https (authorization servers fetch no other). */
export function metadataDocumentUrl(origin: string): string | null {
  return origin.startsWith("https://") ? `${origin}${OAUTH_CLIENT_METADATA_PATH}` : null;
}

/** The document itself, or null when the workbench is not served over https. */
export function clientMetadataFor(origin: string) {
  const url = metadataDocumentUrl(origin);
  return url ? clientMetadataDocument({ url, redirectUris: [callbackUrl(origin)] }) : null;
}

/** A state no one can guess: 256 random bits. */
const newState = () => randomBytes(32).toString("base64url");

export type ProviderMode =
  /** An inspection: stored tokens are used and refreshed; a consent it would need is never finished. */
  | { kind: "inspect" }
  /** Connect: a new authorization, its state bound to the owner's session. */
  | { kind: "connect"; sessionCookieValue: string };

/** The provider for one HTTP target of one review server. */
export function oauthProviderFor(
  db: Db,
  key: Buffer,
  ref: OAuthServerRef,
  resourceUrl: string,
  target: HttpTarget,
  origin: string,
  mode: ProviderMode,
): { provider: McpOAuthClient; redirected: () => string | null } {
  let authorizationUrl: string | null = null;
  const redirect: AuthorizationRedirect = {
    redirectUrl: callbackUrl(origin),
    async newState() {
      const state = newState();
      if (mode.kind === "connect")
        await createOAuthFlow(db, key, {
          ...ref,
          state,
          resourceUrl,
          sessionCookieValue: mode.sessionCookieValue,
        });
      return state;
    },
    redirect(url) {
      authorizationUrl = url.href;
      return Promise.resolve();
    },
  };
  const metadataUrl = metadataDocumentUrl(origin);
  const provider = createOAuthProvider({
    serverUrl: target.url,
    storage: new StoredOAuthState(db, key, ref, resourceUrl, {
      acceptsVerifier: mode.kind === "connect",
      ignoresStoredTokens: mode.kind === "connect",
    }),
    grant: "authorization_code",
    redirect,
    ...(metadataUrl ? { client: { metadataDocumentUrl: metadataUrl } } : {}),
    ...(target.fetch ? { fetch: target.fetch } : {}),
    egress: target.egress ?? null,
  });
  return { provider, redirected: () => authorizationUrl };
}

async function resolveHttpTarget(
  db: Db,
  key: Buffer,
  server: RelayServer,
  env: Env,
): Promise<HttpTarget> {
  const resolved = await resolveInspectTarget(server, env, {
    secrets: (names) => openSecrets(db, key, names),
  });
  if (!resolved.ok) throw new AppError("CONFLICT", resolved.error.message);
  if (resolved.target.kind !== "http")
    throw new AppError("BAD_REQUEST", "only an HTTP server can be connected over OAuth");
  return resolved.target;
}

/**
 * Connect: the authorization URL to send the owner's browser to. Refused without a session
 * cookie (the state must be bound to one), for a server that is not HTTP, when the server did
 * not ask for authorization, or when the URL is on a host of the workbench (any port): the
 * browser would hand that server the session cookie (lib/auth/cookie-hosts.ts).
 */
export async function beginConnect(
  db: Db,
  input: {
    reviewId: ReviewId;
    serverId: ServerId;
    origin: string;
    sessionCookieValue: string | null;
    /** The hosts the workbench answers for (lib/auth/check.ts); default: the loopback names. */
    allowedHosts?: readonly string[];
    env?: Env;
  },
): Promise<{ authorizationUrl: string }> {
  if (!input.sessionCookieValue)
    throw new AppError(
      "BAD_REQUEST",
      "Connect binds the authorization to the owner's browser session; sign in in the browser and click Connect there",
    );
  const key = oauthKeyOrThrow();
  const { server } = await loadReviewServer(db, input.reviewId, input.serverId);
  const resourceUrl = oauthResourceUrl(server);
  if (resourceUrl === null)
    throw new AppError("BAD_REQUEST", "only an HTTP server can be connected over OAuth");
  const target = await resolveHttpTarget(db, key, server, input.env ?? process.env);
  const { provider, redirected } = oauthProviderFor(
    db,
    key,
    { reviewId: input.reviewId, serverId: server.id },
    resourceUrl,
    target,
    input.origin,
    { kind: "connect", sessionCookieValue: input.sessionCookieValue },
  );
  const result = await inspectServer({ ...target, auth: provider });
  const url = redirected() ?? provider.pendingAuthorization()?.authorizationUrl ?? null;
  if (url) {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:")
      throw new AppError("UPSTREAM_FAILED", "the authorization server's URL is not http(s)");
    const refusal = cookieHostRefusal(
      parsed,
      sessionCookieHosts(input.allowedHosts ?? LOOPBACK_HOSTS, input.origin),
      "The authorization server's address",
    );
    if (refusal) throw new AppError("CONFLICT", refusal);
    return { authorizationUrl: parsed.href };
  }
  if (result.ok)
    throw new AppError(
      "CONFLICT",
      "the server answered without asking for authorization; there is nothing to connect",
    );
  throw new AppError("UPSTREAM_FAILED", result.error.message);
}

export type FinishOutcome =
  | { ok: true; reviewId: string; serverId: string }
  | { ok: false; status: number; title: string; message: string; reviewId?: string };

const MAX_PARAM_CHARS = 2048;

/** /oauth/finish: consume the flow for this session, then exchange the code. Never throws. */
export async function finishConnect(
  db: Db,
  input: {
    params: URLSearchParams;
    sessionCookieValue: string | null;
    /** This workbench's origin: the redirect_uri of the token request is the authorization request's. */
    origin: string;
    env?: Env;
  },
): Promise<FinishOutcome> {
  const param = (name: string) => {
    const v = input.params.get(name);
    return v !== null && v.length <= MAX_PARAM_CHARS ? v : null;
  };
  const state = param("state");
  if (!state || !input.sessionCookieValue)
    return {
      ok: false,
      status: 400,
      title: "Connection refused",
      message: state
        ? "This page needs the owner's browser session; sign in and start again with Connect."
        : "This authorization response carries no state. Nothing was stored.",
    };
  const key = getSecretKey();
  if (!key.ok) return { ok: false, status: 409, title: "Connection refused", message: key.message };
  const flow = await consumeOAuthFlow(db, key.key, state, input.sessionCookieValue);
  if (!flow.ok)
    return {
      ok: false,
      status: 400,
      title: "Connection refused",
      message: FLOW_REFUSAL_TEXT[flow.reason],
    };
  const { reviewId, serverId } = flow.ref;
  try {
    const { server } = await loadReviewServer(db, reviewId as ReviewId, serverId as ServerId);
    if (oauthResourceUrl(server) !== flow.resourceUrl)
      return {
        ok: false,
        status: 409,
        reviewId,
        title: "Connection refused",
        message:
          "The server's URL changed after Connect was started; no token was requested. Connect again.",
      };
    const target = await resolveHttpTarget(db, key.key, server, input.env ?? process.env);
    const { provider } = oauthProviderFor(
      db,
      key.key,
      flow.ref,
      flow.resourceUrl,
      target,
      input.origin,
      { kind: "inspect" },
    );
    const code = param("code");
    const result = await completeAuthorization(provider, {
      code: code ?? "",
      state,
      codeVerifier: flow.codeVerifier,
      iss: param("iss"),
      error: param("error") ?? (code ? null : "invalid_request"),
      errorDescription: param("error_description"),
    });
    if (!result.ok)
      return {
        ok: false,
        status: 502,
        reviewId,
        title: "Connection failed",
        message: result.error.message,
      };
    return { ok: true, reviewId, serverId };
  } catch (error) {
    return {
      ok: false,
      status: error instanceof AppError ? error.status : 500,
      reviewId,
      title: "Connection failed",
      message:
        error instanceof AppError ? error.userMessage : "the workbench failed to finish Connect",
    };
  }
}

const TOKEN_NAME: Record<RevocableToken, string> = {
  refresh_token: "the refresh token",
  access_token: "the access token",
};
const both = (tokens: readonly RevocableToken[]) => tokens.map((t) => TOKEN_NAME[t]).join(" and ");

/** Disconnect's answer and the card's sentence, from what revocation achieved. Pure. */
export function disconnectResponse(
  outcome: RevocationOutcome,
  deleted: boolean,
): OAuthDisconnectResponse {
  const { endpoint, revoked, notRevoked } = outcome;
  const at = endpoint ? ` (${endpoint})` : "";
  const base = { deleted, endpoint, revoked, notRevoked };
  if (notRevoked.length === 0 && revoked.length === 0)
    return {
      ...base,
      revocation: "nothing_stored",
      message: deleted
        ? "Disconnected. No token was stored, so there was nothing to revoke; the client registration was deleted."
        : "Nothing was stored for this server: there was nothing to revoke or delete.",
    };
  if (notRevoked.length === 0)
    return {
      ...base,
      revocation: "revoked",
      message: `Disconnected. The authorization server${at} revoked ${both(revoked)}, and the workbench deleted them.`,
    };
  const reasons = [...new Set(notRevoked.map((n) => n.reason))];
  const why =
    reasons.length === 1
      ? reasons[0]!
      : notRevoked.map((n) => `${TOKEN_NAME[n.token]}: ${n.reason}`).join("; ");
  const what = revoked.length
    ? `It revoked ${both(revoked)}, and was not told to revoke ${both(notRevoked.map((n) => n.token))}`
    : "The authorization server was not told to revoke them";
  return {
    ...base,
    revocation: "not_told",
    message: `Disconnected: the workbench deleted its tokens. ${what}: ${why}. A token it was not told about stays valid there until it expires; revoke the grant at the authorization server if that matters.`,
  };
}

/** Ask the authorization server to revoke what is stored for the server; never throws. */
async function revokeStored(
  db: Db,
  ref: OAuthServerRef,
  server: RelayServer,
  origin: string,
  env: Env,
): Promise<RevocationOutcome> {
  const [row] = (await listOAuthConnections(db, ref.reviewId)).filter(
    (c) => c.serverId === ref.serverId,
  );
  const notTold = (reason: string): RevocationOutcome => ({
    endpoint: null,
    revoked: [],
    notRevoked: [{ token: "access_token", reason }],
  });
  if (!row?.isConnected) return { endpoint: null, revoked: [], notRevoked: [] };
  const key = getSecretKey();
  if (!key.ok) return notTold(`the stored tokens cannot be opened: ${key.message}`);
  const resourceUrl = oauthResourceUrl(server);
  if (resourceUrl !== row.resourceUrl)
    return notTold(
      `the server's URL changed since Connect (the tokens were obtained for ${safeUrl(row.resourceUrl)}), so they are not sent anywhere`,
    );
  try {
    const target = await resolveHttpTarget(db, key.key, server, env);
    const { provider } = oauthProviderFor(db, key.key, ref, resourceUrl, target, origin, {
      kind: "inspect",
    });
    return await provider.revoke();
  } catch (error) {
    return notTold(
      error instanceof AppError ? error.userMessage : "the workbench failed to prepare the request",
    );
  }
}

/**
 * Disconnect: revoke the stored tokens at the authorization server (RFC 7009, through the same
 * egress guard and limits as the rest of the flow), then delete the server's OAuth state (tokens
 * and registration) whatever the authorization server said, and say what it was told.
 */
export async function disconnectServer(
  db: Db,
  input: { reviewId: ReviewId; serverId: ServerId; origin: string; env?: Env },
): Promise<OAuthDisconnectResponse> {
  const { server } = await loadReviewServer(db, input.reviewId, input.serverId);
  const ref = { reviewId: input.reviewId, serverId: server.id };
  let outcome: RevocationOutcome;
  try {
    outcome = await revokeStored(db, ref, server, input.origin, input.env ?? process.env);
  } catch {
    outcome = {
      endpoint: null,
      revoked: [],
      notRevoked: [
        { token: "access_token", reason: "the workbench failed to read the stored state" },
      ],
    };
  }
  // The tokens never outlive a Disconnect, whatever revocation did.
  const deleted = await deleteOAuthState(db, ref);
  return disconnectResponse(outcome, deleted);
}
