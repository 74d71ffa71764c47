import { clearSessionCookieHeader, isSecureRequest } from "@/lib/auth/session";
import { withRoute } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Clears this browser's session cookie; POST /api/auth/sign-out-everywhere ends every session. */
export const POST = withRoute((request: Request) =>
  Promise.resolve(
    new Response(null, {
      status: 204,
      headers: {
        "Set-Cookie": clearSessionCookieHeader({ secure: isSecureRequest(request) }),
        "Cache-Control": "no-store",
      },
    }),
  ),
);
