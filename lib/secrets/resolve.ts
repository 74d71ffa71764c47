/**
 * Values for the variable names a server was allowed, at connect time, from three sources in
 * order: the launcher's fixed non-secret values, the secret store, the workbench's environment.
 * Reserved names resolve from none of them. The result names each variable's source for the
 * inspection's record; values stay in memory for the spawn or the request. Pure.
 */
import { RESERVED_NAMES_RULE, isReservedName } from "@/lib/secrets/references";

export type VariableSource = "secret" | "launcher" | "environment";
export type ResolvedVariables =
  | { ok: true; values: Map<string, string>; variables: { name: string; source: VariableSource }[] }
  | { ok: false; message: string };

export type VariableSources = {
  fixed: Readonly<Record<string, string>>;
  secrets: ReadonlyMap<string, string>;
  env: Readonly<Record<string, string | undefined>>;
};

/** Where the owner sets a value: the refusal names it. */
export const SECRETS_PAGE_HINT = "set it on the workbench's Secrets page (/secrets)";

export function resolveVariables(
  names: readonly string[],
  sources: VariableSources,
  purpose: (name: string) => string = (n) => n,
): ResolvedVariables {
  const values = new Map<string, string>();
  const variables: { name: string; source: VariableSource }[] = [];
  for (const name of [...new Set(names)]) {
    if (isReservedName(name))
      return {
        ok: false,
        message: `${purpose(name)} is never given to a server: ${RESERVED_NAMES_RULE}`,
      };
    const fixed = Object.hasOwn(sources.fixed, name) ? sources.fixed[name] : undefined;
    const secret = sources.secrets.get(name);
    const fromEnv = sources.env[name];
    const [value, source]: [string | undefined, VariableSource] =
      fixed !== undefined
        ? [fixed, "launcher"]
        : secret !== undefined
          ? [secret, "secret"]
          : [fromEnv, "environment"];
    if (value === undefined)
      return {
        ok: false,
        message: `the variable ${purpose(name)} is not set: ${SECRETS_PAGE_HINT}`,
      };
    values.set(name, value);
    variables.push({ name, source });
  }
  return { ok: true, values, variables };
}
