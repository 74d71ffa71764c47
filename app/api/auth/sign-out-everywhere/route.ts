import { clearSessionCookieHeader, isSecureRequest } from "@/lib/auth/session";
import { revokeAllSessions } from "@/lib/auth/session-epoch-store";
import { withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/**
 * Ends every session of every browser, on every instance sharing the store: a new session epoch
 * in the settings table, which the proxy checks on each cookie request. Owner only (the proxy).
 */
export const POST = withRoute(async (request: Request) => {
  await revokeAllSessions(await getDb());
  return new Response(null, {
    status: 204,
    headers: {
      "Set-Cookie": clearSessionCookieHeader({ secure: isSecureRequest(request) }),
      "Cache-Control": "no-store",
    },
  });
});
