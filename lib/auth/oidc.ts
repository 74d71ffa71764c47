import "server-only";
/**
 * Sign-in with the organisation's OpenID Connect provider: authorization code with PKCE, a state
 * and a nonce, through `openid-client` (a certified relying party). Configured by environment:
 *
 * - RELAY_REVIEW_OIDC_ISSUER        the issuer URL (https; http only for a loopback issuer, the demo and tests)
 * - RELAY_REVIEW_OIDC_CLIENT_ID     the client id registered for this workbench
 * - RELAY_REVIEW_OIDC_CLIENT_SECRET the client secret, or
 *   RELAY_REVIEW_OIDC_CLIENT_SECRET_NAME the name of a secret in the workbench's secret store
 *   (neither: a public client, PKCE only)
 * - RELAY_REVIEW_OIDC_GROUPS_CLAIM  the claim that lists a person's groups (default `groups`)
 * - RELAY_REVIEW_OIDC_ROLE_MAP      `group=role,…` (roles: viewer, reviewer, approver, admin)
 * - RELAY_REVIEW_OIDC_DEFAULT_ROLE  the role of a person in no mapped group (default: none; an
 *   admin assigns one on the People page)
 *
 * Without RELAY_REVIEW_OIDC_ISSUER nothing here is used: the workbench is the owner's alone, as before.
 * The redirect URI is `<the workbench's origin>/api/auth/oidc/callback`.
 */
import * as client from "openid-client";
import { parseRoleMap } from "@/lib/auth/people";
import { isRole, type Role } from "@/lib/auth/roles";
import { getSecretKey } from "@/lib/secrets/key";
import type { Db } from "@/lib/store/db";
import { openSecrets } from "@/lib/store/secrets";

export const OIDC_START_PATH = "/api/auth/oidc/start";
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";

export interface OidcSettings {
  issuer: URL;
  clientId: string;
  clientSecret: { env: string } | { name: string } | null;
  groupsClaim: string;
  roleMap: Map<string, Role>;
  defaultRole: Role | null;
}

function isLoopback(url: URL): boolean {
  return ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/** The configuration from the environment, or null when no IdP is configured. Throws on a bad one. */
export function oidcSettings(env: NodeJS.ProcessEnv = process.env): OidcSettings | null {
  const issuerText = env.RELAY_REVIEW_OIDC_ISSUER?.trim();
  if (!issuerText) return null;
  const issuer = new URL(issuerText);
  if (issuer.protocol !== "https:" && !(issuer.protocol === "http:" && isLoopback(issuer)))
    throw new Error("RELAY_REVIEW_OIDC_ISSUER must be https (http only on loopback)");
  const clientId = env.RELAY_REVIEW_OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new Error("RELAY_REVIEW_OIDC_CLIENT_ID is required with an issuer");
  const secretEnv = env.RELAY_REVIEW_OIDC_CLIENT_SECRET;
  const secretName = env.RELAY_REVIEW_OIDC_CLIENT_SECRET_NAME?.trim();
  const defaultRole = env.RELAY_REVIEW_OIDC_DEFAULT_ROLE?.trim() || null;
  if (defaultRole !== null && !isRole(defaultRole))
    throw new Error("RELAY_REVIEW_OIDC_DEFAULT_ROLE must be viewer, reviewer, approver or admin");
  return {
    issuer,
    clientId,
    clientSecret: secretEnv ? { env: secretEnv } : secretName ? { name: secretName } : null,
    groupsClaim: env.RELAY_REVIEW_OIDC_GROUPS_CLAIM?.trim() || "groups",
    roleMap: parseRoleMap(env.RELAY_REVIEW_OIDC_ROLE_MAP),
    defaultRole,
  };
}

export function oidcEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.RELAY_REVIEW_OIDC_ISSUER?.trim());
}

async function clientSecretOf(db: Db, s: OidcSettings): Promise<string | null> {
  if (s.clientSecret === null) return null;
  if ("env" in s.clientSecret) return s.clientSecret.env;
  const key = getSecretKey();
  if (!key.ok)
    throw new Error(
      "the secret store's key is unavailable, so the OIDC client secret cannot be read",
    );
  const opened = await openSecrets(db, key.key, [s.clientSecret.name]);
  if (!opened.ok) throw new Error(opened.message);
  const value = opened.values.get(s.clientSecret.name);
  if (value === undefined)
    throw new Error(`the secret ${s.clientSecret.name} (the OIDC client secret) is not set`);
  return value;
}

let cached: { key: string; config: Promise<client.Configuration> } | null = null;

/** The provider's discovered configuration, fetched once per issuer and client. */
export async function oidcClient(db: Db, s: OidcSettings): Promise<client.Configuration> {
  const secret = await clientSecretOf(db, s);
  const key = JSON.stringify([s.issuer.href, s.clientId, secret]);
  if (cached?.key !== key) {
    const config = client.discovery(
      s.issuer,
      s.clientId,
      undefined,
      secret === null ? client.None() : client.ClientSecretPost(secret),
      isLoopback(s.issuer) ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    cached = { key, config };
    // A failed discovery is retried on the next sign-in, not remembered.
    config.catch(() => {
      if (cached?.key === key) cached = null;
    });
  }
  return cached.config;
}

/**
 * The workbench's origin as the browser sees it: the Host header (the proxy admitted it against
 * the allowed hosts) and https when the request came over it. `request.url` is not it under
 * `next start` (Next rebuilds it from its own listening address).
 */
export function publicOrigin(request: Request): string {
  const host = request.headers.get("host") ?? new URL(request.url).host;
  const https =
    new URL(request.url).protocol === "https:" ||
    request.headers.get("x-forwarded-proto") === "https";
  return `${https ? "https" : "http"}://${host}`;
}

export interface LoginStart {
  url: URL;
  codeVerifier: string;
  state: string;
  nonce: string;
}

export async function startLogin(
  config: client.Configuration,
  redirectUri: string,
  s: OidcSettings,
): Promise<LoginStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: s.groupsClaim === "groups" ? "openid profile email groups" : "openid profile email",
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { url, codeVerifier, state, nonce };
}

/** Exchanges the code (checking state, nonce and PKCE) and returns the ID token's claims merged with userinfo. */
export async function finishLogin(
  config: client.Configuration,
  currentUrl: URL,
  checks: { codeVerifier: string; state: string; nonce: string },
  redirectUri: string,
): Promise<Record<string, unknown>> {
  const tokens = await client.authorizationCodeGrant(
    config,
    currentUrl,
    {
      pkceCodeVerifier: checks.codeVerifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    },
    { redirect_uri: redirectUri },
  );
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider returned no ID token");
  let info: Record<string, unknown> = {};
  try {
    info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
  } catch {
    // userinfo is optional; the ID token's claims suffice
  }
  return { ...info, ...claims };
}
