import { AppError } from "@/lib/errors";
import { SignInRequestSchema } from "@/lib/auth/api";
import { getAuthConfig } from "@/lib/auth/owner-token";
import {
  constantTimeEqual,
  createSessionValue,
  isSecureRequest,
  sessionCookieHeader,
  SESSION_PROOF_HEADER,
  sessionProofOf,
  SESSION_TTL_SECONDS,
} from "@/lib/auth/session";
import { currentSessionEpoch } from "@/lib/auth/session-epoch-store";
import { readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { logOwnerTokenUse } from "@/lib/store/events";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Exempt from the proxy's credential check (it is how credentials are obtained); Host and Origin checks still apply. */
export const POST = withRoute(async (request: Request) => {
  const { token } = await readJson(request, SignInRequestSchema, { maxBytes: 4096 });
  const { ownerToken } = getAuthConfig();
  if (!constantTimeEqual(token, ownerToken)) {
    throw new AppError("UNAUTHORIZED", "that is not this workbench's owner token");
  }
  const db = await getDb();
  // Break-glass: the session this opens is the owner token's; logged before the cookie is issued.
  await logOwnerTokenUse(db, {
    via: "sign-in",
    method: request.method,
    path: new URL(request.url).pathname,
  });
  const epoch = await currentSessionEpoch(db);
  const session = createSessionValue(ownerToken, Date.now(), SESSION_TTL_SECONDS, epoch);
  // The cookie goes to every port of this host; the proof only to the page that signed in, which
  // keeps it where only this origin can read it (lib/auth/session-origin.ts).
  return new Response(null, {
    status: 204,
    headers: {
      "Set-Cookie": sessionCookieHeader(session, { secure: isSecureRequest(request) }),
      [SESSION_PROOF_HEADER]: sessionProofOf(session, ownerToken),
      "Cache-Control": "no-store",
    },
  });
});
