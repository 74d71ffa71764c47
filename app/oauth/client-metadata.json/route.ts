import { htmlPageResponse } from "@/lib/http/html-page";
import { jsonResponse } from "@/lib/http/route";
import { clientMetadataFor, publicOrigin } from "@/lib/workbench/oauth-flow";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * The Client ID Metadata Document: its URL is the workbench's `client_id` for authorization
 * servers that support them. Public (authorization servers fetch it without credentials) and
 * free of secrets (a public client with PKCE). Only over https: no authorization server accepts
 * an http client_id URL, so over http there is nothing to serve.
 */
export function GET(request: Request): Response {
  const document = clientMetadataFor(publicOrigin(request));
  if (!document)
    return htmlPageResponse({
      status: 404,
      title: "No client metadata document over http",
      paragraphs: [
        "The workbench serves its Client ID Metadata Document only when it is reached over https; over http authorization servers register it dynamically instead.",
      ],
    });
  return jsonResponse(document, 200, { "Cache-Control": "public, max-age=300" });
}
