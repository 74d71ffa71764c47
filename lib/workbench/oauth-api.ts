/**
 * Request and response shapes of the server card's OAuth routes, shared by the route handlers and
 * the browser fetchers. No token, no client secret and no verifier is ever part of a response:
 * the card learns who connected, the granted scopes and the expiry, nothing more.
 */
import { z } from "zod";

export const OAuthConnectionStateSchema = z.discriminatedUnion("state", [
  z
    .object({
      state: z.literal("connected"),
      issuer: z.string().nullable(),
      subject: z.string().nullable(),
      scopes: z.array(z.string()),
      expiresAt: z.string().nullable(),
      connectedAt: z.string().nullable(),
    })
    .strict(),
  z
    .object({
      state: z.literal("not_connected"),
      /** The latest inspection was refused for want of authorization (HTTP 401). */
      isRequired: z.boolean(),
    })
    .strict(),
  z
    .object({
      state: z.literal("unavailable"),
      /** Why Connect cannot work here (a stdio server, or no secret store key). */
      reason: z.string(),
    })
    .strict(),
]);
export type OAuthConnectionState = z.infer<typeof OAuthConnectionStateSchema>;

/** POST …/oauth/connect answers with where to send the browser. */
export const OAuthConnectResponseSchema = z
  .object({ authorizationUrl: z.url({ protocol: /^https?$/ }) })
  .strict();
export type OAuthConnectResponse = z.infer<typeof OAuthConnectResponseSchema>;

const RevocableTokenSchema = z.enum(["refresh_token", "access_token"]);

/**
 * DELETE …/oauth (Disconnect) answers with what the authorization server was told. The stored
 * state is deleted whatever it says: `revoked` (every stored token revoked, RFC 7009), `not_told`
 * (some or all were not: no endpoint, a network error, an error answer; `reason` says which),
 * `nothing_stored` (no token was held). `message` is the sentence the card shows; never a token.
 */
export const OAuthDisconnectResponseSchema = z
  .object({
    deleted: z.boolean(),
    revocation: z.enum(["revoked", "not_told", "nothing_stored"]),
    endpoint: z.string().nullable(),
    revoked: z.array(RevocableTokenSchema),
    notRevoked: z.array(z.object({ token: RevocableTokenSchema, reason: z.string() }).strict()),
    message: z.string(),
  })
  .strict();
export type OAuthDisconnectResponse = z.infer<typeof OAuthDisconnectResponseSchema>;

/** The workbench's callback (redirect_uri): exempt from the owner check, it only hands over. */
export const OAUTH_CALLBACK_PATH = "/oauth/callback";
/** Where the hand-over lands, same-origin, so the owner's SameSite=Strict session cookie is sent. */
export const OAUTH_FINISH_PATH = "/oauth/finish";
/** The Client ID Metadata Document, served publicly at a stable URL. */
export const OAUTH_CLIENT_METADATA_PATH = "/oauth/client-metadata.json";
