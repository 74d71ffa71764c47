import { htmlPageResponse } from "@/lib/http/html-page";
import { OAUTH_FINISH_PATH } from "@/lib/workbench/oauth-api";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The parameters an authorization response may carry (RFC 6749 §4.1.2, RFC 9207 `iss`), bounded. */
const PASSED = ["code", "state", "error", "error_description", "iss"] as const;
const MAX_PARAM_CHARS = 2048;

/**
 * The redirect_uri. The authorization server sends the browser here from its own site, so the
 * owner's SameSite=Strict session cookie is not sent, and this path is exempt from the owner check
 * (lib/auth/check.ts). It stores and exchanges nothing: it hands the response over, same-origin,
 * to /oauth/finish, where the cookie is sent and the state is checked against the session.
 */
export function GET(request: Request): Response {
  const url = new URL(request.url);
  const next = new URLSearchParams();
  for (const name of PASSED) {
    const value = url.searchParams.get(name);
    if (value !== null && value.length <= MAX_PARAM_CHARS) next.set(name, value);
  }
  if (!next.has("state"))
    return htmlPageResponse({
      status: 400,
      title: "Not an authorization response",
      paragraphs: [
        "This address receives the answer of an authorization server after Connect, and this request carries no state. Nothing was stored.",
      ],
      link: { href: "/", label: "Back to the workbench" },
    });
  return htmlPageResponse({
    status: 200,
    title: "Finishing the connection…",
    paragraphs: ["Handing the authorization server's answer to the workbench."],
    link: { href: `${OAUTH_FINISH_PATH}?${next.toString()}`, label: "Continue" },
    isRedirect: true,
  });
}
