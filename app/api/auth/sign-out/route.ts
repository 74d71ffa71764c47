import { clearSessionCookieHeader } from "@/lib/auth/session";
import { withRoute } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Clears this browser's session cookie. Sessions are stateless: rotating the owner token ends them all. */
export const POST = withRoute((request: Request) => {
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return Promise.resolve(
    new Response(null, {
      status: 204,
      headers: { "Set-Cookie": clearSessionCookieHeader({ secure }), "Cache-Control": "no-store" },
    }),
  );
});
