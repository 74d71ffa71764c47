import { AppError } from "@/lib/errors";
import { SignInRequestSchema } from "@/lib/auth/api";
import { getAuthConfig } from "@/lib/auth/owner-token";
import { constantTimeEqual, createSessionValue, sessionCookieHeader } from "@/lib/auth/session";
import { readJson, withRoute } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Exempt from the proxy's credential check (it is how credentials are obtained); Host and Origin checks still apply. */
export const POST = withRoute(async (request: Request) => {
  const { token } = await readJson(request, SignInRequestSchema, { maxBytes: 4096 });
  const { ownerToken } = getAuthConfig();
  if (!constantTimeEqual(token, ownerToken)) {
    throw new AppError("UNAUTHORIZED", "that is not this workbench's owner token");
  }
  const secure = new URL(request.url).protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  return new Response(null, {
    status: 204,
    headers: { "Set-Cookie": sessionCookieHeader(createSessionValue(ownerToken), { secure }), "Cache-Control": "no-store" },
  });
});
