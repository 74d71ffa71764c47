import { safeNextPath } from "@/lib/auth/next-path";
import {
  OIDC_CALLBACK_PATH,
  oidcClient,
  oidcSettings,
  publicOrigin,
  startLogin,
} from "@/lib/auth/oidc";
import { savePendingLogin } from "@/lib/auth/oidc-login";
import { isSecureRequest } from "@/lib/auth/session";
import { htmlPageResponse } from "@/lib/http/html-page";
import { getDb } from "@/lib/store/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Sends the browser to the identity provider (authorization code + PKCE). Exempt: it is how a person signs in. */
export async function GET(request: Request): Promise<Response> {
  const settings = oidcSettings();
  if (!settings)
    return htmlPageResponse({
      status: 404,
      title: "No identity provider",
      paragraphs: [
        "This workbench has no OpenID Connect provider configured; sign in with the owner token.",
      ],
      link: { href: "/sign-in", label: "Sign in" },
    });
  const url = new URL(request.url);
  const db = await getDb();
  try {
    const config = await oidcClient(db, settings);
    const start = await startLogin(
      config,
      `${publicOrigin(request)}${OIDC_CALLBACK_PATH}`,
      settings,
    );
    const cookie = await savePendingLogin(
      db,
      {
        codeVerifier: start.codeVerifier,
        state: start.state,
        nonce: start.nonce,
        next: safeNextPath(url.searchParams.get("next")),
      },
      isSecureRequest(request),
    );
    return new Response(null, {
      status: 303,
      headers: { Location: start.url.href, "Set-Cookie": cookie, "Cache-Control": "no-store" },
    });
  } catch (error) {
    console.error(
      "[auth] OpenID Connect sign-in could not start:",
      error instanceof Error ? error.message : error,
    );
    return htmlPageResponse({
      status: 502,
      title: "The identity provider cannot be reached",
      paragraphs: [
        "The workbench could not read the provider's configuration; see the server log.",
      ],
      link: { href: "/sign-in", label: "Back to sign-in" },
    });
  }
}
