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

/** The workbench's callback (redirect_uri): exempt from the owner check, it only hands over. */
export const OAUTH_CALLBACK_PATH = "/oauth/callback";
/** Where the hand-over lands, same-origin, so the owner's SameSite=Strict session cookie is sent. */
export const OAUTH_FINISH_PATH = "/oauth/finish";
/** The Client ID Metadata Document, served publicly at a stable URL. */
export const OAUTH_CLIENT_METADATA_PATH = "/oauth/client-metadata.json";
