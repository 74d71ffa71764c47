/** Request and response shapes of the auth and people routes, shared by the routes and the pages. */
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";

export const SignInRequestSchema = z
  .object({ token: z.string().min(1, "must not be empty").max(1000) })
  .strict();
export type SignInRequest = z.infer<typeof SignInRequestSchema>;

const RoleSchema = z.enum(ROLES);

/** GET /api/auth/me: who is signed in, and how decisions are approved here. */
export const MeResponseSchema = z.object({
  principal: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("owner_token") }),
    z.object({
      kind: z.literal("person"),
      issuer: z.string(),
      subject: z.string(),
      name: z.string(),
      role: RoleSchema.nullable(),
    }),
  ]),
  role: RoleSchema.nullable(),
  oidc: z.boolean(),
  fourEyes: z.object({ enabled: z.boolean(), requiredApprovals: z.number().int().min(1) }),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

export const PersonViewSchema = z.object({
  key: z.string(),
  issuer: z.string(),
  subject: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  groups: z.array(z.string()),
  idpRole: RoleSchema.nullable(),
  assignedRole: RoleSchema.nullable(),
  role: RoleSchema.nullable(),
  lastSeen: z.string(),
});
export type PersonView = z.infer<typeof PersonViewSchema>;
export const ListPeopleResponseSchema = z.object({ people: z.array(PersonViewSchema) });

/** PUT /api/people/[person]: an admin's assignment; null returns the person to their IdP groups. */
export const AssignRoleRequestSchema = z.object({ role: RoleSchema.nullable() }).strict();
