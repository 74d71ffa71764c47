/**
 * Every request passes here first (no matcher: static assets too, so nothing is forgotten).
 * The decision is lib/auth/check.ts; this file only turns it into a response, and gives every
 * response its Content-Security-Policy (lib/http/csp.ts) with a fresh nonce: Next reads the nonce
 * from the request's CSP header and puts it on the scripts it renders.
 */
import { NextResponse, type NextRequest } from "next/server";
import { checkRequest } from "@/lib/auth/check";
import { getAuthConfig } from "@/lib/auth/owner-token";
import { reportOwnerTokenUse } from "@/lib/auth/owner-token-use";
import { readSessionCookie, sessionIdOf } from "@/lib/auth/session";
import { readSessionStanding, type SessionStanding } from "@/lib/auth/session-epoch";
import { newNonce, policyFor } from "@/lib/http/csp";
import {
  encodePrincipal,
  OWNER_PRINCIPAL,
  PRINCIPAL_HEADER,
  principalRole,
  type Principal,
} from "@/lib/auth/principal";
import { hasRole, requiredRole } from "@/lib/auth/roles";

const NO_STORE = { "Cache-Control": "no-store" };

function deny(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status, headers: NO_STORE });
}

/** Never matches an epoch: with no readable standing, no session cookie is admitted (bearer still is). */
const UNREADABLE: SessionStanding = { epoch: "unavailable", signedOut: true };

export async function proxy(request: NextRequest): Promise<Response> {
  const csp = policyFor(request.nextUrl.pathname, newNonce(), {
    dev: process.env.NODE_ENV === "development",
  });
  const response = await decide(request, csp);
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

async function decide(request: NextRequest, csp: string): Promise<Response> {
  let config;
  try {
    config = getAuthConfig();
  } catch (error) {
    // Fail closed: without the owner token nobody is let in.
    console.error("[auth] cannot resolve the owner token:", error);
    return deny(500, "INTERNAL", "the workbench cannot check credentials; see the server log");
  }
  // The standing is read only for a request that would be admitted by its cookie (no bearer).
  const cookie = readSessionCookie(request.headers.get("cookie"));
  const sessionId = cookie === null ? null : sessionIdOf(cookie);
  const standing =
    request.headers.get("authorization") === null && sessionId !== null
      ? ((await readSessionStanding(sessionId)) ?? UNREADABLE)
      : undefined;
  const result = checkRequest(
    { method: request.method, url: request.url, headers: request.headers },
    config,
    Date.now(),
    standing?.epoch,
    standing?.signedOut,
  );
  if (result.allow) {
    // Break-glass: a bearer use of the owner token is logged before it is let through, or refused.
    if (
      result.via === "bearer" &&
      !(await reportOwnerTokenUse({
        via: "bearer",
        method: request.method,
        path: request.nextUrl.pathname,
      }))
    )
      return deny(
        503,
        "UNAVAILABLE",
        "the use of the owner token could not be logged; see the server log",
      );
    const headers = new Headers(request.headers);
    headers.set("Content-Security-Policy", csp);
    // Who is asking, decided here once: the header a client sent is always replaced or removed.
    headers.delete(PRINCIPAL_HEADER);
    if (result.via !== "exempt") {
      const principal: Principal = standing?.person
        ? { kind: "person", ...standing.person }
        : OWNER_PRINCIPAL;
      const needed = requiredRole(request.method, request.nextUrl.pathname);
      const held = principalRole(principal);
      if (!hasRole(held, needed))
        return deny(
          403,
          "FORBIDDEN",
          held === null
            ? "you are signed in but hold no role yet; an admin assigns one on the People page"
            : `this needs the ${needed} role; you are ${held}`,
        );
      headers.set(PRINCIPAL_HEADER, encodePrincipal(principal));
    }
    return NextResponse.next({ request: { headers } });
  }
  if (result.redirectTo) {
    // Next wants an absolute Location from the proxy; the Host it is built from passed the check above.
    const response = NextResponse.redirect(new URL(result.redirectTo, request.nextUrl), 307);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
  const code =
    result.status === 401 ? "UNAUTHORIZED" : result.status === 400 ? "BAD_REQUEST" : "FORBIDDEN";
  return deny(result.status, code, result.reason);
}
