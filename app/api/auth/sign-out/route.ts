import { getAuthConfig } from "@/lib/auth/owner-token";
import {
  clearSessionCookieHeader,
  isSecureRequest,
  readSessionCookie,
  sessionIdOf,
  verifySessionValue,
} from "@/lib/auth/session";
import { currentSessionEpoch, signOutSession } from "@/lib/auth/session-epoch-store";
import { withRoute } from "@/lib/http/route";
import { isPersonSessionId } from "@/lib/auth/people";
import { closePersonSession } from "@/lib/auth/people-store";
import { getDb } from "@/lib/store/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Ends this browser's session on the server, then clears its cookie: the session is recorded as
 * signed out until its cookie would expire, so a copy of the cookie (one a server under review
 * was handed, say) stops working too. POST /api/auth/sign-out-everywhere ends every session.
 */
export const POST = withRoute(async (request: Request) => {
  const cookie = readSessionCookie(request.headers.get("cookie"));
  const sessionId = cookie === null ? null : sessionIdOf(cookie);
  if (cookie !== null && sessionId !== null) {
    const db = await getDb();
    const check = verifySessionValue(
      cookie,
      getAuthConfig().ownerToken,
      Date.now(),
      await currentSessionEpoch(db),
    );
    if (check.ok) await signOutSession(db, sessionId, check.expiresAt);
    if (check.ok && isPersonSessionId(sessionId)) await closePersonSession(db, sessionId);
  }
  return new Response(null, {
    status: 204,
    headers: {
      "Set-Cookie": clearSessionCookieHeader({ secure: isSecureRequest(request) }),
      "Cache-Control": "no-store",
    },
  });
});
