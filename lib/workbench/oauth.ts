import "server-only";
import { isRemoteTransport } from "@/lib/transport-kind";
/**
 * The server card's OAuth glue: the storage the OAuth client provider (lib/mcp) reads and writes
 * for one review server, over lib/store/oauth.ts; what the card shows; and the texts of the
 * callback's refusal pages. State is keyed by the review's own URL for the server (with any
 * `${NAME}` left as a name), never by a URL with a secret substituted in, and is handed out only
 * while the server still has that URL.
 */
import { AppError } from "@/lib/errors";
import type {
  OAuthClientInformationMixed,
  OAuthDiscoveryState,
  OAuthInvalidateScope,
  OAuthStorage,
  StoredTokens,
  TokenFacts,
} from "@/lib/mcp/oauth/interface";
import type { InspectError } from "@/lib/mcp/types";
import type { RelayServer } from "@/lib/review/schema";
import { getSecretKey } from "@/lib/secrets/key";
import type { Db } from "@/lib/store/db";
import {
  invalidateOAuthState,
  listOAuthConnections,
  loadOAuthState,
  saveOAuthClient,
  saveOAuthDiscovery,
  saveFlowVerifier,
  saveOAuthTokens,
  type FlowRefusal,
  type OAuthServerRef,
} from "@/lib/store/oauth";
import { latestInspection } from "@/lib/store/snapshots";
import type { OAuthConnectionState } from "@/lib/workbench/oauth-api";
import { storedInspectError } from "@/lib/workbench/surface";

/** The URL OAuth state is bound to: the review's URL for an HTTP server, or null for others. */
export function oauthResourceUrl(server: RelayServer): string | null {
  const t = server.transport;
  return isRemoteTransport(t) ? t.url : null;
}

/** The secret store's key, or a 409 saying how to give the workbench one. */
export function oauthKeyOrThrow(): Buffer {
  const key = getSecretKey();
  if (!key.ok)
    throw new AppError(
      "CONFLICT",
      `OAuth tokens are stored encrypted with the secret store's key, and there is none: ${key.message}`,
    );
  return key.key;
}

/** An inspection refused for want of authorization: HTTP 401 from the server, however worded. */
export function isAuthorizationRequired(error: InspectError | null): boolean {
  if (!error) return false;
  return (
    error.code === "unauthorized" ||
    /\b401\b|unauthori[sz]ed|authorization (?:is )?required/i.test(error.message)
  );
}

/**
 * The storage behind one server's OAuth client provider (lib/mcp/oauth OAuthStorage), over the
 * sealed rows of lib/store/oauth.ts. The version read last is remembered, so an invalidation after
 * a failed refresh does not wipe tokens another instance saved meanwhile. `flows`: when set, the
 * PKCE verifier of an authorization request goes to the flow Connect opened for its state; when
 * not (an ordinary inspection), it is dropped, so an authorization URL an inspection produced can
 * never be finished.
 */
export class StoredOAuthState implements OAuthStorage {
  private version: number | undefined;

  constructor(
    private readonly db: Db,
    private readonly key: Buffer,
    readonly ref: OAuthServerRef,
    readonly resourceUrl: string,
    private readonly options: { acceptsVerifier?: boolean; ignoresStoredTokens?: boolean } = {},
  ) {}

  private async load() {
    const r = await loadOAuthState(this.db, this.key, this.ref, this.resourceUrl);
    if (!r.ok) throw new Error(r.message);
    this.version = r.state?.version;
    return r.state;
  }

  async loadClientInformation(): Promise<unknown> {
    return (await this.load())?.clientInformation ?? undefined;
  }
  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    await saveOAuthClient(this.db, this.key, this.ref, this.resourceUrl, info);
  }
  async loadTokens(): Promise<unknown> {
    // Connect asks for a new authorization even when a token is stored (Reconnect).
    if (this.options.ignoresStoredTokens) return undefined;
    return (await this.load())?.tokens ?? undefined;
  }
  async saveTokens(tokens: StoredTokens, facts: TokenFacts): Promise<void> {
    const isNew = facts.grant !== "refresh_token";
    let subject = facts.subject;
    if (!isNew && subject === null) {
      // A refresh response carries no id_token: who connected stays who authorized.
      const [kept] = (await listOAuthConnections(this.db, this.ref.reviewId)).filter(
        (c) => c.serverId === this.ref.serverId && c.resourceUrl === this.resourceUrl,
      );
      subject = kept?.subject ?? null;
    }
    await saveOAuthTokens(
      this.db,
      this.key,
      this.ref,
      this.resourceUrl,
      tokens,
      {
        issuer: facts.issuer,
        subject,
        grantedScope: facts.grantedScope,
        expiresAt: facts.expiresAt,
      },
      { connected: isNew },
    );
  }
  async loadDiscoveryState(): Promise<unknown> {
    return (await this.load())?.discovery ?? undefined;
  }
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await saveOAuthDiscovery(this.db, this.key, this.ref, this.resourceUrl, state);
  }
  async saveCodeVerifier(state: string, codeVerifier: string): Promise<void> {
    if (this.options.acceptsVerifier)
      await saveFlowVerifier(this.db, this.key, state, codeVerifier);
  }
  async invalidate(scope: OAuthInvalidateScope): Promise<void> {
    await invalidateOAuthState(this.db, this.ref, scope, {
      ...(this.version === undefined ? {} : { ifVersion: this.version }),
    });
  }
}

/** What the card shows for one server. */
export async function oauthConnectionState(
  db: Db,
  reviewId: string,
  server: RelayServer,
): Promise<OAuthConnectionState> {
  const url = oauthResourceUrl(server);
  if (url === null)
    return { state: "unavailable", reason: "only an HTTP server can be connected over OAuth" };
  const [connection] = (await listOAuthConnections(db, reviewId)).filter(
    (c) => c.serverId === server.id && c.resourceUrl === url && c.isConnected,
  );
  if (connection)
    return {
      state: "connected",
      issuer: connection.issuer,
      subject: connection.subject,
      scopes: connection.scopes,
      expiresAt: connection.expiresAt,
      connectedAt: connection.connectedAt,
    };
  const latest = await latestInspection(db, reviewId, server.id);
  const isRequired =
    latest?.status === "failed" && isAuthorizationRequired(storedInspectError(latest.error));
  const key = getSecretKey();
  if (isRequired && !key.ok) return { state: "unavailable", reason: key.message };
  return { state: "not_connected", isRequired };
}

/** The refusal page's text for a callback whose state does not finish a flow. */
export const FLOW_REFUSAL_TEXT: Record<FlowRefusal, string> = {
  unknown:
    "This authorization response does not belong to any Connect started on this workbench. Nothing was stored. Start again with Connect on the server card.",
  expired:
    "This authorization took longer than the 10 minutes a Connect stays open. Nothing was stored. Start again with Connect on the server card.",
  replayed:
    "This authorization response was already used. A response is accepted once; nothing more was stored.",
  other_session:
    "This authorization was started from another browser session of the owner. Finish it there, or start again with Connect here.",
  unreadable:
    "This authorization's stored verifier does not open with this instance's key. Nothing was stored. Start again with Connect.",
};
