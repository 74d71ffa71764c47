/**
 * Request and response shapes of the secrets API, shared by the route handlers and the browser.
 * Write-only by construction: no response schema has a field that could carry a value.
 */
import { z } from "zod";

const NameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/);
const UserSchema = z.object({
  kind: z.enum(["launcher", "httpTarget"]),
  id: z.string(),
  label: z.string(),
});

/** PUT /api/secrets/[name]. */
export const SetSecretRequestSchema = z
  .object({
    value: z
      .string()
      .min(1, "the value is empty")
      .max(16 * 1024),
  })
  .strict();
export type SetSecretRequest = z.input<typeof SetSecretRequestSchema>;

export const SetSecretResponseSchema = z.object({
  name: NameSchema,
  created: z.boolean(),
  updatedAt: z.iso.datetime(),
});
export type SetSecretResponse = z.infer<typeof SetSecretResponseSchema>;

/** GET /api/secrets: every set name and every name an allowlist entry may receive, with who may use it. */
export const ListSecretsResponseSchema = z.object({
  /** False when this instance has no key (DATABASE_URL without RELAY_REVIEW_SECRET_KEY[_FILE]). */
  available: z.boolean(),
  keyMessage: z.string().nullable(),
  names: z.array(
    z.object({
      name: NameSchema,
      set: z.boolean(),
      updatedAt: z.iso.datetime().nullable(),
      /** Launchers and HTTP targets whose allowlist names it; empty: no server may be given it. */
      allowedBy: z.array(UserSchema),
      /** Fixed by a launcher in launchers.json (not secret, not settable here). */
      fixedBy: z.array(z.string()),
    }),
  ),
});
export type ListSecretsResponse = z.infer<typeof ListSecretsResponseSchema>;

export const VARIABLE_STATES = [
  "secret",
  "launcher",
  "environment",
  "unset",
  "reserved",
  "not_allowed",
] as const;

/** GET /api/reviews/[id]/servers/[serverId]/variables: what the server needs and whether each is set. */
export const ServerVariablesResponseSchema = z.object({
  variables: z.array(
    z.object({
      name: NameSchema,
      /** Where the value goes: an env variable, an argument, a header, the URL. */
      where: z.array(z.enum(["env", "arg", "header", "url", "fixed"])),
      state: z.enum(VARIABLE_STATES),
    }),
  ),
  /** Why the server's allowlist entry could not be found (then every state is `not_allowed`). */
  allowlist: z.string().nullable(),
});
export type ServerVariablesResponse = z.infer<typeof ServerVariablesResponseSchema>;
