/**
 * The operator's target plus what a signed record says its server needs, for `verify-record` and
 * `gate`: the values of the record's `envNames` (stdio) or `headerEnv` (http/sse) come from the
 * operator's environment by name, and whatever the operator gave explicitly (`--env`, `--header`,
 * `--transport`) wins. A name that is not set is reported, not invented; the command decides
 * whether that is a warning. The record never carries a value, so this is the only place one
 * joins it.
 */
import type { DecisionRecord } from "@/lib/decisions/record";
import { httpModeOf } from "@/lib/transport-kind";
import type { InspectTarget } from "@/lib/mcp/types";

export function withRecordVariables(
  target: InspectTarget,
  transport: DecisionRecord["server"]["transport"],
  env: Readonly<Record<string, string | undefined>> = process.env,
): { target: InspectTarget; missing: string[] } {
  const missing: string[] = [];
  const valuesOf = (pairs: [key: string, name: string][]) => {
    const out: Record<string, string> = {};
    for (const [key, name] of pairs) {
      const value = env[name];
      if (value === undefined) missing.push(name);
      else out[key] = value;
    }
    return out;
  };
  if (target.kind === "stdio") {
    const recorded = valuesOf(transport.envNames.map((name) => [name, name]));
    return { target: { ...target, env: { ...recorded, ...(target.env ?? {}) } }, missing };
  }
  const recorded = valuesOf(Object.entries(transport.headerEnv));
  return {
    target: {
      ...target,
      headers: { ...recorded, ...(target.headers ?? {}) },
      mode: target.mode ?? httpModeOf(transport.kind),
    },
    missing,
  };
}
