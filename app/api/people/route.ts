import type { PersonView } from "@/lib/auth/api";
import { effectiveRole } from "@/lib/auth/people";
import { personKey } from "@/lib/auth/principal";
import { jsonResponse, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { listPeople } from "@/lib/auth/people-store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Everyone who has signed in, with their IdP groups and roles (admin only: lib/auth/roles.ts). */
export const GET = withRoute(async () => {
  const people: PersonView[] = (await listPeople(await getDb())).map((p) => ({
    key: personKey(p),
    issuer: p.issuer,
    subject: p.subject,
    name: p.name,
    email: p.email,
    groups: p.groups,
    idpRole: p.idpRole,
    assignedRole: p.assignedRole,
    role: effectiveRole(p),
    lastSeen: p.lastSeen,
  }));
  return jsonResponse({ people });
});
