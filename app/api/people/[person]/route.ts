import { z } from "zod";
import { AssignRoleRequestSchema } from "@/lib/auth/api";
import { effectiveRole } from "@/lib/auth/people";
import { AppError } from "@/lib/errors";
import { jsonResponse, parseParam, readJson, withRoute } from "@/lib/http/route";
import { getDb } from "@/lib/store/db";
import { auditOwnerAction } from "@/lib/workbench/audit-action";
import { assignRole } from "@/lib/auth/people-store";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ person: string }> };

/** An admin assigns a person's role (null: back to what their IdP groups give). */
export const PUT = withRoute(async (request: Request, { params }: Ctx) => {
  const key = parseParam(
    z.string().min(3).max(800),
    decodeURIComponent((await params).person),
    "person",
  );
  const { role } = await readJson(request, AssignRoleRequestSchema);
  const db = await getDb();
  const person = await assignRole(db, key, role);
  if (!person) throw new AppError("NOT_FOUND", "nobody by that issuer and subject has signed in");
  await auditOwnerAction(db, {
    kind: "person.role_assigned",
    summary: `${person.name} assigned ${role ?? "the role of their IdP groups"}`,
    detail: { person: key, assignedRole: role, role: effectiveRole(person) },
  });
  return jsonResponse({ person: key, role: effectiveRole(person) });
});
