/**
 * The variables a review's transport needs, by name, and where the workbench puts their values at
 * connect time: `envNames` (stdio), `${NAME}` references in a stdio argument or an HTTP URL, and
 * `headerEnv` (http/sse). Also the transport as a share link shows it. Names only: a review never
 * holds a value. Pure.
 */
import type { Transport } from "@/lib/review/schema";
import { referencesIn } from "@/lib/secrets/references";

export type TransportVariables = {
  /** Passed as environment variables (stdio). */
  env: string[];
  /** Substituted into arguments (stdio). */
  args: string[];
  /** Header name → variable (http/sse). */
  headers: Record<string, string>;
  /** Substituted into the URL (http/sse). */
  url: string[];
};

export function transportVariables(t: Transport): TransportVariables {
  switch (t.kind) {
    case "stdio":
      return {
        env: [...t.envNames],
        args: [...new Set(t.args.flatMap(referencesIn))],
        headers: {},
        url: [],
      };
    case "http":
    case "sse":
      return { env: [], args: [], headers: { ...t.headerEnv }, url: referencesIn(t.url) };
    case "manual":
      return { env: [], args: [], headers: {}, url: [] };
  }
}

/** Every variable name a transport needs, sorted and unique. */
export function transportVariableNames(t: Transport): string[] {
  const v = transportVariables(t);
  return [...new Set([...v.env, ...v.args, ...Object.values(v.headers), ...v.url])].sort();
}

/**
 * How the share view shows a transport: what the decision record shows (kind and variable
 * names), plus the command's base name or the URL's origin, which say what runs or where without
 * any argument, path or query that could carry a value.
 */
export type SharedTransport = {
  kind: Transport["kind"];
  command: string | null;
  origin: string | null;
  envNames: string[];
  headerEnv: Record<string, string>;
};

export function sharedTransport(t: Transport): SharedTransport {
  const envNames = transportVariableNames(t);
  switch (t.kind) {
    case "stdio":
      return {
        kind: "stdio",
        command: t.command.replace(/\\/g, "/").split("/").pop()!.slice(0, 120),
        origin: null,
        envNames,
        headerEnv: {},
      };
    case "http":
    case "sse": {
      let origin: string | null = null;
      try {
        origin = new URL(t.url).origin;
      } catch {
        origin = null;
      }
      return { kind: t.kind, command: null, origin, envNames, headerEnv: { ...t.headerEnv } };
    }
    case "manual":
      return { kind: "manual", command: null, origin: null, envNames: [], headerEnv: {} };
  }
}
