/**
 * The Client ID Metadata Document (draft-ietf-oauth-client-id-metadata-document, used by the MCP
 * authorization spec 2025-11-25): the JSON the workbench serves at a stable https URL, whose URL is
 * the `client_id`. A public client: PKCE, no secret, so nothing secret is in it.
 */
import type { ClientMetadataDocument } from "@/lib/mcp/oauth/interface";

export const DEFAULT_CLIENT_NAME = "Relay Review";

export type ClientMetadataDocumentInput = {
  /** Where the document is served; becomes `client_id`. https, with a path. */
  url: string;
  /** The callback URLs the authorization server may redirect to. */
  redirectUris: readonly string[];
  name?: string;
  clientUri?: string;
};

/**
 * The document's content. Throws when `url` is not an https URL with a path (authorization servers
 * refuse any other `client_id` URL), or a redirect URI is neither https nor loopback http.
 */
export function clientMetadataDocument(input: ClientMetadataDocumentInput): ClientMetadataDocument {
  const url = new URL(input.url);
  if (url.protocol !== "https:" || url.pathname === "/" || url.hash || url.username)
    throw new Error(
      `a client metadata document URL must be https with a path and no fragment or credentials, not ${url.origin}${url.pathname}`,
    );
  for (const r of input.redirectUris) {
    const u = new URL(r);
    const isLoopback = ["127.0.0.1", "[::1]", "localhost"].includes(u.hostname);
    if (u.protocol !== "https:" && !(u.protocol === "http:" && isLoopback))
      throw new Error(`redirect URI ${u.origin}${u.pathname} is neither https nor loopback http`);
  }
  return {
    client_id: url.href,
    client_name: input.name ?? DEFAULT_CLIENT_NAME,
    ...(input.clientUri ? { client_uri: input.clientUri } : {}),
    redirect_uris: [...input.redirectUris],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
}
