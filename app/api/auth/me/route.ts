import type { MeResponse } from "@/lib/auth/api";
import { oidcEnabled } from "@/lib/auth/oidc";
import { principalOf, principalRole } from "@/lib/auth/principal";
import { fourEyesSettings } from "@/lib/decisions/four-eyes";
import { jsonResponse, withRoute } from "@/lib/http/route";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Who is signed in (as the proxy decided), their role, and how decisions are approved here. */
export const GET = withRoute((request: Request) => {
  const principal = principalOf(request);
  const body: MeResponse = {
    principal,
    role: principalRole(principal),
    oidc: oidcEnabled(),
    fourEyes: fourEyesSettings(),
  };
  return Promise.resolve(jsonResponse(body));
});
