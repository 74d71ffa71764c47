import { displayNameOf, groupsOf, newPersonSessionId, roleFromGroups } from "@/lib/auth/people";
import {
  finishLogin,
  OIDC_CALLBACK_PATH,
  oidcClient,
  oidcSettings,
  publicOrigin,
} from "@/lib/auth/oidc";
import { clearLoginCookie, LOGIN_COOKIE, takePendingLogin } from "@/lib/auth/oidc-login";
import { getAuthConfig } from "@/lib/auth/owner-token";
import { personKey } from "@/lib/auth/principal";
import {
  createSessionValue,
  isSecureRequest,
  sessionProofOf,
  readCookie,
  sessionCookieHeader,
  SESSION_TTL_SECONDS,
} from "@/lib/auth/session";
import { currentSessionEpoch } from "@/lib/auth/session-epoch-store";
import { htmlPageResponse } from "@/lib/http/html-page";
import { getDb } from "@/lib/store/db";
import { appendEvent } from "@/lib/store/events";
import { openPersonSession, upsertPersonAtSignIn } from "@/lib/auth/people-store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function failed(message: string): Response {
  const response = htmlPageResponse({
    status: 400,
    title: "Sign-in did not complete",
    paragraphs: [message],
    link: { href: "/sign-in", label: "Try again" },
  });
  response.headers.append("Set-Cookie", clearLoginCookie());
  return response;
}

/**
 * The redirect URI. Checks the provider's answer against the login this browser started (state,
 * nonce, PKCE verifier, issuer), records the person, opens their session, and hands over to the
 * sign-in page with a same-origin refresh (so the Strict session cookie is sent there). The
 * session's origin proof travels in that page's URL fragment, which no request line carries: the
 * page keeps it where only this origin can read it (as after an owner-token sign-in, docs/security.md)
 * and goes on to the page the person wanted.
 */
export async function GET(request: Request): Promise<Response> {
  const settings = oidcSettings();
  if (!settings) return failed("This workbench has no OpenID Connect provider configured.");
  const handle = readCookie(request.headers.get("cookie"), LOGIN_COOKIE);
  const db = await getDb();
  const pending = handle ? await takePendingLogin(db, handle) : null;
  if (!pending)
    return failed("This sign-in was not started in this browser, or it took over ten minutes.");
  let claims: Record<string, unknown>;
  try {
    // The URL the provider redirected to, on the origin the browser used (not Next's own address).
    const here = new URL(request.url);
    const origin = publicOrigin(request);
    claims = await finishLogin(
      await oidcClient(db, settings),
      new URL(`${origin}${here.pathname}${here.search}`),
      pending,
      `${origin}${OIDC_CALLBACK_PATH}`,
    );
  } catch (error) {
    console.error(
      "[auth] OpenID Connect sign-in failed:",
      error instanceof Error ? error.message : error,
    );
    return failed(
      "The identity provider's answer did not check out; nothing was signed in. See the server log.",
    );
  }
  const issuer = typeof claims.iss === "string" ? claims.iss : settings.issuer.href;
  const subject = String(claims.sub);
  const groups = groupsOf(claims, settings.groupsClaim);
  const person = await upsertPersonAtSignIn(db, {
    issuer,
    subject,
    name: displayNameOf(claims),
    email: typeof claims.email === "string" ? claims.email.slice(0, 320) : null,
    groups,
    idpRole: roleFromGroups(groups, settings.roleMap, settings.defaultRole),
  });
  const sessionId = newPersonSessionId();
  const now = Date.now();
  await openPersonSession(db, sessionId, personKey(person), now + SESSION_TTL_SECONDS * 1000, now);
  await appendEvent(db, {
    kind: "auth.signed_in",
    actor: { kind: "person", id: personKey(person) },
    summary: `${person.name} signed in`,
    detail: {
      name: person.name,
      groups: groups.slice(0, 50),
      role: person.assignedRole ?? person.idpRole,
    },
  });
  const value = createSessionValue(
    getAuthConfig().ownerToken,
    now,
    SESSION_TTL_SECONDS,
    await currentSessionEpoch(db),
    sessionId,
  );
  const response = htmlPageResponse({
    status: 200,
    title: "Signed in",
    paragraphs: [`Signed in as ${person.name}.`],
    link: {
      href: `/sign-in?${new URLSearchParams({ next: pending.next })}#${new URLSearchParams({
        proof: sessionProofOf(value, getAuthConfig().ownerToken),
      })}`,
      label: "Continue",
    },
    isRedirect: true,
  });
  response.headers.append(
    "Set-Cookie",
    sessionCookieHeader(value, { secure: isSecureRequest(request) }),
  );
  response.headers.append("Set-Cookie", clearLoginCookie());
  return response;
}
